/**
 * The price refresh: feeds first, retailer pages for the rest, through the catalogue writer (see
 * api/jobs/price-refresh.ts), then one price-alert check. A running server notices the write and
 * rebuilds the pages once.
 *
 *   npm run refresh
 *
 * Shows a progress bar on a terminal and plain lines otherwise (CI). Prints and stores a summary
 * (checked, changed, held, failed, not modified, blocked by robots.txt, backed off, duration) for
 * Platform Health. Exit codes: 0 done (some
 * offers may have failed), 1 everything failed or the refresh could not run, 2 bad arguments.
 */
import { databasePath, pricePipelineConfig } from "../data/config.ts";
import { refreshPrices } from "../api/jobs/price-refresh.ts";
import { checkAlerts } from "../api/jobs/alert-check.ts";
import { createPageReader } from "../api/lib/page-price.ts";
import { createMailer } from "../api/mail/mailer.ts";
import { productSources } from "../api/product-sources.ts";
import { runCommand, UsageError, withDatabase } from "./cli.ts";

/** A one-line bar redrawn in place on a terminal; every 10% a plain line elsewhere. */
function progressPrinter(): (done: number, total: number) => void {
  const tty = process.stdout.isTTY === true;
  let lastTenth = -1;
  return (done, total) => {
    const fraction = total === 0 ? 1 : done / total;
    if (tty) {
      const width = 30;
      const filled = Math.round(fraction * width);
      process.stdout.write(`\r  [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} pages`);
      if (done === total) process.stdout.write("\n");
      return;
    }
    const tenth = Math.floor(fraction * 10);
    if (tenth !== lastTenth) {
      lastTenth = tenth;
      console.log(`  ${done}/${total} pages read`);
    }
  };
}

async function run(): Promise<number> {
  const config = pricePipelineConfig();
  return withDatabase(databasePath(), async (db) => {
    const feeds = [...productSources().values()].flatMap((source) => (source.kind === "feed" && source.refresh ? [{ name: source.name, open: source.open }] : []));
    const summary = await refreshPrices({
      db,
      feeds,
      reader: createPageReader(),
      concurrency: config.concurrency,
      hostDelayMs: config.hostDelayMs,
      policy: config.holdPolicy,
      freshForMs: config.freshForMs,
      log: (line) => console.log(line),
      onProgress: progressPrinter(),
    });
    for (const failure of summary.failures.slice(0, 20)) console.log(`  not read: ${failure}`);
    console.log(
      `Price refresh ${summary.result}: ${summary.checked} checked, ${summary.changed} changed, ${summary.held} held for review, ` +
        `${summary.failed} failed, ${summary.notModified} not modified (304), ${summary.blocked} blocked by robots.txt, ` +
        `${summary.backedOff} backed off (the site asked us to wait), ${summary.stale} marked stale, in ${(summary.durationMs / 1000).toFixed(1)} s`,
    );
    if (summary.change.productIds.length > 0) {
      const alerts = await checkAlerts({ db, mailer: createMailer() });
      console.log(`Price alerts: ${alerts.sent} sent, ${alerts.failed} failed`);
    }
    return summary.result === "failed" ? 1 : 0;
  });
}

const usage = "Usage: npm run refresh (no arguments; settings: REFRESH_CONCURRENCY, REFRESH_HOST_DELAY_MS, PRICE_HOLD_BELOW, PRICE_HOLD_ABOVE, AWIN_FEED_URL)";
process.exitCode = await runCommand("refresh", usage, (argv) => {
  if (argv.includes("--help") || argv.includes("-h")) return "help";
  if (argv.length > 0) throw new UsageError(`unexpected argument "${argv[0]}"`);
}, run);
