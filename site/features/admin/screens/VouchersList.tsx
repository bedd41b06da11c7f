/**
 * /admin/vouchers: every voucher with its code, retailer, discount, expiry (expired ones are
 * marked) and how often it was copied; edit, or delete after the browser's confirmation. Phones
 * get one card per voucher with its Edit and Delete in view; wider screens the table.
 */
import { deleteVoucher, fetchVouchers, type AdminVoucher } from "../admin-api.ts";
import { formatDay } from "../format.ts";
import { ResourceList, type Column } from "../ResourceList.tsx";
import { adminPaths } from "../routes.ts";
import { Badge } from "../ui.tsx";

const expiry = (voucher: AdminVoucher) => (
  <>
    {formatDay(voucher.expiryDate)} {!voucher.isValid && <Badge tone="red">Expired</Badge>}
  </>
);

const columns: Column<AdminVoucher>[] = [
  {
    header: "Code",
    cell: (voucher) => (
      <>
        <code className="rounded bg-slate-100 px-1.5 py-0.5 font-semibold text-slate-900">{voucher.code}</code>
        <span className="mt-1 block max-w-72 text-xs text-slate-600">{voucher.description}</span>
      </>
    ),
  },
  { header: "Retailer", cell: (voucher) => voucher.retailer },
  { header: "Discount", className: "font-medium", cell: (voucher) => voucher.discount },
  { header: "Expires", className: "whitespace-nowrap", cell: expiry },
  { header: "Uses", headerClassName: "text-right", className: "text-right tabular-nums", cell: (voucher) => voucher.uses.toLocaleString("en-GB") },
];

export default function VouchersList() {
  return (
    <ResourceList
      noun={{ one: "voucher", many: "vouchers" }}
      load={fetchVouchers}
      remove={deleteVoucher}
      label={(voucher) => voucher.code}
      newHref={adminPaths.newVoucher}
      editHref={adminPaths.editVoucher}
      columns={columns}
      minWidth="52rem"
      testId="voucher"
      empty="No vouchers yet."
      card={(voucher, actions) => (
        <>
          <div className="flex items-start justify-between gap-3">
            <code className="min-w-0 rounded bg-slate-100 px-1.5 py-0.5 font-semibold break-all text-slate-900">{voucher.code}</code>
            <span className="shrink-0 font-medium">{voucher.discount}</span>
          </div>
          <p className="mt-1 text-sm break-words text-slate-600">{voucher.description}</p>
          <p className="mt-1 text-sm text-slate-700">
            {voucher.retailer} · Expires {expiry(voucher)} · {voucher.uses.toLocaleString("en-GB")} {voucher.uses === 1 ? "use" : "uses"}
          </p>
          {actions}
        </>
      )}
    />
  );
}
