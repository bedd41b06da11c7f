import { defineAdminRoute } from "../../../context.ts";
import type { PriceHoldsResponse } from "../../../http/responses.ts";
import { pendingHolds } from "../../../../data/db/price-review.ts";

const pounds = (pence: number | null) => (pence === null ? null : pence / 100);

/** Prices held for review, oldest first, with the factor that held them. */
export default defineAdminRoute((_event, { db, admin }) => ({
  holds: pendingHolds(db).map((hold) => ({
    id: hold.id,
    product: hold.product,
    retailer: hold.retailer,
    publishedPrice: pounds(hold.publishedPricePence),
    heldPrice: hold.heldPricePence / 100,
    inStock: hold.inStock,
    source: hold.source,
    url: hold.url,
    observedAt: hold.observedAt,
    newOffer: hold.newOffer,
    reason: hold.reason,
  })),
  factor: admin.pipeline.holdPolicy,
}) satisfies PriceHoldsResponse);
