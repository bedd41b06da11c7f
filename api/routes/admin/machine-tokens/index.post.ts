import { defineAdminRoute } from "../../../context.ts";
import { recordAudit } from "../../../../data/db/audit.ts";
import { createMachineToken } from "../../../../data/db/machine-tokens.ts";
import { machineTokenInput } from "../../../../data/domain/machine-tokens.schema.ts";

/** Creates a machine token: 201 with the token itself, shown this once (only its hash is stored); 400 for bad input. */
export default defineAdminRoute({ body: machineTokenInput }, async (event, { db }, { body }) => {
  const input = await body();
  const now = new Date();
  const created = db.$client.transaction(() => {
    const token = createMachineToken(db, input, now);
    recordAudit(db, { action: "create", entity: "machine-token", entityId: token.id, summary: `Created machine token "${token.name}" (${token.scopes.join(", ")})` }, now);
    return token;
  })();
  event.res.status = 201;
  return created;
});
