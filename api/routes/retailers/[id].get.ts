import { defineCachedRead } from "../../http/cached-route.ts";
import { notFound } from "../../http/http.ts";
import { idParam } from "../../../data/domain/queries.ts";
import { getRetailerById } from "../../../data/db/catalogue.ts";

export default defineCachedRead({
  path: { id: idParam() },
  maxAgeSeconds: 60,
  read: ({ path: { id } }, { db }) => {
    const retailer = getRetailerById(db, id);
    if (!retailer) throw notFound("Retailer not found");
    return retailer;
  },
});
