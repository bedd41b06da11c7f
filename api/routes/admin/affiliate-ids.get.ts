import { defineAdminRoute } from "../../context.ts";
import { getAffiliateIds } from "../../../data/db/catalogue.ts";

export default defineAdminRoute((_event, { db }) => getAffiliateIds(db));
