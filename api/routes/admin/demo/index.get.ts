import { defineAdminRoute } from "../../../context.ts";
import { demoCounts } from "../../../../data/db/demo.ts";

/** What is left of the demo catalogue: whether any, its products (and those kept when cleared), offers and vouchers. */
export default defineAdminRoute((_event, { db }) => demoCounts(db));
