/**
 * /admin/retailers: every retailer with its website, logo and id, and whether the site compares
 * its prices; edit, or delete after the browser's confirmation. Phones get one card per retailer
 * with its Edit and Delete in view; wider screens the table.
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

  const actions = (retailer: AdminRetailer) => (
    <>
      <AdminLink href={adminPaths.editRetailer(retailer.id)} className="btn-ghost px-2" aria-label={`Edit ${retailer.name}`}>
        <SquarePen className="size-4" aria-hidden="true" />
        Edit
      </AdminLink>
      <button type="button" className="btn-ghost px-2 text-red-700 hover:bg-red-50" onClick={() => void remove(retailer)} aria-label={`Delete ${retailer.name}`}>
        <Trash className="size-4" aria-hidden="true" />
        Delete
      </button>
    </>
  );
  const delivery = (retailer: AdminRetailer) =>
    retailer.comparesPrices && (
      <span className="mt-0.5 block text-xs font-normal text-slate-600" data-testid="retailer-delivery">
        Delivery: {ruleText({ standardPence: toPence(retailer.deliveryCharge), freeFromPence: toPence(retailer.freeDeliveryFrom) })}
      </span>
    );
  const badge = (retailer: AdminRetailer) => (retailer.comparesPrices ? <Badge tone="brand">Compares prices</Badge> : <Badge tone="slate">Vouchers only</Badge>);
  const logo = (retailer: AdminRetailer) =>
    retailer.logo ? (
      <img src={retailer.logo} alt={`${retailer.name} logo`} className="h-8 w-20 shrink-0 rounded border border-slate-200 bg-white object-contain p-1" loading="lazy" />
    ) : (
      <span className="text-slate-500">No logo</span>
    );
  const website = (retailer: AdminRetailer) =>
    retailer.website ? (
      <a href={retailer.website} target="_blank" rel="noopener noreferrer" title={retailer.website} className="break-all text-slate-600 hover:underline">
        {truncate(retailer.website, websiteLength)}
      </a>
    ) : (
      <span className="text-slate-500">No website</span>
    );

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
        <ul className="card divide-y divide-slate-100 md:hidden" aria-label="Retailers">
          {state.data.map((retailer) => (
            <li key={retailer.id} className="p-4" data-testid="retailer-card">
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="font-medium break-words text-slate-900">{retailer.name}</p>
                  <span className="mt-0.5 block">{badge(retailer)}</span>
                </div>
                {logo(retailer)}
              </div>
              {delivery(retailer)}
              <p className="mt-1 text-sm">
                {website(retailer)} <span className="text-slate-600">· ID {retailer.id}</span>
              </p>
              <div className="mt-2 -ml-2 flex flex-wrap gap-1">{actions(retailer)}</div>
            </li>
          ))}
        </ul>
      )}
      {state.kind === "ready" && (
        <div className="hidden md:block">
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
                <span className="mt-0.5 block">{badge(retailer)}</span>
                {delivery(retailer)}
              </Td>
              <Td>{website(retailer)}</Td>
              <Td>{logo(retailer)}</Td>
              <Td className="text-slate-600 tabular-nums">{retailer.id}</Td>
              <Td className="text-right whitespace-nowrap">{actions(retailer)}</Td>
            </tr>
          ))}
        </Table>
        </div>
      )}
    </div>
  );
}
