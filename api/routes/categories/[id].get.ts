import { defineCachedRead } from "../../http/cached-route.ts";
import { notFound } from "../../http/http.ts";
import { idParam } from "../../../data/domain/queries.ts";
import { getCategoryById } from "../../../data/db/catalogue.ts";

export default defineCachedRead({
  path: { id: idParam() },
  maxAgeSeconds: 60,
  read: ({ path: { id } }, { db }) => {
    const category = getCategoryById(db, id);
    if (!category) throw notFound("Category not found");
    return category;
  },
});
