import { defineAdminRoute } from "../../context.ts";
import { listNightlyRuns } from "../../../data/db/nightly-runs.ts";

/** The last 10 nightly runs, newest first, each with its step, summary and error. */
export default defineAdminRoute((_event, { db }) => listNightlyRuns(db, 10));
