import { defineCachedRead } from "../../http/cached-route.ts";
import { listRetailers } from "../../../data/db/catalogue.ts";

export default defineCachedRead({
  maxAgeSeconds: 60,
  read: (_input, { db }) => listRetailers(db),
});
