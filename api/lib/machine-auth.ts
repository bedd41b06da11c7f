/**
 * Machine authentication: a program that is not a browser (the nightly workflow) sends
 * `Authorization: Bearer <token>` with a token the admin created. Only that header counts: the
 * admin's session cookie and the admin password are never machine tokens. A missing, malformed,
 * unknown or revoked token is a 401; a valid token without the route's scope a 403. Tokens are
 * looked up by their SHA-256 (so no comparison of secrets takes place here) and never logged.
 */
import { HTTPError, type H3Event } from "h3";
import type { Db } from "../../data/db/client.ts";
import { findMachineToken, hashMachineToken, touchMachineToken } from "../../data/db/machine-tokens.ts";
import { machineTokenPattern, type MachineScope, type MachineTokenView } from "../../data/domain/machine-tokens.ts";

const unauthorized = (message: string) =>
  new HTTPError({ status: 401, message, headers: { "www-authenticate": 'Bearer realm="pawprice"' } });

/**
 * The token the request carries, when it is live and holds `scope`; throws 401 or 403 otherwise.
 * The use is not recorded here: `recordMachineUse` does that once the request has succeeded.
 */
export function authenticateMachine(db: Db, event: H3Event, scope: MachineScope): MachineTokenView {
  const header = event.req.headers.get("authorization");
  if (header === null) throw unauthorized("Send a machine token: Authorization: Bearer <token>");
  const token = /^Bearer +(\S+) *$/i.exec(header)?.[1];
  if (token === undefined || !machineTokenPattern.test(token)) throw unauthorized("The machine token is malformed");
  const found = findMachineToken(db, hashMachineToken(token));
  if (found === null || found.revokedAt !== null) throw unauthorized("The machine token is unknown or revoked");
  if (!found.scopes.includes(scope)) {
    throw new HTTPError({
      status: 403,
      message: `This token may not do this: it needs the scope ${scope}`,
      headers: { "www-authenticate": `Bearer realm="pawprice", error="insufficient_scope", scope="${scope}"` },
    });
  }
  return found;
}

/** Records that the token was used (at most once a minute). */
export function recordMachineUse(db: Db, token: MachineTokenView, now = new Date()): void {
  touchMachineToken(db, token.id, now);
}
