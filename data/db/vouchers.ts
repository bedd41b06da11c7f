/** Voucher uses: what orders the Popular tab, counted once per visitor per voucher per UK day. */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { ukToday } from "../domain/dates.ts";

/** "counted": a new use; "repeat": this visitor's use was counted today already; "unknown": no such voucher. */
export function recordVoucherUse(db: Db, voucherId: number, userId: string, now = new Date()): "counted" | "repeat" | "unknown" {
  return db.$client.transaction(() => {
    if (!statement(db, "SELECT 1 FROM vouchers WHERE id = ?").get(voucherId)) return "unknown" as const;
    const day = ukToday(now);
    const inserted = statement(db, "INSERT OR IGNORE INTO voucher_uses (voucher_id, user_id, day) VALUES (?, ?, ?)").run(voucherId, userId, day);
    if (inserted.changes === 0) return "repeat" as const;
    statement(db, "UPDATE vouchers SET uses = uses + 1 WHERE id = ?").run(voucherId);
    return "counted" as const;
  })();
}
