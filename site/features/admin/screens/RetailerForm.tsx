/**
 * /admin/retailers/new and /admin/retailers/edit/{id}: name, website and logo (required), an
 * optional description (saved), whether the site compares prices at this retailer, its delivery
 * rule, the other hosts its offer links may use and the names product feeds give it.
 */
import { useState, type FormEvent } from "react";
import { ApiError } from "../../../lib/api.ts";
import { toast } from "../../toast/toast.store.ts";
import { createRetailer, errorMessage, fetchRetailer, updateRetailer, type AdminRetailer, type RetailerInput } from "../admin-api.ts";
import { adminPaths } from "../routes.ts";
import { navigate } from "../router.ts";
import { AdminLink, Card, Checkbox, Field, inputClass, LoadFailed, Loading, PageHeader, useLoad } from "../ui.tsx";
import { catalogueTextLimits as limits } from "../../../../data/domain/limits.ts";

/** The list to go back to (worked out when drawn: a screen reads no address while its module loads). */
const back = () => ({ href: adminPaths.retailers, label: "Back to Retailers" });
const blank: Omit<AdminRetailer, "id" | "key"> = {
  name: "",
  website: "",
  logo: "",
  description: "",
  comparesPrices: true,
  deliveryCharge: null,
  freeDeliveryFrom: null,
  hosts: [],
  offerHosts: [],
  feedNames: [],
};

/** The form's fields: lists are edited as text, one entry per line. */
type RetailerFields = Omit<RetailerInput, "hosts" | "feedNames"> & { hosts: string; feedNames: string };
/** A list typed one per line (commas too, for hosts) as the API takes it. */
const lines = (text: string, separators: RegExp) =>
  text
    .split(separators)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
/** A stored amount in pounds as the field shows it ("3.99"); empty when not set. */
const amountText = (pounds: number | null | undefined) => (pounds === null || pounds === undefined ? null : pounds.toFixed(2));

export default function RetailerForm({ id }: { id: number | null }) {
  const { state, reload } = useLoad<Omit<AdminRetailer, "id" | "key">>(() => (id === null ? Promise.resolve(blank) : fetchRetailer(id)), [id]);
  if (state.kind === "loading")
    return (
      <div>
        <PageHeader title={id === null ? "Add New Retailer" : "Edit Retailer"} back={back()} />
        <Loading label="Loading retailer..." />
      </div>
    );
  if (state.kind === "failed")
    return (
      <div>
        <PageHeader title="Edit Retailer" back={back()} />
        <LoadFailed
          message={state.error instanceof ApiError && state.error.status === 404 ? "This retailer does not exist." : errorMessage(state.error, "Could not load the retailer.")}
          onRetry={reload}
        />
      </div>
    );
  const { name, website, logo, description, comparesPrices, deliveryCharge, freeDeliveryFrom, hosts, feedNames, offerHosts } = state.data;
  return (
    <RetailerEditor
      id={id}
      offerHosts={offerHosts}
      initial={{
        hosts: hosts.join("\n"),
        feedNames: feedNames.join("\n"),
        name,
        website,
        logo,
        description: description ?? "",
        comparesPrices: Boolean(comparesPrices),
        deliveryCharge: amountText(deliveryCharge),
        freeDeliveryFrom: amountText(freeDeliveryFrom),
      }}
    />
  );
}

