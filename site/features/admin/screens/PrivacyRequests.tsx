/**
 * /admin/privacy-requests: a person's data-rights request (access, portability, erasure). The
 * admin looks up an e-mail address or a visitor id and sees every row linked to it, by kind (the
 * linking rule is shown beside the results), downloads it all as one JSON file for a subject
 * access request, or erases it after a confirmation step. The server records each lookup, export
 * and erasure in the audit log without the address or id.
 */
import { useId, useRef, useState, type FormEvent } from "react";
import {
  linkingRule,
  mailRecordNote,
  outboxNote,
  personalDataKinds,
  personalDataLabels,
  privacyKeyLabels,
  type PersonalDataKind,
  type PersonalDataRow,
} from "../../../../data/domain/privacy.ts";
import { toast } from "../../toast/toast.store.ts";
import {
  describeError,
  erasePersonalData,
  errorMessage,
  exportPersonalData,
  lookUpPersonalData,
  type PersonalDataErasure,
  type PersonalDataLookup,
  type PrivacyKeyInput,
} from "../admin-api.ts";
import { formatDateTime } from "../format.ts";
import { Download, Search, Trash } from "../icons.tsx";
import { adminPaths } from "../routes.ts";
import { Badge, Card, downloadFile, Field, inputClass, LoadFailed, Loading, PageHeader } from "../ui.tsx";
import { maxEmailLength } from "../../../../data/domain/limits.ts";

type KeyKind = "email" | "visitor";

/** What was looked up, as the screen shows it and sends it again for the export and the erasure. */
interface LookedUp {
  key: PrivacyKeyInput;
  shown: string;
  report: PersonalDataLookup;
}

type State =
  | { kind: "idle" }
  | { kind: "loading" }
  | { kind: "failed"; message: string; retry: () => void }
  | { kind: "found"; found: LookedUp }
  | { kind: "erased"; shown: string; keyKind: KeyKind; result: PersonalDataErasure };

const keyOf = (kind: KeyKind, value: string): PrivacyKeyInput => (kind === "email" ? { email: value } : { userId: value });
const shownKey = (key: PrivacyKeyInput) => ("email" in key ? key.email : key.userId);

