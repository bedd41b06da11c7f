import { defineRoute } from "../context.ts";
import { cacheNone, notFound } from "../http/http.ts";
import { affiliateLinksQuery } from "../../data/domain/queries.ts";
import { listAffiliateLinks, productExists } from "../../data/db/products.ts";

export default defineRoute({ query: affiliateLinksQuery }, (event, { db }, { query: { productId } }) => {
  if (!productExists(db, productId)) throw notFound("Product not found");
  cacheNone(event);
  return listAffiliateLinks(db, productId);
});
