import { defineCachedRead } from "../../lib/cached-route.ts";
import { notFound } from "../../lib/http.ts";
import { slugParam } from "../../../data/domain/queries.ts";
import { getProductBySlug } from "../../../data/db/products.ts";
import { sizesOf } from "../../../data/db/product-pages.ts";

export default defineCachedRead({
  path: { slug: slugParam() },
  maxAgeSeconds: 10,
  read: ({ path: { slug } }, { db }) => {
    const product = getProductBySlug(db, slug);
    if (!product) throw notFound("Product not found");
    // The sizes of its family (each its own product and address), for the islands' size choice.
    return { ...product, sizes: sizesOf(db, product.id) };
  },
});
