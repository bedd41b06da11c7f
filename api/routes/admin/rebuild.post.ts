import { HTTPError } from "h3";
import { defineAdminRoute } from "../../context.ts";
import { recordAudit } from "../../../data/db/audit.ts";

/** Schedules a full build by hand (coalesced with any pending one): 202 with the build status. */
export default defineAdminRoute({ body: null }, (event, { db, admin }) => {
  if (!admin.site) throw new HTTPError({ status: 503, message: "This server does not build the site" });
  recordAudit(db, { action: "rebuild", entity: "site", entityId: null, summary: "Requested a full site rebuild" }, new Date());
  admin.site.request({ productIds: [], categoryIds: [], siteWide: true });
  event.res.status = 202;
  return admin.site.status();
});