export default function PrivacyRequests() {
  const [keyKind, setKeyKind] = useState<KeyKind>("email");
  const [value, setValue] = useState("");
  const [inputError, setInputError] = useState<string | null>(null);
  const [state, setState] = useState<State>({ kind: "idle" });
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef(0);

  async function lookUp(key: PrivacyKeyInput) {
    const ticket = ++latest.current;
    setState({ kind: "loading" });
    try {
      const report = await lookUpPersonalData(key);
      if (ticket === latest.current) setState({ kind: "found", found: { key, shown: shownKey(key).trim().toLowerCase(), report } });
    } catch (error) {
      if (ticket === latest.current) setState({ kind: "failed", message: errorMessage(error, "The lookup failed."), retry: () => void lookUp(key) });
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = value.trim();
    if (trimmed === "") {
      setInputError(keyKind === "email" ? "Enter the e-mail address" : "Enter the visitor id");
      input.current?.focus();
      return;
    }
    setInputError(null);
    void lookUp(keyOf(keyKind, trimmed));
  }

  /** Looks up an address or visitor id the results name (a linked visitor, another spelling). */
  function follow(kind: KeyKind, next: string) {
    setKeyKind(kind);
    setValue(next);
    setInputError(null);
    void lookUp(keyOf(kind, next));
  }

  return (
    <div>
      <PageHeader
        title="Privacy requests"
        description="Find everything the site holds for one person, download it for an access request, or erase it."
        back={{ href: adminPaths.dashboard, label: "Dashboard" }}
      />
      <div className="grid gap-6">
        <Card aria-labelledby="privacy-lookup-heading">
          <h2 id="privacy-lookup-heading" className="text-lg font-semibold text-slate-900">
            Look up a person
          </h2>
          <form onSubmit={submit} noValidate className="mt-3 grid max-w-xl gap-4">
            <fieldset>
              <legend className="mb-1 text-sm font-medium text-slate-800">Look up by</legend>
              <div className="flex flex-wrap gap-x-6 gap-y-2">
                {(["email", "visitor"] as const).map((kind) => (
                  <label key={kind} className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-800">
                    <input
                      type="radio"
                      name="privacy-key-kind"
                      value={kind}
                      checked={keyKind === kind}
                      onChange={() => {
                        setKeyKind(kind);
                        setInputError(null);
                      }}
                      className="size-4 accent-brand-700"
                    />
                    {kind === "email" ? "E-mail address" : "Visitor id"}
                  </label>
                ))}
              </div>
            </fieldset>
            <Field
              label={keyKind === "email" ? "E-mail address to look up" : "Visitor id to look up"}
              required
              error={inputError}
              hint={
                keyKind === "email"
                  ? "The whole address, as the person wrote from it; capitals do not matter."
                  : "user_ followed by 24 letters and digits: the person finds it on the site's Your data in this browser page."
              }
            >
              {({ id, describedBy, invalid }) => (
                <input
                  ref={input}
                  id={id}
                  type={keyKind === "email" ? "email" : "text"}
                  value={value}
                  onChange={(event) => setValue(event.target.value)}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  aria-required="true"
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={maxEmailLength}
                  className={inputClass}
                />
              )}
            </Field>
            <div>
              <button type="submit" className="btn-primary" disabled={state.kind === "loading"}>
                <Search className="size-4" aria-hidden="true" />
                Look up
              </button>
            </div>
          </form>
        </Card>
        {state.kind === "loading" && <Loading label="Looking up..." />}
        {state.kind === "failed" && <LoadFailed message={state.message} onRetry={state.retry} />}
        {state.kind === "found" && (
          <Results
            key={JSON.stringify(state.found.key)}
            found={state.found}
            onFollow={follow}
            onErased={(result) => setState({ kind: "erased", shown: state.found.shown, keyKind: "email" in state.found.key ? "email" : "visitor", result })}
          />
        )}
        {state.kind === "erased" && <Erased shown={state.shown} keyKind={state.keyKind} result={state.result} />}
        <LinkingRule />
      </div>
    </div>
  );
}

function LinkingRule() {
  return (
    <Card aria-labelledby="privacy-rule-heading">
      <h2 id="privacy-rule-heading" className="text-base font-semibold text-slate-900">
        What a lookup finds
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
        {linkingRule.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </Card>
  );
}

function Results({ found, onFollow, onErased }: { found: LookedUp; onFollow: (kind: KeyKind, value: string) => void; onErased: (result: PersonalDataErasure) => void }) {
  const { report, shown, key } = found;
  const keyKind: KeyKind = "email" in key ? "email" : "visitor";
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [erasing, setErasing] = useState(false);
  const headingId = useId();
  const withRows = personalDataKinds.filter((kind) => report.counts[kind] > 0);
  const without = personalDataKinds.filter((kind) => report.counts[kind] === 0);

  async function download() {
    setExporting(true);
    try {
      const { blob, fileName } = await exportPersonalData(key);
      downloadFile(blob, fileName);
      toast({ title: "Export downloaded", description: fileName });
    } catch (error) {
      toast({ title: "The export failed", description: describeError(error), variant: "destructive" });
    } finally {
      setExporting(false);
    }
  }

  async function erase() {
    setErasing(true);
    try {
      const result = await erasePersonalData(key);
      toast({ title: "Personal data erased" });
      onErased(result);
    } catch (error) {
      toast({ title: "The erasure failed", description: errorMessage(error, "Nothing was erased. Please try again."), variant: "destructive" });
      setErasing(false);
    }
  }

  return (
    <section className="card p-4 sm:p-6" aria-labelledby={headingId} data-testid="privacy-results">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold break-all text-slate-900">
            {shown}
          </h2>
          <p className="mt-1 text-sm text-slate-700" data-testid="privacy-total">
            {report.total === 0
              ? `Nothing is linked to this ${privacyKeyLabels[keyKind]}.`
              : `${report.total.toLocaleString("en-GB")} ${report.total === 1 ? "row" : "rows"} of ${withRows.length} ${withRows.length === 1 ? "kind" : "kinds"} linked to this ${privacyKeyLabels[keyKind]}.`}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-outline" onClick={() => void download()} disabled={exporting}>
            <Download className="size-4" aria-hidden="true" />
            Export JSON
          </button>
          <button type="button" className="btn border border-red-200 bg-white text-red-700 hover:bg-red-50" onClick={() => setConfirming(true)} disabled={report.total === 0 || confirming}>
            <Trash className="size-4" aria-hidden="true" />
            Erase all
          </button>
        </div>
      </div>

      {confirming && (
        <div role="alertdialog" aria-labelledby={`${headingId}-confirm`} aria-describedby={`${headingId}-confirm-text`} className="mt-4 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-950">
          <p id={`${headingId}-confirm`} className="font-semibold">
            Erase everything linked to {shown}?
          </p>
          <p id={`${headingId}-confirm-text`} className="mt-1">
            {report.total.toLocaleString("en-GB")} {report.total === 1 ? "row goes" : "rows go"} for good
            {report.counts.auditMentions > 0 ? "; the audit entries naming the address keep their record with the address replaced" : ""}. Export first if the
            person asked for a copy. The audit log notes the erasure without the {privacyKeyLabels[keyKind]}.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <button type="button" className="btn bg-red-700 text-white hover:bg-red-800" onClick={() => void erase()} disabled={erasing} autoFocus>
              <Trash className="size-4" aria-hidden="true" />
              Erase permanently
            </button>
            <button type="button" className="btn-outline" onClick={() => setConfirming(false)} disabled={erasing}>
              Cancel
            </button>
          </div>
        </div>
      )}

      <Links report={report} onFollow={onFollow} />

      <p className="mt-4 text-sm text-slate-600">
        {mailRecordNote}
        {report.mailTransport === "outbox" && <> {outboxNote}</>}
      </p>

      <div className="mt-6 grid gap-6">
        {withRows.map((kind) => (
          <KindRows key={kind} kind={kind} rows={report.data[kind]} />
        ))}
      </div>
      {without.length > 0 && (
        <p className="mt-6 text-sm text-slate-600" data-testid="privacy-none">
          None found: {without.map((kind) => personalDataLabels[kind].label).join(", ")}.
        </p>
      )}
    </section>
  );
}

/** The visitor ids an address led to, other spellings of its mailbox, or the addresses a visitor id used: each can be looked up. */
function Links({ report, onFollow }: { report: PersonalDataLookup; onFollow: (kind: KeyKind, value: string) => void }) {
  const follow = (kind: KeyKind, value: string) => (
    <button type="button" className="font-medium break-all text-brand-700 underline hover:text-brand-800" onClick={() => onFollow(kind, value)}>
      {value}
    </button>
  );
  if (report.visitors.length === 0 && report.otherSpellings.length === 0 && report.addressesUsed.length === 0) return null;
  return (
    <div className="mt-4 grid gap-3 text-sm text-slate-700">
      {report.visitors.length > 0 && (
        <div>
          <h3 className="font-semibold text-slate-900">Visitor ids that used this address</h3>
          <ul className="mt-1 space-y-1">
            {report.visitors.map((visitor) => (
              <li key={visitor.userId} className="flex flex-wrap items-center gap-2">
                {follow("visitor", visitor.userId)}
                {visitor.confirmed ? <Badge tone="green">Confirmed: browser data included</Badge> : <Badge tone="amber">Only typed the address: browser data not included</Badge>}
                {visitor.otherAddresses > 0 && (
                  <Badge tone="slate">
                    Also used {visitor.otherAddresses} other {visitor.otherAddresses === 1 ? "address" : "addresses"}
                  </Badge>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {report.otherSpellings.length > 0 && (
        <div>
          <h3 className="font-semibold text-slate-900">Other spellings of the same mailbox (not included)</h3>
          <p>Look one up on its own once the person shows they receive mail there.</p>
          <ul className="mt-1 space-y-1">
            {report.otherSpellings.map((address) => (
              <li key={address}>{follow("email", address)}</li>
            ))}
          </ul>
        </div>
      )}
      {report.addressesUsed.length > 0 && (
        <div>
          <h3 className="font-semibold text-slate-900">Addresses this visitor id used</h3>
          <p>Their newsletter sign-ups and audit entries are keyed on the address: look each up on its own.</p>
          <ul className="mt-1 space-y-1">
            {report.addressesUsed.map((address) => (
              <li key={address}>{follow("email", address)}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** camelCase field name in words: "targetPricePence" -> "Target price pence". */
function fieldLabel(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const isTimestampField = (name: string) => name === "at" || name.endsWith("At") || name === "lastUpdated";

function FieldValue({ name, value }: { name: string; value: unknown }) {
  if (value === null || value === undefined || value === "") return <span className="text-slate-500">–</span>;
  if (typeof value === "boolean") return <>{value ? "Yes" : "No"}</>;
  if (typeof value === "string" && isTimestampField(name)) {
    return (
      <time dateTime={value} title={value}>
        {formatDateTime(value)}
      </time>
    );
  }
  if (typeof value === "object") return <code className="font-mono text-xs break-all">{JSON.stringify(value)}</code>;
  return <>{String(value)}</>;
}

function KindRows({ kind, rows }: { kind: PersonalDataKind; rows: PersonalDataRow[] }) {
  const { label, description } = personalDataLabels[kind];
  const headingId = `privacy-kind-${kind}`;
  return (
    <section aria-labelledby={headingId} data-testid={`privacy-kind-${kind}`}>
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        {label} <span className="font-normal text-slate-600">({rows.length.toLocaleString("en-GB")})</span>
      </h3>
      <p className="text-xs text-slate-600">{description}</p>
      <ul className="mt-2 grid gap-2">
        {rows.map((row, index) => (
          <li key={index} className="rounded-lg border border-slate-200 bg-slate-50 p-3">
            <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[minmax(8rem,auto)_1fr]">
              {Object.entries(row).map(([name, value]) => (
                <div key={name} className="contents">
                  <dt className="text-slate-600 max-sm:text-xs">{fieldLabel(name)}</dt>
                  <dd className="min-w-0 break-words text-slate-900 [overflow-wrap:anywhere]">
                    <FieldValue name={name} value={value} />
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Erased({ shown, keyKind, result }: { shown: string; keyKind: KeyKind; result: PersonalDataErasure }) {
  const deleted = result.total - result.counts.auditMentions;
  return (
    <section role="status" className="card border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-950 sm:p-6" data-testid="privacy-erased">
      <h2 className="text-base font-semibold break-all">Erased everything linked to {shown}</h2>
      <p className="mt-1">
        {deleted.toLocaleString("en-GB")} {deleted === 1 ? "row" : "rows"} deleted
        {result.counts.auditMentions > 0 ? `, the ${privacyKeyLabels[keyKind]} replaced in ${result.counts.auditMentions} audit ${result.counts.auditMentions === 1 ? "entry" : "entries"}` : ""}.
        The audit log records the erasure without the {privacyKeyLabels[keyKind]}.
      </p>
    </section>
  );
}
