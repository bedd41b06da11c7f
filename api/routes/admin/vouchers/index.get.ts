import { defineAdminRoute } from "../../../context.ts";
import { listAllVouchers } from "../../../../data/db/admin-reads.ts";
import { ukToday } from "../../../../data/domain/dates.ts";

/** Every voucher, expired ones included, soonest expiry first. */
export default defineAdminRoute((_event, { db }) => listAllVouchers(db, ukToday()));
