/**
 * /admin/affiliate-links: the five affiliate programme IDs every outbound link carries. They are
 * stored on the server (saving rebuilds the public pages with them); all five are required.
 */
import { ArrowUpRight } from "../icons.tsx";
import { useRef, useState, type FormEvent } from "react";
import { affiliateKeys, maxAffiliateIdLength, type AffiliateIds, type AffiliateKey } from "../../../../data/domain/catalogue.ts";
import { affiliateProgramme, type AffiliateProgramme } from "../../../../data/domain/retailers.ts";
import { toast } from "../../toast/toast.store.ts";
import { errorMessage, fetchAffiliateIds, saveAffiliateIds } from "../admin-api.ts";
import { adminPaths } from "../routes.ts";
import { AdminLink, Card, Field, inputClass, LoadFailed, Loading, PageHeader, useLoad } from "../ui.tsx";

/** Each ID's field label, required message and placeholder, from its retailer's programme. */
const fieldsByKey = Object.fromEntries(affiliateKeys.map((key) => [key, affiliateProgramme(key)])) as Record<AffiliateKey, AffiliateProgramme>;

const programmes = [
  { name: "Amazon Associates UK", href: "https://affiliate-program.amazon.co.uk/", text: "Earn on Amazon.co.uk purchases; your tracking ID ends in -21." },
  { name: "AWIN (Pets at Home)", href: "https://www.awin.com/gb", text: "Pets at Home runs its programme through the AWIN network." },
  { name: "eBay Partner Network", href: "https://partnernetwork.ebay.co.uk/", text: "Create a campaign and use its campaign ID." },
];

type Errors = Partial<Record<AffiliateKey, string>>;

export default function AffiliateLinks() {
  const { state, reload } = useLoad(fetchAffiliateIds, []);
  return (
    <div>
      <PageHeader
        title="Affiliate Links"
        description="These IDs are added to every link that sends a shopper to a retailer."
        actions={
          <AdminLink href={adminPaths.dashboard} className="btn-outline">
            Dashboard
          </AdminLink>
        }
      />
      {state.kind === "loading" && <Loading label="Loading affiliate IDs..." />}
      {state.kind === "failed" && <LoadFailed message={errorMessage(state.error, "Could not load the affiliate IDs.")} onRetry={reload} />}
      {state.kind === "ready" && <AffiliateForm initial={state.data} />}
      <Card className="mt-6 max-w-2xl" aria-labelledby="programmes-heading">
        <h2 id="programmes-heading" className="text-lg font-semibold text-slate-900">
          Affiliate programmes
        </h2>
        <p className="mt-1 text-sm text-slate-600">Not signed up yet? Join these programmes to get your IDs.</p>
        <ul className="mt-3 grid gap-3">
          {programmes.map((programme) => (
            <li key={programme.name} className="rounded-lg border border-slate-200 p-3">
              <a href={programme.href} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium text-brand-700 hover:underline">
                {programme.name}
                <ArrowUpRight className="size-3.5" aria-hidden="true" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
              <p className="text-sm text-slate-600">{programme.text}</p>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

function AffiliateForm({ initial }: { initial: AffiliateIds }) {
  const [ids, setIds] = useState<AffiliateIds>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Errors = {};
    for (const key of affiliateKeys) if (ids[key].trim() === "") found[key] = fieldsByKey[key].required;
    setErrors(found);
    const firstMissing = affiliateKeys.find((key) => found[key]);
    if (firstMissing) {
      form.current?.querySelector<HTMLInputElement>(`[name="${firstMissing}"]`)?.focus();
      return;
    }
    setSaving(true);
    try {
      const saved = await saveAffiliateIds(Object.fromEntries(affiliateKeys.map((key) => [key, ids[key].trim()])) as AffiliateIds);
      setIds(saved);
      toast({ title: "Affiliate links updated", description: "Your affiliate IDs have been successfully saved." });
    } catch (error) {
      toast({ title: "Failed to save affiliate links. Please try again.", description: errorMessage(error, ""), variant: "destructive" });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card className="max-w-2xl">
      <form ref={form} onSubmit={submit} noValidate className="grid gap-4">
        {affiliateKeys.map((key) => (
          <Field key={key} label={fieldsByKey[key].label} required error={errors[key]}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                name={key}
                value={ids[key]}
                onChange={(event) => setIds((previous) => ({ ...previous, [key]: event.target.value }))}
                placeholder={fieldsByKey[key].placeholder}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                aria-required="true"
                autoComplete="off"
                spellCheck={false}
                maxLength={maxAffiliateIdLength}
                className={inputClass}
              />
            )}
          </Field>
        ))}
        <div>
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Saving..." : "Save Affiliate IDs"}
          </button>
        </div>
      </form>
    </Card>
  );
}
