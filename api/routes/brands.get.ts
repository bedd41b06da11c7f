import { defineCachedRead } from "../lib/cached-route.ts";
import { listBrands } from "../../data/db/products.ts";

export default defineCachedRead({
  maxAgeSeconds: 60,
  read: (_input, { db }) => listBrands(db),
});
