/**
 * /admin/vouchers: every voucher with its code, retailer, discount, expiry (expired ones are
 * marked) and how often it was copied; edit, or delete after the browser's confirmation.
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
              <Td className="whitespace-nowrap">
                {formatDay(voucher.expiryDate)} {!voucher.isValid && <Badge tone="red">Expired</Badge>}
              </Td>
              <Td className="text-right tabular-nums">{voucher.uses.toLocaleString("en-GB")}</Td>
              <Td className="text-right whitespace-nowrap">
                <AdminLink href={adminPaths.editVoucher(voucher.id)} className="btn-ghost px-2" aria-label={`Edit ${voucher.code}`}>
                  <SquarePen className="size-4" aria-hidden="true" />
                  Edit
                </AdminLink>
                <button type="button" className="btn-ghost px-2 text-red-700 hover:bg-red-50" onClick={() => void remove(voucher)} aria-label={`Delete ${voucher.code}`}>
                  <Trash className="size-4" aria-hidden="true" />
                  Delete
                </button>
              </Td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
