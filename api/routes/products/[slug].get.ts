import { defineCachedRead } from "../../lib/cached-route.ts";
import { notFound } from "../../lib/http.ts";
import { slugParam } from "../../../data/domain/queries.ts";
import { getProductBySlug } from "../../../data/db/products.ts";

export default defineCachedRead({
  path: { slug: slugParam() },
  maxAgeSeconds: 10,
  read: ({ path: { slug } }, { db }) => {
    const product = getProductBySlug(db, slug);
    if (!product) throw notFound("Product not found");
    return product;
  },
});
