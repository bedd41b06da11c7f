import { defineCachedRead } from "../../http/cached-route.ts";
import { notFound } from "../../http/http.ts";
import { slugParam } from "../../../data/domain/queries.ts";
import { getProductBySlug } from "../../../data/db/products.ts";
import { dealFactsFor, dealFactsInPounds } from "../../../data/db/deal-facts.ts";
import { sizesOf } from "../../../data/db/product-pages.ts";
import { isPrescriptionOnly } from "../../../data/domain/legal-category.ts";
import { productJson, productSizeJson } from "../../../data/domain/catalogue-json.ts";

/**
 * The product with its offers, `deal` (lowest in 90 days, typical price, deal, supported
 * was-price) and its family's `sizes`. A prescription-only medicine (POM-V, POM-VPS) may not be
 * advertised: its `deal` is null, whatever its prices did.
 */
export default defineCachedRead({
  path: { slug: slugParam() },
  maxAgeSeconds: 10,
  read: ({ path: { slug } }, { db }) => {
    const product = getProductBySlug(db, slug);
    if (!product) throw notFound("Product not found");
    const deal = isPrescriptionOnly(product.legalCategory) ? null : dealFactsInPounds(dealFactsFor(db, [product.id], new Date()).get(product.id)!);
    // Its deal facts, and the sizes of its family (each its own product and address) for the islands' size choice.
    return { ...productJson(product), deal, sizes: sizesOf(db, product.id).map(productSizeJson) };
  },
});
