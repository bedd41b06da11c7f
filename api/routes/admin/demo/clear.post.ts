import { defineAdminRoute } from "../../../context.ts";
import { commitWrite } from "../../../lib/catalogue-write.ts";
import { clearDemoCatalogue } from "../../../../data/db/demo.ts";

/** Removes the demo catalogue (data/db/demo.ts): what went, and what stayed as the owner's; every page is rebuilt. */
export default defineAdminRoute({ body: null }, (_event, { db, admin }) => commitWrite(admin, () => clearDemoCatalogue(db)));
