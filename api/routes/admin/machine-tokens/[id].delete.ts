import { defineAdminRoute } from "../../../context.ts";
import { notFound } from "../../../http/http.ts";
import { recordAudit } from "../../../../data/db/audit.ts";
import { revokeMachineToken } from "../../../../data/db/machine-tokens.ts";
import { idParam } from "../../../../data/domain/queries.ts";

/** Revokes a machine token: 200 with it (it stays listed, revoked; revoking it again changes nothing); 404 no such token. */
export default defineAdminRoute({ params: { id: idParam() } }, (_event, { db }, { params: { id } }) => {
  const now = new Date();
  const revoked = db.$client.transaction(() => {
    const result = revokeMachineToken(db, id, now);
    if (result?.revokedNow) recordAudit(db, { action: "revoke", entity: "machine-token", entityId: id, summary: `Revoked machine token "${result.token.name}"` }, now);
    return result;
  })();
  if (!revoked) throw notFound("Machine token not found");
  return revoked.token;
});
