/**
 * The limit the server is measured against (scripts/bench-pages.ts, scripts/bench-api.ts): a bare
 * node:http server in a process of its own, sending recorded answers (the headers and the bytes
 * as the real server sent them) with no routing beyond a Map lookup by URL. Also what both
 * benchmarks measure with: an answer recorded as sent, a process's CPU time, and autocannon runs
 * timed by the serving process's CPU.
 *
 * Run as a script: `node scripts/bench-bare.ts <answers.json>` serves the answers in that file and
 * prints "running at <port>".
 */
import autocannon from "autocannon";
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface RecordedAnswer {
  path: string;
  headers: [string, string][];
  /** The body as sent (compressed when it was), base64. */
  body: string;
}

/** Headers the HTTP server writes per connection or per answer (the bare server writes its own). */
const transportHeaders = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

/** An answer as sent: status, headers (less the transport ones) and the body's bytes, not decoded. */
export function recordAnswer(baseUrl: string, pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; answer: RecordedAnswer }> {
  return new Promise((resolve, reject) => {
    http
      .get(baseUrl + pathname, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const kept = Object.entries(response.headers)
            .filter(([name]) => !transportHeaders.has(name))
            .map(([name, value]) => [name, String(value)] as [string, string]);
          resolve({ status: response.statusCode!, answer: { path: pathname, headers: kept, body: Buffer.concat(chunks).toString("base64") } });
        });
      })
      .on("error", reject);
  });
}

export interface BareServer {
  port: number;
  pid: number;
  stop(): void;
}

/** Starts the bare server over `answers` (their file written into `dir`). */
export async function startBareServer(answers: RecordedAnswer[], dir: string): Promise<BareServer> {
  const file = path.join(dir, "answers.json");
  fs.writeFileSync(file, JSON.stringify(answers));
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), file], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the bare server exited with ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /running at (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  return { port, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}

const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;

/** A process's CPU time so far (user + system, all its threads), in ms. */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface CpuRun {
  /** The serving process's CPU time per request, µs. */
  cpuUs: number;
  requestsPerSecond: number;
  p99Ms: number;
  result: autocannon.Result;
}

/**
 * One autocannon run against `url` (after `warmupSeconds` of the same load, not counted), with the
 * CPU time the process `pid` spent per request during the counted run. Any error or non-2xx
 * answer fails the run.
 */
export async function loadWithCpu(
  url: string,
  pid: number,
  options: { connections: number; seconds: number; warmupSeconds?: number; headers?: Record<string, string> },
): Promise<CpuRun> {
  const load = { url, connections: options.connections, headers: options.headers };
  if (options.warmupSeconds) await autocannon({ ...load, duration: options.warmupSeconds });
  const before = cpuMs(pid);
  const result = await autocannon({ ...load, duration: options.seconds });
  const cpuUs = ((cpuMs(pid) - before) * 1000) / result.requests.total;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { cpuUs, requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, result };
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: bench-bare.ts <answers.json>");
  const answers = new Map(
    (JSON.parse(fs.readFileSync(file, "utf8")) as RecordedAnswer[]).map((answer) => {
      const body = Buffer.from(answer.body, "base64");
      return [answer.path, { headers: [...answer.headers.flat(), "content-length", String(body.length)], body }];
    }),
  );
  const server = http.createServer((req, res) => {
    const answer = answers.get(req.url ?? "");
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, answer.headers);
    res.end(answer.body);
  });
  server.listen(0, "127.0.0.1", () => console.log(`running at ${(server.address() as { port: number }).port}`));
}
