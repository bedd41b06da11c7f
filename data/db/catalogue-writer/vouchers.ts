/** Writes of vouchers. */
import type { Db } from "../client.ts";
import { changedFields, recordAudit } from "../audit.ts";
import { statement } from "../statements.ts";
import type { VoucherInput } from "../../domain/catalogue-input.ts";
import { catalogueTransaction, noChange, siteWideChange, WriteRefused, type Written } from "./transaction.ts";

interface StoredVoucher extends VoucherInput {
  id: number;
}

function storedVoucher(db: Db, id: number): StoredVoucher | undefined {
  return statement(db, "SELECT id, code, description, retailer, url, discount, expiry_date AS expiryDate FROM vouchers WHERE id = ?").get(id) as
    | StoredVoucher
    | undefined;
}

function assertVoucherFree(db: Db, input: VoucherInput, exceptId: number | null): void {
  const row = statement(db, "SELECT id FROM vouchers WHERE retailer = ? AND code = ?").get(input.retailer, input.code) as { id: number } | undefined;
  if (row && row.id !== exceptId) throw new WriteRefused(409, `${input.retailer} already has the voucher code "${input.code}"`);
}

export function createVoucher(db: Db, input: VoucherInput, now = new Date()): Written<StoredVoucher> {
  return catalogueTransaction(db, () => {
    assertVoucherFree(db, input, null);
    const { id } = statement(
      db,
      "INSERT INTO vouchers (code, description, retailer, url, discount, expiry_date) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
    ).get(input.code, input.description, input.retailer, input.url, input.discount, input.expiryDate) as { id: number };
    recordAudit(db, { action: "create", entity: "voucher", entityId: id, summary: `Created voucher ${input.code} (${input.retailer})`, after: { ...input } }, now);
    return { value: { id, ...input }, change: siteWideChange };
  });
}

export function updateVoucher(db: Db, id: number, input: VoucherInput, now = new Date()): Written<StoredVoucher> {
  return catalogueTransaction(db, () => {
    const before = storedVoucher(db, id);
    if (!before) throw new WriteRefused(404, "Voucher not found");
    assertVoucherFree(db, input, id);
    const diff = changedFields({ ...before }, { id, ...input });
    if (diff.names.length === 0) return { value: { id, ...input }, change: noChange };
    statement(db, "UPDATE vouchers SET code = ?, description = ?, retailer = ?, url = ?, discount = ?, expiry_date = ? WHERE id = ?").run(
      input.code,
      input.description,
      input.retailer,
      input.url,
      input.discount,
      input.expiryDate,
      id,
    );
    recordAudit(
      db,
      { action: "update", entity: "voucher", entityId: id, summary: `Updated voucher ${input.code} (${input.retailer}): ${diff.names.join(", ")}`, before: diff.before, after: diff.after },
      now,
    );
    return { value: { id, ...input }, change: siteWideChange };
  });
}

export function deleteVoucher(db: Db, id: number, now = new Date()): Written<null> {
  return catalogueTransaction(db, () => {
    const before = storedVoucher(db, id);
    if (!before) throw new WriteRefused(404, "Voucher not found");
    statement(db, "DELETE FROM vouchers WHERE id = ?").run(id);
    recordAudit(db, { action: "delete", entity: "voucher", entityId: id, summary: `Deleted voucher ${before.code} (${before.retailer})` }, now);
    return { value: null, change: siteWideChange };
  });
}
