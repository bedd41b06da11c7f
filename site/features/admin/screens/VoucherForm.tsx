/**
 * /admin/vouchers/new and /admin/vouchers/edit/{id}: code, description, retailer, link,
 * discount and expiry date, all required.
 */
import { useId, useState, type FormEvent } from "react";
import { ukToday } from "../../../../data/domain/dates.ts";
import { toast } from "../../toast/toast.store.ts";
import { createVoucher, errorMessage, fetchRetailers, fetchVouchers, updateVoucher, type VoucherInput } from "../admin-api.ts";
import { adminPaths } from "../routes.ts";
import { navigate } from "../router.ts";
import { AdminLink, Card, Field, inputClass, LoadFailed, Loading, PageHeader, useLoad } from "../ui.tsx";
import { catalogueTextLimits as limits } from "../../../../data/domain/limits.ts";

/** The list to go back to (worked out when drawn: a screen reads no address while its module loads). */
const back = () => ({ href: adminPaths.vouchers, label: "Back to Vouchers" });
const blank: VoucherInput = { code: "", description: "", retailer: "", url: "", discount: "", expiryDate: "" };

async function loadVoucher(id: number | null): Promise<{ voucher: VoucherInput | null; retailerNames: string[] }> {
  const [vouchers, retailers] = await Promise.all([id === null ? Promise.resolve([]) : fetchVouchers(), fetchRetailers().catch(() => [])]);
  const found = id === null ? blank : (vouchers.find((voucher) => voucher.id === id) ?? null);
  return { voucher: found, retailerNames: retailers.map((retailer) => retailer.name) };
}

export default function VoucherForm({ id }: { id: number | null }) {
  const { state, reload } = useLoad(() => loadVoucher(id), [id]);
  const title = id === null ? "Add New Voucher" : "Edit Voucher";
  if (state.kind === "loading")
    return (
      <div>
        <PageHeader title={title} back={back()} />
        <Loading label="Loading voucher..." />
      </div>
    );
  if (state.kind === "failed" || state.data.voucher === null)
    return (
      <div>
        <PageHeader title={title} back={back()} />
        <LoadFailed message={state.kind === "failed" ? errorMessage(state.error, "Could not load the voucher.") : "This voucher does not exist."} onRetry={reload} />
      </div>
    );
  const { code, description, retailer, url, discount, expiryDate } = state.data.voucher;
  return <VoucherEditor id={id} initial={{ code, description, retailer, url, discount, expiryDate }} retailerNames={state.data.retailerNames} />;
}

function VoucherEditor({ id, initial, retailerNames }: { id: number | null; initial: VoucherInput; retailerNames: string[] }) {
  const [fields, setFields] = useState(initial);
  const [saving, setSaving] = useState(false);
  const retailerListId = useId();
  const set = (key: keyof VoucherInput, value: string) => setFields((previous) => ({ ...previous, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    const input = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value.trim()])) as VoucherInput;
    try {
      if (id === null) await createVoucher(input);
      else await updateVoucher(id, input);
      toast({ title: id === null ? "Voucher created successfully" : "Voucher updated successfully" });
      navigate(adminPaths.vouchers);
    } catch (error) {
      setSaving(false);
      toast({ title: id === null ? "Failed to create voucher" : "Failed to update voucher", description: errorMessage(error, "Please try again."), variant: "destructive" });
    }
  }

  return (
    <div>
      <PageHeader title={id === null ? "Add New Voucher" : `Edit Voucher: ${initial.code}`} back={back()} />
      <Card className="max-w-2xl">
        <form onSubmit={submit} className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Code" required>
              {({ id: inputId }) => (
                <input id={inputId} required maxLength={limits.voucherCode} autoCapitalize="characters" value={fields.code} onChange={(event) => set("code", event.target.value)} className={`${inputClass} font-mono`} />
              )}
            </Field>
            <Field label="Discount" required hint="e.g. 10%, £10 or Free Delivery">
              {({ id: inputId, describedBy }) => (
                <input id={inputId} required maxLength={limits.voucherDiscount} value={fields.discount} onChange={(event) => set("discount", event.target.value)} aria-describedby={describedBy} className={inputClass} />
              )}
            </Field>
          </div>
          <Field label="Description" required>
            {({ id: inputId }) => <textarea id={inputId} required rows={3} maxLength={limits.voucherDescription} value={fields.description} onChange={(event) => set("description", event.target.value)} className={inputClass} />}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Retailer" required>
              {({ id: inputId }) => (
                <>
                  <input id={inputId} required list={retailerListId} maxLength={limits.voucherRetailer} value={fields.retailer} onChange={(event) => set("retailer", event.target.value)} className={inputClass} autoComplete="off" />
                  <datalist id={retailerListId}>
                    {retailerNames.map((name) => (
                      <option key={name} value={name} />
                    ))}
                  </datalist>
                </>
              )}
            </Field>
            <Field label="Expiry date" required hint={id === null ? "Valid through the whole of this day (UK time)." : undefined}>
              {({ id: inputId, describedBy }) => (
                <input
                  id={inputId}
                  type="date"
                  required
                  min={id === null ? ukToday() : undefined}
                  value={fields.expiryDate}
                  onChange={(event) => set("expiryDate", event.target.value)}
                  aria-describedby={describedBy}
                  className={inputClass}
                />
              )}
            </Field>
          </div>
          <Field label="URL" required hint="Where the voucher is used; links to known retailers get the affiliate ID added.">
            {({ id: inputId, describedBy }) => (
              <input id={inputId} type="url" required placeholder="https://" value={fields.url} onChange={(event) => set("url", event.target.value)} aria-describedby={describedBy} className={inputClass} />
            )}
          </Field>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn-primary" disabled={saving}>
              {saving ? "Saving..." : id === null ? "Create Voucher" : "Update Voucher"}
            </button>
            <AdminLink href={adminPaths.vouchers} className="btn-outline">
              Cancel
            </AdminLink>
          </div>
        </form>
      </Card>
    </div>
  );
}
