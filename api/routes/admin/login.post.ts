import { HTTPError } from "h3";
import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { openSession, verifyPassword } from "../../lib/admin-auth.ts";
import { clientAddress } from "../../lib/client-address.ts";
import { cacheNone, readJson } from "../../lib/http.ts";

const body = z.object({
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1000, "Password is too long"),
});

/**
 * Checks the password against the stored scrypt hash and opens a session. Failed attempts are
 * limited per client (5 a minute); the limit is checked before any hashing, so a flood of
 * guesses costs the server nothing. (Cross-site posts are refused before this runs, in app.ts.)
 */
export default defineRoute(async (event, { db, admin, requests }) => {
  cacheNone(event);
  if (!admin) throw new HTTPError({ status: 401, message: "Invalid password" });
  const client = clientAddress(event, requests?.trustedProxies);
  admin.limiter.check(client);
  const { password } = await readJson(event, body, { messagesAsIs: true });
  if (!(await verifyPassword(password, admin.passwordHash()))) {
    admin.limiter.failed(client);
    throw new HTTPError({ status: 401, message: "Invalid password" });
  }
  admin.limiter.succeeded(client);
  openSession(db, event, admin.publicOrigin);
  return { ok: true };
});
