/**
 * /admin/feeds/new and /admin/feeds/edit/{id}: a feed source's name, where it is read from (a
 * download URL, never shown again whole, or an uploaded file), its layout ("Detect from the
 * file" or chosen), the retailer it feeds or "By merchant column", whether it creates products,
 * and its schedule. For the mapped layout, the detected columns are shown with a select per field
 * (name, price and link required) and a sample row. On a saved feed: Run now, the run's live
 * counters, and its recent runs.
 */
import { useEffect, useState, type FormEvent } from "react";
import { defaultFeedSchedule, feedFieldLabels, feedLayoutChoices, feedLayoutLabels, isFinished, mappableFields, missingMappedFields, type FeedRun } from "../../../../data/domain/feed-sources.ts";
import { ApiError } from "../../../lib/api.ts";
import { toast } from "../../toast/toast.store.ts";
import {
  createFeedSource,
  deleteFeedSource,
  detectFeed,
  errorMessage,
  fetchFeedRuns,
  fetchFeedSource,
  fetchRetailers,
  startFeedRun,
  updateFeedSource,
  uploadFeedFile,
  type AdminRetailer,
  type ColumnMapping,
  type FeedLayoutChoice,
  type FeedSniff,
  type FeedSourceView,
} from "../admin-api.ts";
import { runSummary, suggestMapping } from "../feeds.ts";
import { handOffFeed, takeFeedHandoff } from "../feeds.store.ts";
import { formatBytes, formatDateTime } from "../format.ts";
import { Play, ScanSearch, Trash, Upload } from "../icons.tsx";
import { adminPaths } from "../routes.ts";
import { navigate } from "../router.ts";
import { RunProgress, RunStatusBadge, useRun } from "../RunProgress.tsx";
import { AdminLink, Card, Checkbox, Field, inputClass, LoadFailed, Loading, PageHeader, useLoad } from "../ui.tsx";
import { catalogueTextLimits } from "../../../../data/domain/limits.ts";

/** The list to go back to (worked out when drawn: a screen reads no address while its module loads). */
const back = () => ({ href: adminPaths.feeds, label: "Back to Feeds" });

async function loadForm(id: number | null) {
  const [source, retailers] = await Promise.all([id === null ? Promise.resolve(null) : fetchFeedSource(id), fetchRetailers()]);
  return { source, retailers: retailers.filter((retailer) => retailer.comparesPrices) };
}

export default function FeedForm({ id }: { id: number | null }) {
  const { state, reload } = useLoad(() => loadForm(id), [id]);
  if (state.kind === "loading")
    return (
      <div>
        <PageHeader title={id === null ? "Add feed" : "Edit feed"} back={back()} />
        <Loading label="Loading feed..." />
      </div>
    );
  if (state.kind === "failed")
    return (
      <div>
        <PageHeader title="Edit feed" back={back()} />
        <LoadFailed
          message={state.error instanceof ApiError && state.error.status === 404 ? "This feed does not exist." : errorMessage(state.error, "Could not load the feed.")}
          onRetry={reload}
        />
      </div>
    );
  return <FeedEditor id={id} source={state.data.source} retailers={state.data.retailers} />;
}

interface Fields {
  name: string;
  kind: "url" | "file";
  /** A new URL (on a saved feed: empty keeps the saved one). */
  url: string;
  layout: FeedLayoutChoice;
  retailerKey: string;
  createProducts: boolean;
  schedule: string;
  enabled: boolean;
}

const fieldsOf = (source: FeedSourceView | null): Fields => ({
  name: source?.name ?? "",
  kind: source?.kind ?? "url",
  url: "",
  layout: source?.layout ?? "auto",
  retailerKey: source?.retailerKey ?? "",
  createProducts: source?.createProducts ?? false,
  // A new source is read every 6 hours unless the admin changes it.
  schedule: source === null ? defaultFeedSchedule : (source.schedule ?? ""),
  enabled: source?.enabled ?? true,
});

