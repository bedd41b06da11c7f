import { defineCachedRead } from "../../http/cached-route.ts";
import { compareQuery } from "../../../data/domain/compare-page.ts";
import { getCompareProducts } from "../../../data/db/compare.ts";

/** Up to 4 products side by side for the compare page, in the order of `ids`; unknown ids are left out. */
export default defineCachedRead({
  query: compareQuery,
  maxAgeSeconds: 10,
  read: ({ query: { ids } }, { db }) => ({ products: getCompareProducts(db, ids) }),
});
