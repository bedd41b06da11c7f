import { defineAdminRoute } from "../../context.ts";
import type { BuildStatus } from "../../http/responses.ts";

/** What the site build is doing (idle, scheduled, building) and how the last one went. */
export default defineAdminRoute((_event, { admin }) => admin.site?.status() ?? ({ state: "idle", lastBuild: null } satisfies BuildStatus));
