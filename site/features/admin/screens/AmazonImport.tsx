/**
 * /admin/amazon-import: imports best-selling pet products from the configured product source
 * (the sample best-seller feed by default, an affiliate feed, or the Amazon product API), then
 * shows what the run did: how many were imported, the first skipped products, what to do next.
 * The import runs in the background: the button starts it and the screen follows its counters
 * every second until it ends. States: idle, importing (live counters), result shown (a refused or
 * failed run shows its reason there too).
 */
import { useState } from "react";
import { featuredPerImport } from "../../../../data/domain/product-import.ts";
import { toast } from "../../toast/toast.store.ts";
import { importProducts, type FeedRun, type ImportResult } from "../admin-api.ts";
import { importFailedToast, importFailureMessage, importToast, skippedList } from "../amazon-import.ts";
import { importResultOf } from "../feeds.ts";
import { RunProgress, useRun } from "../RunProgress.tsx";
import { Import, LoaderCircle, TriangleAlert } from "../icons.tsx";
import { adminPaths } from "../routes.ts";
import { AdminLink, Card, PageHeader } from "../ui.tsx";

type Outcome = { kind: "imported"; result: ImportResult } | { kind: "failed"; message: string };

export default function AmazonImport() {
  const [starting, setStarting] = useState(false);
  const [started, setStarted] = useState<FeedRun | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const { run } = useRun(started, (finished) => {
    if (finished.status === "succeeded") {
      const result = importResultOf(finished);
      setOutcome({ kind: "imported", result });
      toast(importToast(result));
    } else {
      const message = finished.error ?? importFailureMessage(null);
      setOutcome({ kind: "failed", message });
      toast({ title: "Import Failed", description: message, variant: "destructive" });
    }
  });
  const importing = starting || (run !== null && outcome === null);

  async function runImport() {
    setStarting(true);
    setOutcome(null);
    try {
      setStarted((await importProducts()).run);
    } catch (error) {
      setOutcome({ kind: "failed", message: importFailureMessage(error) });
      toast(importFailedToast(error));
    } finally {
      setStarting(false);
    }
  }

  return (
    <div>
      <PageHeader title="Amazon Import" description="Import best-selling pet products into the catalogue." back={{ href: adminPaths.dashboard, label: "Dashboard" }} />
      <div className="grid max-w-3xl gap-6">
        <Card aria-labelledby="import-heading">
          <h2 id="import-heading" className="text-lg font-semibold text-slate-900">
            Import best sellers
          </h2>
          <div className="mt-2 grid gap-2 text-sm text-slate-700">
            <p>
              Reads the best-selling pet products from the configured product source (the Amazon product API, or an affiliate product feed) and adds each one with its name, brand,
              image, description, barcode and current price (feeds carry no ratings, so none are made up).
            </p>
            <ul className="list-disc space-y-1 pl-5">
              <li>The marketplace (Amazon) becomes each new product's primary retailer, with the product's link and price.</li>
              <li>The first {featuredPerImport} imported products are marked featured.</li>
              <li>Products already in the catalogue are skipped, never overwritten.</li>
            </ul>
          </div>
          <button type="button" className="btn-primary mt-4" onClick={runImport} disabled={importing}>
            {importing ? <LoaderCircle className="size-4 animate-spin" aria-hidden="true" /> : <Import className="size-4" aria-hidden="true" />}
            {importing ? "Importing..." : "Import Products"}
          </button>
        </Card>

        {importing && run && (
          <Card aria-labelledby="import-progress-heading">
            <h2 id="import-progress-heading" className="mb-3 text-lg font-semibold text-slate-900">
              Importing
            </h2>
            <RunProgress run={run} />
          </Card>
        )}
        {outcome && <ImportResults outcome={outcome} />}
      </div>
    </div>
  );
}

function ImportResults({ outcome }: { outcome: Outcome }) {
  return (
    <Card aria-labelledby="import-results-heading" data-testid="import-results">
      <h2 id="import-results-heading" className="text-lg font-semibold text-slate-900">
        Import Results
      </h2>
      {outcome.kind === "failed" ? (
        <div role="alert" className="mt-3 flex gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-semibold">Import Failed</p>
            <p className="mt-0.5 break-words">{outcome.message}</p>
          </div>
        </div>
      ) : (
        <>
          <ImportSummary result={outcome.result} />
          <NextSteps />
        </>
      )}
    </Card>
  );
}

function ImportSummary({ result }: { result: ImportResult }) {
  const skipped = skippedList(result);
  return (
    <>
      <p className="mt-1 text-sm text-slate-600">Source: {result.source.label}</p>
      <dl className="mt-4 grid grid-cols-2 gap-3" data-testid="import-counts">
        <div className="rounded-lg bg-emerald-50 p-3">
          <dt className="text-sm text-emerald-900">Imported</dt>
          <dd className="text-2xl font-bold text-emerald-900 tabular-nums">{result.success.toLocaleString("en-GB")}</dd>
        </div>
        <div className="rounded-lg bg-slate-100 p-3">
          <dt className="text-sm text-slate-700">Skipped</dt>
          <dd className="text-2xl font-bold text-slate-900 tabular-nums">{result.skipped.toLocaleString("en-GB")}</dd>
        </div>
      </dl>
      {skipped.shown.length > 0 && (
        <>
          <h3 className="mt-4 text-sm font-semibold text-slate-800">Skipped products</h3>
          <ul className="mt-2 grid gap-1 text-sm text-slate-700" data-testid="import-skipped">
            {skipped.shown.map((message, index) => (
              <li key={index} className="rounded-md bg-amber-50 px-3 py-1.5 break-words text-amber-950">
                {message}
              </li>
            ))}
            {skipped.more && <li className="px-3 py-1.5 text-slate-600">{skipped.more}</li>}
          </ul>
        </>
      )}
    </>
  );
}

function NextSteps() {
  const link = "font-medium text-brand-700 hover:underline";
  return (
    <>
      <h3 className="mt-5 text-sm font-semibold text-slate-800">Next steps</h3>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>
          <AdminLink href={adminPaths.products} className={link}>
            Review the imported products
          </AdminLink>
          : check their categories, descriptions and images, and choose which are featured.
        </li>
        <li>Add offers from other retailers to each product, so shoppers can compare prices.</li>
        <li>
          <AdminLink href={adminPaths.priceReview} className={link}>
            Check prices held for review
          </AdminLink>{" "}
          after the next price refresh.
        </li>
      </ol>
      <h3 className="mt-5 text-sm font-semibold text-slate-800">Notes</h3>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-600">
        <li>Importing again is safe: products that already exist are skipped.</li>
        <li>Prices from the feed are checked again every night.</li>
        <li>A price that jumps far from the published one is held for review instead of being published.</li>
      </ul>
    </>
  );
}
