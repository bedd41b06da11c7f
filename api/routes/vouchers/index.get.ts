import { defineRoute } from "../../context.ts";
import { cachePublic, parseQuery } from "../../lib/http.ts";
import { voucherQuery } from "../../../data/domain/queries.ts";
import { listVouchers } from "../../../data/db/catalogue.ts";

/** An array; the unpaged total is in X-Total-Count for "Load more". */
export default defineRoute((event, { db }) => {
  const filter = parseQuery(event, voucherQuery);
  const { vouchers, total } = listVouchers(db, filter);
  event.res.headers.set("x-total-count", String(total));
  cachePublic(event, 60);
  return vouchers;
});
