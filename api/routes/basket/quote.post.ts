import { defineRoute } from "../../context.ts";
import { readBasketCatalogue } from "../../../data/db/basket.ts";
import { quoteBasket } from "../../../data/domain/basket.ts";
import { basketQuoteJson } from "../../../data/domain/basket-json.ts";
import { basketQuoteBody } from "../../../data/domain/basket.schema.ts";
import { pricePipelineConfig } from "../../../data/config.ts";

/**
 * The cheapest way to buy a basket: the cheapest split across retailers, the cheapest single
 * shop and the saving between them, at the price to the door (each retailer's delivery rule on
 * its order), from the offers that may be compared now. Products no longer in the catalogue are
 * listed as removed; products no retailer has in stock at a current price, as unavailable.
 * Stores nothing.
 */
export default defineRoute({ summary: "Quote the cheapest way to buy a basket", body: basketQuoteBody }, async (_event, { db }, { body }) => {
  const { lines } = await body();
  const now = new Date();
  const catalogue = readBasketCatalogue(
    db,
    lines.map((line) => line.productId),
    now,
    pricePipelineConfig().freshForMs,
  );
  const known = lines.filter((line) => catalogue.products.has(line.productId));
  return basketQuoteJson({
    quote: quoteBasket({ lines: known, offers: catalogue.offers, retailers: catalogue.retailers }),
    sources: catalogue,
    lines: known,
    removed: lines.filter((line) => !catalogue.products.has(line.productId)).map((line) => line.productId),
    quotedAt: now,
  });
});
