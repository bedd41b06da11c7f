/**
 * Runs the nightly job on the live server and follows it to its end: starts a run with a machine
 * token, prints each step as it starts and then the run's summary, and with --out downloads the
 * site the server built. What the nightly workflow runs; nothing is read or written locally but
 * the downloaded file.
 *
 *   PAWPRICE_URL=https://pawprice.co.uk PAWPRICE_TOKEN=ppm_... npm run nightly:remote -- --out site.tar.gz
 *
 * A failed poll (the server restarting, a network blip) is retried until the timeout. The token is
 * never printed. Exit codes: 0 the run succeeded (and the site was saved), 1 the run failed, timed
 * out or the server refused, 2 bad arguments or a missing setting.
 */
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream } from "node:stream/web";
import { isFinished } from "../data/domain/feed-sources.ts";
import { machineTokenPattern } from "../data/domain/machine-tokens.ts";
import { nightlyStepLabels, nightlySteps, nightlySummaryLines, type NightlyRun, type NightlyStep } from "../data/domain/nightly.ts";
import { parseOptions, runCommand, UsageError } from "./cli.ts";

const usage = `Usage: npm run nightly:remote -- [--out site.tar.gz] [--poll-ms 5000] [--timeout-minutes 120]
  Starts the nightly job on the live server, follows it, prints its summary.
  --out FILE              download the built site (a .tar.gz) when the run has succeeded
  --poll-ms N             how often to ask how the run is going (default 5000)
  --timeout-minutes N     give up waiting after this long (default 120; the run goes on)
  Settings: PAWPRICE_URL (the live server's address), PAWPRICE_TOKEN (a machine token with
  nightly:run, and releases:read for --out; create one in the admin under Machine tokens).`;

interface Args {
  baseUrl: string;
  token: string;
  out: string | null;
  pollMs: number;
  timeoutMs: number;
}

function wholeNumber(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max) throw new UsageError(`--${name} must be a number from ${min} to ${max}, got "${raw}"`);
  return value;
}

function parse(argv: string[]): Args | "help" {
  const values = parseOptions(argv, {
    out: { type: "string" },
    "poll-ms": { type: "string" },
    "timeout-minutes": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return "help";
  const baseUrl = process.env.PAWPRICE_URL?.trim();
  if (!baseUrl) throw new UsageError("PAWPRICE_URL is not set (the live server's address, e.g. https://pawprice.co.uk)");
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new UsageError("PAWPRICE_URL is not a URL (e.g. https://pawprice.co.uk)");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new UsageError("PAWPRICE_URL must be an http or https address");
  const token = process.env.PAWPRICE_TOKEN?.trim();
  if (!token) throw new UsageError("PAWPRICE_TOKEN is not set (create a machine token in the admin under Machine tokens)");
  if (!machineTokenPattern.test(token)) throw new UsageError("PAWPRICE_TOKEN is not a machine token (they start with ppm_; create one in the admin under Machine tokens)");
  if (values.out !== undefined && values.out.trim() === "") throw new UsageError("--out needs a file name");
  return {
    baseUrl: baseUrl.replace(/\/+$/, ""),
    token,
    out: values.out ?? null,
    pollMs: wholeNumber("poll-ms", values["poll-ms"], 5000, 100, 600_000),
    timeoutMs: wholeNumber("timeout-minutes", values["timeout-minutes"], 120, 0.1, 24 * 60) * 60_000,
  };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The server's `{ error }`, else the status. */
async function refusal(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const { error } = JSON.parse(text) as { error?: unknown };
    if (typeof error === "string") return `${response.status}: ${error}`;
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  return `${response.status} ${response.statusText}`.trim();
}

async function run(args: Args): Promise<number> {
  const headers = { authorization: `Bearer ${args.token}`, accept: "application/json" };
  const url = (path: string) => args.baseUrl + path;

  const started = await fetch(url("/api/machine/nightly"), { method: "POST", headers, signal: AbortSignal.timeout(60_000) });
  if (started.status !== 202) {
    console.error(`nightly:remote: the server did not start the run (${await refusal(started)})`);
    return 1;
  }
  const { id, status } = (await started.json()) as { id: number; status: string };
  console.log(status === "queued" ? `Nightly run ${id} queued` : `Nightly run ${id} is ${status} already: following it`);

  const deadline = Date.now() + args.timeoutMs;
  let shownSteps = 0;
  let lastStatus = status;
  let current: NightlyRun | null = null;
  for (;;) {
    try {
      const response = await fetch(url(`/api/machine/nightly/${id}`), { headers, signal: AbortSignal.timeout(60_000) });
      if (response.ok) current = (await response.json()) as NightlyRun;
      else if (response.status < 500) {
        console.error(`nightly:remote: could not follow run ${id} (${await refusal(response)})`);
        return 1;
      } else console.log(`  (the server answered ${await refusal(response)}; asking again)`);
    } catch (error) {
      console.log(`  (could not reach the server: ${message(error)}; asking again)`);
    }
    if (current) {
      if (current.status !== lastStatus && current.status === "running") console.log(`Nightly run ${id} running`);
      lastStatus = current.status;
      // Every step up to the current one has started, also those begun and ended between two polls.
      const reached = current.step === null ? 0 : nightlySteps.indexOf(current.step as NightlyStep) + 1;
      for (; shownSteps < reached; shownSteps++) console.log(`  Step: ${nightlyStepLabels[nightlySteps[shownSteps]!]}`);
      if (isFinished(current.status)) break;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      console.error(`nightly:remote: run ${id} has not finished after ${Math.round(args.timeoutMs / 60_000)} minutes; stopped waiting (it goes on on the server)`);
      return 1;
    }
    await sleep(Math.min(args.pollMs, left));
  }

  const lines = nightlySummaryLines(current.summary);
  if (lines.length > 0) console.log(["Summary:", ...lines.map((line) => `  ${line}`)].join("\n"));
  if (current.status === "failed") {
    console.error(`nightly:remote: run ${id} failed: ${current.error ?? "no reason given"}`);
    return 1;
  }
  console.log(`Nightly run ${id} succeeded${current.releaseId ? `: release ${current.releaseId}` : ""}`);
  if (args.out === null) return 0;

  const download = await fetch(url("/api/machine/releases/current.tar.gz"), { headers: { authorization: headers.authorization } });
  if (!download.ok || !download.body) {
    console.error(`nightly:remote: could not download the site (${await refusal(download)})`);
    return 1;
  }
  const name = /filename="([^"]+)"/.exec(download.headers.get("content-disposition") ?? "")?.[1] ?? "the site";
  const partial = `${args.out}.part`;
  try {
    await pipeline(Readable.fromWeb(download.body as ReadableStream<Uint8Array>), fs.createWriteStream(partial));
    fs.renameSync(partial, args.out);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  console.log(`Saved ${name} (${(fs.statSync(args.out).size / 1024 / 1024).toFixed(1)} MB) to ${args.out}`);
  return 0;
}

process.exitCode = await runCommand("nightly:remote", usage, parse, run);
