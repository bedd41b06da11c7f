/**
 * /admin/vouchers: every voucher with its code, retailer, discount, expiry (expired ones are
 * marked) and how often it was copied; edit, or delete after the browser's confirmation. Phones
 * get one card per voucher with its Edit and Delete in view; wider screens the table.
 */
import { CirclePlus, SquarePen, Trash } from "../icons.tsx";
import { useEffect } from "react";
import { toast } from "../../toast/toast.store.ts";
import { describeError, deleteVoucher, errorMessage, fetchVouchers, type AdminVoucher } from "../admin-api.ts";
import { formatDay } from "../format.ts";
import { adminPaths } from "../routes.ts";
import { AdminLink, Badge, LoadFailed, Loading, PageHeader, Table, Td, Th, useLoad } from "../ui.tsx";

export default function VouchersList() {
  const { state, reload } = useLoad(fetchVouchers, []);
  useEffect(() => {
    if (state.kind === "failed") toast({ title: `Error loading vouchers: ${describeError(state.error)}`, variant: "destructive" });
  }, [state]);

  async function remove(voucher: AdminVoucher) {
    if (!window.confirm(`Are you sure you want to delete the voucher "${voucher.code}"?`)) return;
    try {
      await deleteVoucher(voucher.id);
      toast({ title: "Voucher deleted successfully" });
      reload();
    } catch (error) {
      toast({ title: "Failed to delete voucher", description: errorMessage(error, "Please try again."), variant: "destructive" });
    }
  }

  const actions = (voucher: AdminVoucher) => (
    <>
      <AdminLink href={adminPaths.editVoucher(voucher.id)} className="btn-ghost px-2" aria-label={`Edit ${voucher.code}`}>
        <SquarePen className="size-4" aria-hidden="true" />
        Edit
      </AdminLink>
      <button type="button" className="btn-ghost px-2 text-red-700 hover:bg-red-50" onClick={() => void remove(voucher)} aria-label={`Delete ${voucher.code}`}>
        <Trash className="size-4" aria-hidden="true" />
        Delete
      </button>
    </>
  );
  const expiry = (voucher: AdminVoucher) => (
    <>
      {formatDay(voucher.expiryDate)} {!voucher.isValid && <Badge tone="red">Expired</Badge>}
    </>
  );

  return (
    <div>
      <PageHeader
        title="Vouchers"
        back={{ href: adminPaths.dashboard, label: "Dashboard" }}
        actions={
          <AdminLink href={adminPaths.newVoucher} className="btn-primary">
            <CirclePlus className="size-4" aria-hidden="true" />
            Add New Voucher
          </AdminLink>
        }
      />
      {state.kind === "loading" && <Loading label="Loading vouchers..." />}
      {state.kind === "failed" && <LoadFailed message={`Error loading vouchers: ${describeError(state.error)}`} onRetry={reload} />}
      {state.kind === "ready" && state.data.length === 0 && <div className="card p-8 text-center text-slate-600">No vouchers yet.</div>}
      {state.kind === "ready" && state.data.length > 0 && (
        <ul className="card divide-y divide-slate-100 md:hidden" aria-label="Vouchers">
          {state.data.map((voucher) => (
            <li key={voucher.id} className="p-4" data-testid="voucher-card">
              <div className="flex items-start justify-between gap-3">
                <code className="min-w-0 rounded bg-slate-100 px-1.5 py-0.5 font-semibold break-all text-slate-900">{voucher.code}</code>
                <span className="shrink-0 font-medium">{voucher.discount}</span>
              </div>
              <p className="mt-1 text-sm break-words text-slate-600">{voucher.description}</p>
              <p className="mt-1 text-sm text-slate-700">
                {voucher.retailer} · Expires {expiry(voucher)} · {voucher.uses.toLocaleString("en-GB")} {voucher.uses === 1 ? "use" : "uses"}
              </p>
              <div className="mt-2 -ml-2 flex flex-wrap gap-1">{actions(voucher)}</div>
            </li>
          ))}
        </ul>
      )}
      {state.kind === "ready" && state.data.length > 0 && (
        <div className="hidden md:block">
        <Table
          caption="Vouchers"
          minWidth="52rem"
          head={
            <tr>
              <Th>Code</Th>
              <Th>Retailer</Th>
              <Th>Discount</Th>
              <Th>Expires</Th>
              <Th className="text-right">Uses</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          }
        >
          {state.data.map((voucher) => (
            <tr key={voucher.id} className="hover:bg-slate-50" data-testid="voucher-row">
              <Td>
                <code className="rounded bg-slate-100 px-1.5 py-0.5 font-semibold text-slate-900">{voucher.code}</code>
                <span className="mt-1 block max-w-72 text-xs text-slate-600">{voucher.description}</span>
              </Td>
              <Td>{voucher.retailer}</Td>
              <Td className="font-medium">{voucher.discount}</Td>
              <Td className="whitespace-nowrap">{expiry(voucher)}</Td>
              <Td className="text-right tabular-nums">{voucher.uses.toLocaleString("en-GB")}</Td>
              <Td className="text-right whitespace-nowrap">{actions(voucher)}</Td>
            </tr>
          ))}
        </Table>
        </div>
      )}
    </div>
  );
}
