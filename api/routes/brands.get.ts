import { defineCachedRead } from "../http/cached-route.ts";
import { listBrandCounts } from "../../data/db/facets.ts";

/**
 * Every brand in the catalogue as a JSON array of names, by name (brands differing only in case
 * are one). It takes no parameters; the grid's brand filter, which needs each brand's count in
 * a view, reads GET /api/brands/counts.
 */
export default defineCachedRead({
  maxAgeSeconds: 60,
  read: (_input, { db }) => listBrandCounts(db, {}).map((option) => option.brand),
});
