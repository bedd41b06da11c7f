import { defineCachedRead } from "../../http/cached-route.ts";
import { listCategories } from "../../../data/db/catalogue.ts";

export default defineCachedRead({
  maxAgeSeconds: 60,
  read: (_input, { db }) => listCategories(db),
});
