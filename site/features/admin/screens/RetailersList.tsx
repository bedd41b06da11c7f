/**
 * /admin/retailers: every retailer with its website, logo and id, and whether the site compares
 * its prices; edit, or delete after the browser's confirmation.
 */
import { CirclePlus, SquarePen, Trash } from "../icons.tsx";
import { truncate } from "../../../../data/domain/admin-display.ts";
import { ruleText } from "../../../../data/domain/delivery.ts";
import { toPence } from "../../../../data/domain/money.ts";
import { useEffect } from "react";
import { toast } from "../../toast/toast.store.ts";
import { describeError, deleteRetailer, errorMessage, fetchRetailers, type AdminRetailer } from "../admin-api.ts";
import { adminPaths } from "../routes.ts";
import { AdminLink, Badge, LoadFailed, Loading, PageHeader, Table, Td, Th, useLoad } from "../ui.tsx";

/** Websites longer than this are cut in the list. */
const websiteLength = 30;

export default function RetailersList() {
  const { state, reload } = useLoad(fetchRetailers, []);
  useEffect(() => {
    if (state.kind === "failed") toast({ title: `Error loading retailers: ${describeError(state.error)}`, variant: "destructive" });
  }, [state]);

  async function remove(retailer: AdminRetailer) {
    if (!window.confirm(`Are you sure you want to delete the retailer "${retailer.name}"?`)) return;
    try {
      await deleteRetailer(retailer.id);
      toast({ title: "Retailer deleted successfully" });
      reload();
    } catch (error) {
      toast({ title: "Failed to delete retailer", description: errorMessage(error, "Please try again."), variant: "destructive" });
    }
  }

  return (
    <div>
      <PageHeader
        title="Retailers"
        back={{ href: adminPaths.dashboard, label: "Dashboard" }}
        actions={
          <AdminLink href={adminPaths.newRetailer} className="btn-primary">
            <CirclePlus className="size-4" aria-hidden="true" />
            Add New Retailer
          </AdminLink>
        }
      />
      {state.kind === "loading" && <Loading label="Loading retailers..." />}
      {state.kind === "failed" && <LoadFailed message={`Error loading retailers: ${describeError(state.error)}`} onRetry={reload} />}
      {state.kind === "ready" && (
        <Table
          caption="Retailers"
          minWidth="44rem"
          head={
            <tr>
              <Th>Name</Th>
              <Th>Website</Th>
              <Th>Logo</Th>
              <Th>ID</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          }
        >
          {state.data.map((retailer) => (
            <tr key={retailer.id} className="hover:bg-slate-50" data-testid="retailer-row">
              <Td className="font-medium text-slate-900">
                {retailer.name}
                <span className="mt-0.5 block">
                  {retailer.comparesPrices ? <Badge tone="brand">Compares prices</Badge> : <Badge tone="slate">Vouchers only</Badge>}
                </span>
                {retailer.comparesPrices && (
                  <span className="mt-0.5 block text-xs font-normal text-slate-600" data-testid="retailer-delivery">
                    Delivery: {ruleText({ standardPence: toPence(retailer.deliveryCharge), freeFromPence: toPence(retailer.freeDeliveryFrom) })}
                  </span>
                )}
              </Td>
              <Td>
                {retailer.website ? (
                  <a href={retailer.website} target="_blank" rel="noopener noreferrer" title={retailer.website} className="text-slate-600 hover:underline">
                    {truncate(retailer.website, websiteLength)}
                  </a>
                ) : (
                  <span className="text-slate-500">No website</span>
                )}
              </Td>
              <Td>
                {retailer.logo ? (
                  <img src={retailer.logo} alt={`${retailer.name} logo`} className="h-8 w-20 rounded border border-slate-200 bg-white object-contain p-1" loading="lazy" />
                ) : (
                  <span className="text-slate-500">No logo</span>
                )}
              </Td>
              <Td className="text-slate-600 tabular-nums">{retailer.id}</Td>
              <Td className="text-right whitespace-nowrap">
                <AdminLink href={adminPaths.editRetailer(retailer.id)} className="btn-ghost px-2" aria-label={`Edit ${retailer.name}`}>
                  <SquarePen className="size-4" aria-hidden="true" />
                  Edit
                </AdminLink>
                <button type="button" className="btn-ghost px-2 text-red-700 hover:bg-red-50" onClick={() => void remove(retailer)} aria-label={`Delete ${retailer.name}`}>
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