function RetailerEditor({ id, initial, offerHosts }: { id: number | null; initial: RetailerFields; offerHosts: string[] }) {
  const [fields, setFields] = useState(initial);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof RetailerFields>(key: K, value: RetailerFields[K]) => setFields((previous) => ({ ...previous, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    const input: RetailerInput = {
      name: fields.name.trim(),
      website: fields.website.trim(),
      logo: fields.logo.trim(),
      description: fields.description.trim(),
      comparesPrices: fields.comparesPrices,
      // An empty field means not known (charge) or never free by value (threshold).
      deliveryCharge: fields.deliveryCharge?.trim() || null,
      freeDeliveryFrom: fields.freeDeliveryFrom?.trim() || null,
      hosts: lines(fields.hosts, /[\s,]+/),
      feedNames: lines(fields.feedNames, /\n/),
    };
    try {
      if (id === null) await createRetailer(input);
      else await updateRetailer(id, input);
      toast({ title: id === null ? "Retailer created successfully" : "Retailer updated successfully" });
      navigate(adminPaths.retailers);
    } catch (error) {
      setSaving(false);
      toast({ title: id === null ? "Failed to create retailer" : "Failed to update retailer", description: errorMessage(error, "Please try again."), variant: "destructive" });
    }
  }

  const logoPreview = /^(https?:\/\/|\/)/.test(fields.logo.trim()) ? fields.logo.trim() : null;
  return (
    <div>
      <PageHeader title={id === null ? "Add New Retailer" : `Edit Retailer: ${initial.name}`} back={back()} />
      <Card className="max-w-2xl">
        <form onSubmit={submit} className="grid gap-4">
          <Field label="Retailer Name" required>
            {({ id: inputId }) => <input id={inputId} required maxLength={limits.retailerName} value={fields.name} onChange={(event) => set("name", event.target.value)} className={inputClass} />}
          </Field>
          <Field label="Website URL" required>
            {({ id: inputId }) => (
              <input id={inputId} type="url" required placeholder="https://www.example.co.uk" value={fields.website} onChange={(event) => set("website", event.target.value)} className={inputClass} />
            )}
          </Field>
          <Field label="Logo URL" required hint="An https address, or a path on this site such as /retailers/amazon.svg.">
            {({ id: inputId, describedBy }) => (
              <div className="flex items-center gap-3">
                <input id={inputId} required value={fields.logo} onChange={(event) => set("logo", event.target.value)} aria-describedby={describedBy} className={inputClass} />
                {logoPreview && <img src={logoPreview} alt="" className="h-10 w-24 shrink-0 rounded border border-slate-200 bg-white object-contain p-1" />}
              </div>
            )}
          </Field>
          <Field label="Description">
            {({ id: inputId }) => <textarea id={inputId} rows={4} maxLength={limits.retailerDescription} value={fields.description} onChange={(event) => set("description", event.target.value)} className={inputClass} />}
          </Field>
          <Checkbox label="Compare prices at this retailer" checked={fields.comparesPrices} onChange={(event) => set("comparesPrices", event.target.checked)} />
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-sm font-semibold text-slate-900">Standard delivery (added to every price, so shoppers compare the total to their door)</legend>
            <Field label="Delivery charge (£)" hint="Per order. Empty: not known (prices then show 'Delivery not stated'); 0: always free.">
              {({ id: inputId, describedBy }) => (
                <input id={inputId} inputMode="decimal" placeholder="3.99" value={fields.deliveryCharge ?? ""} onChange={(event) => set("deliveryCharge", event.target.value)} aria-describedby={describedBy} className={inputClass} />
              )}
            </Field>
            <Field label="Free delivery from (£)" hint="Orders worth at least this are delivered free. Empty: never free by value.">
              {({ id: inputId, describedBy }) => (
                <input id={inputId} inputMode="decimal" placeholder="39.00" value={fields.freeDeliveryFrom ?? ""} onChange={(event) => set("freeDeliveryFrom", event.target.value)} aria-describedby={describedBy} className={inputClass} />
              )}
            </Field>
          </fieldset>
          <Field
            label="Other web addresses"
            hint={`Hosts its offer links may use besides its website, one per line (such as shop.co.uk). ${
              offerHosts.length > 0 ? `Offer links must now be on: ${offerHosts.join(", ")}.` : "Offer links must be on its website's host."
            }`}
          >
            {({ id: inputId, describedBy }) => (
              <textarea id={inputId} rows={2} placeholder="shop.co.uk" value={fields.hosts} onChange={(event) => set("hosts", event.target.value)} aria-describedby={describedBy} className={inputClass} />
            )}
          </Field>
          <Field label="Names in product feeds" hint="How affiliate feeds name this merchant besides its name, or its merchant id on the network, one per line (such as Shop UK Ltd, or 1234 for Awin's merchant_id).">
            {({ id: inputId, describedBy }) => (
              <textarea id={inputId} rows={2} value={fields.feedNames} onChange={(event) => set("feedNames", event.target.value)} aria-describedby={describedBy} className={inputClass} />
            )}
          </Field>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn-primary" disabled={saving}>
              {saving ? "Saving..." : id === null ? "Create Retailer" : "Update Retailer"}
            </button>
            <AdminLink href={adminPaths.retailers} className="btn-outline">
              Cancel
            </AdminLink>
          </div>
        </form>
      </Card>
    </div>
  );
}
