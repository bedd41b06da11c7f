import { defineAdminRoute } from "../../../context.ts";
import { listMachineTokens } from "../../../../data/db/machine-tokens.ts";

/** Every machine token, newest first: name, first characters, scopes, created, last used, revoked (never the token). */
export default defineAdminRoute((_event, { db }) => listMachineTokens(db));
