import { defineRoute } from "../../context.ts";
import { cachePublic } from "../../http/http.ts";
import { voucherQuery } from "../../../data/domain/queries.ts";
import { listVouchers } from "../../../data/db/catalogue.ts";

/** An array; the unpaged total is in X-Total-Count for "Load more". */
export default defineRoute({ query: voucherQuery }, (event, { db }, { query: filter }) => {
  const { vouchers, total } = listVouchers(db, filter);
  event.res.headers.set("x-total-count", String(total));
  cachePublic(event, 60);
  return vouchers;
});
