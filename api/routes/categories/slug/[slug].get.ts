import { defineCachedRead } from "../../../http/cached-route.ts";
import { notFound } from "../../../http/http.ts";
import { slugParam } from "../../../../data/domain/queries.ts";
import { getCategoryBySlug } from "../../../../data/db/catalogue.ts";

export default defineCachedRead({
  path: { slug: slugParam() },
  maxAgeSeconds: 60,
  read: ({ path: { slug } }, { db }) => {
    const category = getCategoryBySlug(db, slug);
    if (!category) throw notFound("Category not found");
    return category;
  },
});
