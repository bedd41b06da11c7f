/**
 * `npm run test:mutation`: runs Stryker (scripts/stryker.config.mjs, incremental), then prints the
 * mutation score of each folder against its target and lists the mutants no test noticed.
 * Survivors that are equivalent mutants (no test could notice them: the program behaves the same)
 * are listed with a reason in the config's `equivalentMutants` and left out of the score.
 * Exits non-zero when a folder misses its target.
 *
 * Options: --report-only   summarise the last report without running Stryker
 *          anything else    passed to Stryker (e.g. --mutate data/domain/offers.ts)
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import zlib from "node:zlib";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { projectRoot } from "../data/config.ts";

/** A surviving mutant that no test can catch, as listed in the Stryker config with its reason. */
interface EquivalentMutant {
  file: string;
  mutator: string;
  /** The code the mutant replaces (white space does not matter). */
  original: string;
  /** The replacement, when the same code has other mutants that must still be caught. */
  replacement?: string;
  /** The whole source line the mutant starts on, when the code alone occurs in more than one place. */
  line?: string;
  reason: string;
}

const configFile = path.join(projectRoot, "scripts/stryker.config.mjs");
const { equivalentMutants } = (await import(pathToFileURL(configFile).href)) as { equivalentMutants: EquivalentMutant[] };

// Everything but --report-only goes to Stryker as it is (e.g. --mutate data/domain/offers.ts).
const args = process.argv.slice(2);
const reportOnly = args.includes("--report-only");
const strykerArgs = args.filter((arg) => arg !== "--report-only");

/** Folders and the share of their mutants the tests must catch. */
const targets: { folder: string; prefixes: string[]; target: number }[] = [
  { folder: "data/domain", prefixes: ["data/domain/"], target: 90 },
  { folder: "data/db", prefixes: ["data/db/"], target: 90 },
  { folder: "api", prefixes: ["api/"], target: 90 },
];

interface ReportMutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface Report {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
}

const reportFile = path.join(projectRoot, "reports/mutation/mutation.json");

/**
 * Stryker's incremental results: committed gzipped (10 MB of JSON would otherwise match every grep
 * of the sources), unpacked where Stryker reads them for a run and packed back after it.
 */
const incrementalPacked = path.join(projectRoot, "scripts/mutation/incremental.json.gz");
const incrementalFile = path.join(projectRoot, "reports/mutation/incremental.json");

if (!reportOnly) {
  if (fs.existsSync(incrementalPacked)) {
    fs.mkdirSync(path.dirname(incrementalFile), { recursive: true });
    fs.writeFileSync(incrementalFile, zlib.gunzipSync(fs.readFileSync(incrementalPacked)));
  }
  const stryker = path.join(projectRoot, "node_modules/@stryker-mutator/core/bin/stryker.js");
  const run = spawnSync(process.execPath, [stryker, "run", "scripts/stryker.config.mjs", ...strykerArgs], { cwd: projectRoot, stdio: "inherit" });
  // Packed back even after a failed run: the mutants it did test need not be tested again.
  if (fs.existsSync(incrementalFile)) fs.writeFileSync(incrementalPacked, zlib.gzipSync(fs.readFileSync(incrementalFile), { level: 9 }));
  if (run.status !== 0) process.exit(run.status ?? 1);
}

const report = JSON.parse(fs.readFileSync(reportFile, "utf8")) as Report;

/** The code a mutant replaced, as written in the source. */
function original(source: string, { start, end }: ReportMutant["location"]): string {
  const lines = source.split("\n");
  if (start.line === end.line) return lines[start.line - 1]!.slice(start.column - 1, end.column - 1);
  return [lines[start.line - 1]!.slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1]!.slice(0, end.column - 1)].join("\n");
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();
const matches = (entry: EquivalentMutant, file: string, source: string, mutant: ReportMutant, code: string) =>
  entry.file === file &&
  entry.mutator === mutant.mutatorName &&
  squash(entry.original) === squash(code) &&
  (entry.replacement === undefined || squash(entry.replacement) === squash(mutant.replacement ?? "")) &&
  (entry.line === undefined || squash(entry.line) === squash(source.split("\n")[mutant.location.start.line - 1] ?? ""));

const used = new Set<EquivalentMutant>();
let failed = false;
const rows: Record<string, string | number>[] = [];
const survivors: string[] = [];

for (const { folder, prefixes, target } of targets) {
  let detected = 0;
  let undetected = 0;
  let equivalent = 0;
  for (const [name, file] of Object.entries(report.files)) {
    const relative = path.relative(projectRoot, path.resolve(projectRoot, name)).split(path.sep).join("/");
    if (!prefixes.some((prefix) => relative.startsWith(prefix))) continue;
    for (const mutant of file.mutants) {
      if (mutant.status === "Killed" || mutant.status === "Timeout") detected++;
      else if (mutant.status === "Survived" || mutant.status === "NoCoverage") {
        const code = original(file.source, mutant.location);
        const known = equivalentMutants.find((entry) => matches(entry, relative, file.source, mutant, code));
        if (known) {
          equivalent++;
          used.add(known);
          continue;
        }
        undetected++;
        const where = `${relative}:${mutant.location.start.line}:${mutant.location.start.column}`;
        survivors.push(`${mutant.status.padEnd(10)} ${where} ${mutant.mutatorName}: ${squash(code).slice(0, 90)} -> ${squash(mutant.replacement ?? "").slice(0, 60)}`);
      }
    }
  }
  const total = detected + undetected;
  const score = total === 0 ? 100 : Math.floor((detected / total) * 1000) / 10;
  if (score < target) failed = true;
  rows.push({ folder, score: `${score}%`, target: `${target}%`, detected, undetected, equivalent, result: score >= target ? "met" : "MISSED" });
}

if (survivors.length > 0) {
  console.log(`\nMutants no test noticed (${survivors.length}):`);
  for (const line of survivors) console.log(`  ${line}`);
}
const stale = equivalentMutants.filter((entry) => !used.has(entry));
if (stale.length > 0) {
  console.log("\nEquivalent-mutant entries that matched no surviving mutant (killed now, or the code moved): remove or update them");
  for (const entry of stale) console.log(`  ${entry.file} ${entry.mutator}: ${entry.original}`);
}
console.log("\nMutation score per folder (detected / (detected + undetected); equivalent mutants left out)");
console.table(rows);
console.log(`HTML report: ${path.relative(projectRoot, reportFile.replace(/\.json$/, ".html"))}`);
if (failed) process.exit(1);
