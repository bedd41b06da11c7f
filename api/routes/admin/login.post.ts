import { HTTPError } from "h3";
import { z } from "zod";
import { defineRoute } from "../../context.ts";
import type { OkResponse } from "../../http/responses.ts";
import { openSession, verifyPassword } from "../../lib/admin-auth.ts";
import { clientAddress } from "../../http/client-address.ts";
import { cacheNone } from "../../http/http.ts";

const bodySchema = z.object({
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1000, "Password is too long"),
});

/**
 * Checks the password against the stored scrypt hash and opens a session. Each client may try 5
 * times a minute, every attempt counted before its hash starts: the 6th is a 429 at once, however
 * many are sent together. Server-wide, 2 hashes run at a time and 8 logins wait; one more is a 429
 * at once, not counted against its client. (Cross-site posts are refused before this runs, in app.ts.)
 */
export default defineRoute({ body: bodySchema, messagesAsIs: true }, async (event, { db, admin, requests }, { body }) => {
  cacheNone(event);
  if (!admin) throw new HTTPError({ status: 401, message: "Invalid password" });
  const client = clientAddress(event, requests?.trustedProxies);
  admin.limiter.check(client);
  const { password } = await body();
  // Nothing awaits from here to the hash's place in the queue: room, limit and count are one step.
  admin.hashing.refuseWhenFull();
  admin.limiter.attempt(client);
  if (!(await admin.hashing.run(() => verifyPassword(password, admin.passwordHash())))) {
    throw new HTTPError({ status: 401, message: "Invalid password" });
  }
  admin.limiter.succeeded(client);
  openSession(db, event, admin.publicOrigin);
  return { ok: true } satisfies OkResponse;
});
