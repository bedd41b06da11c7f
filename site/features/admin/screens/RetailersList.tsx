/**
 * /admin/retailers: every retailer with its website, logo and id, and whether the site compares
 * its prices; edit, or delete after the browser's confirmation. Phones get one card per retailer
 * with its Edit and Delete in view; wider screens the table.
 */
import { truncate } from "../../../../data/domain/admin-display.ts";
import { ruleText } from "../../../../data/domain/delivery.ts";
import { toPence } from "../../../../data/domain/money.ts";
import { deleteRetailer, fetchRetailers, type AdminRetailer } from "../admin-api.ts";
import { ResourceList, type Column } from "../ResourceList.tsx";
import { adminPaths } from "../routes.ts";
import { Badge } from "../ui.tsx";

/** Websites longer than this are cut in the list. */
const websiteLength = 30;

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

const columns: Column<AdminRetailer>[] = [
  {
    header: "Name",
    className: "font-medium text-slate-900",
    cell: (retailer) => (
      <>
        {retailer.name}
        <span className="mt-0.5 block">{badge(retailer)}</span>
        {delivery(retailer)}
      </>
    ),
  },
  { header: "Website", cell: website },
  { header: "Logo", cell: logo },
  { header: "ID", className: "text-slate-600 tabular-nums", cell: (retailer) => retailer.id },
];

export default function RetailersList() {
  return (
    <ResourceList
      noun={{ one: "retailer", many: "retailers" }}
      load={fetchRetailers}
      remove={deleteRetailer}
      label={(retailer) => retailer.name}
      newHref={adminPaths.newRetailer}
      editHref={adminPaths.editRetailer}
      columns={columns}
      minWidth="44rem"
      testId="retailer"
      card={(retailer, actions) => (
        <>
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
          {actions}
        </>
      )}
    />
  );
}
