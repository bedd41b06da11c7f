import type { Db } from "./client.ts";
import { recordAudit } from "./audit.ts";
import { statement } from "./statements.ts";

/**
 * Adds a newsletter subscriber (DECISIONS.md item 3). An address already on the list is not an
 * error to the visitor; one that had unsubscribed is subscribed again, since they asked.
 */
export function subscribe(db: Db, email: string, source: string): { created: boolean } {
  return db.$client.transaction(() => {
    const existing = statement(db, "SELECT id, is_active FROM email_subscribers WHERE email = ?").get(email) as
      | { id: number; is_active: number }
      | undefined;
    if (existing) {
      if (existing.is_active === 0) statement(db, "UPDATE email_subscribers SET is_active = 1 WHERE id = ?").run(existing.id);
      return { created: false };
    }
    statement(db, "INSERT INTO email_subscribers (email, source) VALUES (?, ?)").run(email, source);
    return { created: true };
  })();
}

/** Deletes a subscriber (the admin's list), with an audit entry; false when there is none. */
export function deleteSubscriber(db: Db, id: number, now = new Date()): boolean {
  return db.$client
    .transaction(() => {
      const row = statement(db, "SELECT email FROM email_subscribers WHERE id = ?").get(id) as { email: string } | undefined;
      if (!row) return false;
      statement(db, "DELETE FROM email_subscribers WHERE id = ?").run(id);
      recordAudit(db, { action: "delete", entity: "subscriber", entityId: id, summary: `Removed subscriber ${row.email}` }, now);
      return true;
    })
    .immediate();
}
