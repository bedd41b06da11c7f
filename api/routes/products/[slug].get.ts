import { defineCachedRead } from "../../lib/cached-route.ts";
import { notFound } from "../../lib/http.ts";
import { slugParam } from "../../../data/domain/queries.ts";
import { getProductBySlug } from "../../../data/db/products.ts";
import { dealFactsFor, dealFactsInPounds } from "../../../data/db/deal-facts.ts";

/** The product with its offers and `deal`: lowest in 90 days, typical price, deal, supported was-price. */
export default defineCachedRead({
  path: { slug: slugParam() },
  maxAgeSeconds: 10,
  read: ({ path: { slug } }, { db }) => {
    const product = getProductBySlug(db, slug);
    if (!product) throw notFound("Product not found");
    const facts = dealFactsFor(db, [product.id], new Date()).get(product.id)!;
    return { ...product, deal: dealFactsInPounds(facts) };
  },
});