function FeedEditor({ id, source: loaded, retailers }: { id: number | null; source: FeedSourceView | null; retailers: AdminRetailer[] }) {
  const [handoff] = useState(() => (id === null ? null : takeFeedHandoff(id)));
  const [source, setSource] = useState(loaded);
  const [fields, setFields] = useState<Fields>(() => ({ ...fieldsOf(loaded), layout: handoff?.mapColumns ? "mapped" : (loaded?.layout ?? "auto") }));
  const [file, setFile] = useState<File | null>(null);
  const [detected, setDetected] = useState<FeedSniff | null>(handoff?.detected ?? null);
  const [mapping, setMapping] = useState<ColumnMapping>(() => (handoff?.detected ? suggestMapping(handoff.detected.columns, loaded?.mapping ?? null) : (loaded?.mapping ?? {})));
  const [busy, setBusy] = useState<"saving" | "detecting" | "starting" | null>(null);
  const set = <K extends keyof Fields>(key: K, value: Fields[K]) => setFields((previous) => ({ ...previous, [key]: value }));

  const runsState = useLoad(() => (id === null ? Promise.resolve([] as FeedRun[]) : fetchFeedRuns(id)), [id]);
  const [started, setStarted] = useState<FeedRun | null>(null);
  const { run } = useRun(started, (finished) => {
    toast(
      finished.status === "succeeded"
        ? { title: "Import finished", description: runSummary(finished) }
        : { title: "Import failed", description: finished.error ?? "", variant: "destructive" },
    );
    runsState.reload();
  });

  async function detect(sourceId: number) {
    setBusy("detecting");
    try {
      const sniff = await detectFeed(sourceId);
      setDetected(sniff);
      setMapping((current) => suggestMapping(sniff.columns, current));
    } catch (error) {
      toast({ title: "Could not read the feed's columns", description: errorMessage(error, "Please try again."), variant: "destructive" });
    } finally {
      setBusy(null);
    }
  }

  // A mapped feed shows its columns at once: they are read from its file or the first bytes of its download.
  useEffect(() => {
    if (id !== null && fields.layout === "mapped" && detected === null && (loaded?.kind === "url" || loaded?.fileName)) void detect(id);
  }, [id]);

  const mapped = fields.layout === "mapped";
  const missing = missingMappedFields(mapping);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const schedule = fields.schedule.trim() || null;
    const retailerKey = fields.retailerKey || null;
    setBusy("saving");
    try {
      if (id === null) {
        if (fields.kind === "file" && !file) throw new Error("Choose the feed file to upload.");
        // The columns of a mapped feed are known only once its file is read: it is saved to be detected first.
        const created = await createFeedSource({
          name: fields.name.trim(),
          kind: fields.kind,
          url: fields.kind === "url" ? fields.url.trim() : undefined,
          layout: mapped ? "auto" : fields.layout,
          retailerKey,
          createProducts: fields.createProducts,
          schedule,
          enabled: fields.enabled,
        });
        let sniff: FeedSniff | null = null;
        try {
          sniff = file && fields.kind === "file" ? (await uploadFeedFile(created.id as number, file)).detected : mapped ? await detectFeed(created.id as number) : null;
        } catch (error) {
          toast({ title: "The feed was saved, but its file was not read", description: errorMessage(error, "Please try again."), variant: "destructive" });
          navigate(adminPaths.editFeed(created.id as number));
          return;
        }
        if (mapped) {
          handOffFeed({ id: created.id as number, detected: sniff, mapColumns: true });
          toast({ title: "Feed saved", description: "Choose which column holds each field, then save again." });
          navigate(adminPaths.editFeed(created.id as number));
        } else {
          toast({ title: "Feed saved", description: sniff ? `Detected: ${sniff.description}` : undefined });
          navigate(adminPaths.feeds);
        }
        return;
      }
      if (mapped && missing.length > 0) throw new Error(`Choose the columns for ${missing.map((field) => feedFieldLabels[field].label.toLowerCase()).join(", ")}.`);
      let saved = await updateFeedSource(id, {
        name: fields.name.trim(),
        ...(fields.kind === "url" && fields.url.trim() ? { url: fields.url.trim() } : {}),
        layout: fields.layout,
        mapping: mapped ? mapping : null,
        retailerKey,
        createProducts: fields.createProducts,
        schedule,
        enabled: fields.enabled,
      });
      if (file) {
        const uploaded = await uploadFeedFile(id, file);
        saved = uploaded.source;
        setDetected(uploaded.detected);
        setFile(null);
      }
      setSource(saved);
      set("url", "");
      toast({ title: "Feed saved" });
    } catch (error) {
      toast({
        title: "Failed to save the feed",
        description: error instanceof ApiError ? errorMessage(error, "Please try again.") : (error as Error).message,
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  async function runNow() {
    if (id === null) return;
    setBusy("starting");
    try {
      setStarted((await startFeedRun(id)).run);
    } catch (error) {
      toast({ title: "The import did not start", description: errorMessage(error, "Please try again."), variant: "destructive" });
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (id === null || !window.confirm(`Are you sure you want to delete the feed "${source?.name}"?`)) return;
    try {
      await deleteFeedSource(id);
      toast({ title: "Feed deleted" });
      navigate(adminPaths.feeds);
    } catch (error) {
      toast({ title: "Failed to delete the feed", description: errorMessage(error, "Please try again."), variant: "destructive" });
    }
  }

  const sample = detected?.sample[0] ?? null;
  const running = run !== null && !isFinished(run.status);
  return (
    <div>
      <PageHeader title={id === null ? "Add feed" : `Edit feed: ${source?.name ?? ""}`} back={back()} />
      <div className="grid max-w-3xl gap-6">
        <Card aria-labelledby="feed-settings-heading">
          <h2 id="feed-settings-heading" className="sr-only">
            Feed settings
          </h2>
          <form onSubmit={submit} className="grid gap-4" data-testid="feed-form">
            <Field label="Name" required>
              {({ id: inputId }) => (
                <input id={inputId} required maxLength={catalogueTextLimits.feedSourceName} value={fields.name} onChange={(event) => set("name", event.target.value)} className={inputClass} />
              )}
            </Field>
            {id === null && (
              <fieldset className="grid gap-2">
                <legend className="mb-1 text-sm font-medium text-slate-800">Read the feed from</legend>
                <label className="inline-flex items-center gap-2 text-sm text-slate-800">
                  <input type="radio" name="feed-kind" className="accent-brand-700" checked={fields.kind === "url"} onChange={() => set("kind", "url")} />A download URL
                </label>
                <label className="inline-flex items-center gap-2 text-sm text-slate-800">
                  <input type="radio" name="feed-kind" className="accent-brand-700" checked={fields.kind === "file"} onChange={() => set("kind", "file")} />A file I upload
                </label>
              </fieldset>
            )}
            {/* Keyed: the URL's text box and the file picker are different controls, not one that changes. */}
            {fields.kind === "url" ? (
              <Field
                key="url"
                label="Download URL"
                required={id === null}
                hint={
                  source?.maskedUrl
                    ? `Saved: ${source.maskedUrl} (the link holds your network's key, so it is never shown whole). Type a new link to replace it.`
                    : "The feed's download link from your affiliate network (http or https). It is kept on the server and never shown whole."
                }
              >
                {({ id: inputId, describedBy }) => (
                  <input
                    id={inputId}
                    type="url"
                    required={id === null}
                    autoComplete="off"
                    placeholder="https://productdata.awin.com/datafeed/download/..."
                    value={fields.url}
                    onChange={(event) => set("url", event.target.value)}
                    aria-describedby={describedBy}
                    className={inputClass}
                  />
                )}
              </Field>
            ) : (
              <Field
                key="file"
                label="Feed file"
                required={id === null}
                hint={
                  source?.fileName
                    ? `Current: ${source.fileName}${source.fileBytes !== null ? ` (${formatBytes(source.fileBytes)})` : ""}. Choose a file to replace it.`
                    : "CSV, TSV or XML, plain or gzip."
                }
              >
                {({ id: inputId, describedBy }) => (
                  <input
                    id={inputId}
                    type="file"
                    accept=".csv,.tsv,.txt,.xml,.gz"
                    required={id === null}
                    onChange={(event) => setFile(event.target.files?.[0] ?? null)}
                    aria-describedby={describedBy}
                    className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-800"
                  />
                )}
              </Field>
            )}
            <Field
              label="Layout"
              hint={
                detected
                  ? `Detected: ${detected.description}`
                  : "How the feed's columns are read: detected from the file, or chosen. Mapped columns: you say which column holds each field."
              }
            >
              {({ id: inputId, describedBy }) => (
                <select
                  id={inputId}
                  value={fields.layout}
                  onChange={(event) => set("layout", event.target.value as FeedLayoutChoice)}
                  aria-describedby={describedBy}
                  className={inputClass}
                >
                  {feedLayoutChoices.map((choice) => (
                    <option key={choice} value={choice}>
                      {feedLayoutLabels[choice]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {mapped && id !== null && (
              <fieldset className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:p-4" data-testid="column-mapping">
                <legend className="px-1 text-sm font-semibold text-slate-900">Columns</legend>
                {detected === null ? (
                  <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
                    <p>The feed's columns have not been read yet.</p>
                    <button type="button" className="btn-outline" disabled={busy !== null} onClick={() => void detect(id)}>
                      <ScanSearch className="size-4" aria-hidden="true" />
                      {busy === "detecting" ? "Reading..." : "Detect columns"}
                    </button>
                  </div>
                ) : (
                  <>
                    <p className="text-sm text-slate-600">Choose the feed's column for each field; name, price and link are required. The sample is the feed's first row.</p>
                    {mappableFields.map((field) => {
                      const { label, required } = feedFieldLabels[field];
                      const column = mapping[field] ?? "";
                      return (
                        <Field key={field} label={label} required={required} hint={column && sample ? `Sample: ${sample[column] || "(empty)"}` : undefined}>
                          {({ id: inputId, describedBy }) => (
                            <select
                              id={inputId}
                              value={column}
                              aria-describedby={describedBy}
                              onChange={(event) => setMapping((current) => ({ ...current, [field]: event.target.value || undefined }))}
                              className={inputClass}
                            >
                              <option value="">{required ? "Choose a column" : "Not in this feed"}</option>
                              {detected.columns.map((name) => (
                                <option key={name} value={name}>
                                  {name}
                                </option>
                              ))}
                            </select>
                          )}
                        </Field>
                      );
                    })}
                  </>
                )}
              </fieldset>
            )}
            <Field label="Retailer" hint="The retailer whose offers the feed lists. By merchant column: each row's merchant name says.">
              {({ id: inputId, describedBy }) => (
                <select id={inputId} value={fields.retailerKey} onChange={(event) => set("retailerKey", event.target.value)} aria-describedby={describedBy} className={inputClass}>
                  <option value="">By merchant column</option>
                  {retailers.map((retailer) => (
                    <option key={retailer.key} value={retailer.key}>
                      {retailer.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Checkbox label="Create products for rows that match none" checked={fields.createProducts} onChange={(event) => set("createProducts", event.target.checked)} />
            <Field label="Schedule" hint="A cron pattern in UK time (minute hour day month weekday): 0 */6 * * * reads it every 6 hours, 15 3 * * * at 03:15 every day. Empty: only when run by hand.">
              {({ id: inputId, describedBy }) => (
                <input
                  id={inputId}
                  maxLength={catalogueTextLimits.feedSchedule}
                  placeholder="15 3 * * *"
                  value={fields.schedule}
                  onChange={(event) => set("schedule", event.target.value)}
                  aria-describedby={describedBy}
                  className={inputClass}
                />
              )}
            </Field>
            <Checkbox label="Scheduled runs on" checked={fields.enabled} onChange={(event) => set("enabled", event.target.checked)} />
            <div className="flex flex-wrap gap-2">
              <button type="submit" className="btn-primary" disabled={busy !== null}>
                {fields.kind === "file" && file ? <Upload className="size-4" aria-hidden="true" /> : null}
                {busy === "saving" ? "Saving..." : mapped && id !== null ? "Save feed and mapping" : "Save feed"}
              </button>
              <AdminLink href={adminPaths.feeds} className="btn-outline">
                Cancel
              </AdminLink>
              {id !== null && (
                <button type="button" className="btn-ghost text-red-700 hover:bg-red-50 sm:ml-auto" onClick={() => void remove()}>
                  <Trash className="size-4" aria-hidden="true" />
                  Delete feed
                </button>
              )}
            </div>
          </form>
        </Card>

        {id !== null && (
          <Card aria-labelledby="feed-runs-heading">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="feed-runs-heading" className="text-lg font-semibold text-slate-900">
                Import runs
              </h2>
              <button type="button" className="btn-primary" disabled={busy !== null || running} onClick={() => void runNow()}>
                <Play className="size-4" aria-hidden="true" />
                {running ? "Importing..." : "Run now"}
              </button>
            </div>
            {run && (
              <div className="mt-4">
                <RunProgress run={run} />
              </div>
            )}
            {runsState.state.kind === "ready" && runsState.state.data.length > 0 && (
              <>
                <h3 className="mt-5 text-sm font-semibold text-slate-800">Recent runs</h3>
                <ol className="mt-2 divide-y divide-slate-100 text-sm" data-testid="feed-runs">
                  {runsState.state.data.map((past) => (
                    <li key={past.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                      <RunStatusBadge status={past.status} />
                      <span className="text-slate-600 tabular-nums">{formatDateTime(past.finishedAt ?? past.queuedAt)}</span>
                      <span className="min-w-0 break-words text-slate-800">{runSummary(past)}</span>
                    </li>
                  ))}
                </ol>
              </>
            )}
            {runsState.state.kind === "ready" && runsState.state.data.length === 0 && !run && <p className="mt-3 text-sm text-slate-600">This feed has not been imported yet.</p>}
          </Card>
        )}
      </div>
    </div>
  );
}
