import { defineAdminRoute } from "../../context.ts";
import type { SessionResponse } from "../../http/responses.ts";

/** 200 while the session is live (the route's guard answers 401 otherwise): the admin screens ask on load. */
export default defineAdminRoute(() => ({ authenticated: true }) satisfies SessionResponse);
