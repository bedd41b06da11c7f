/**
 * Structured logs: one JSON line per event (pino), on stdout. LOG_LEVEL (default "info") sets the
 * least severe line written: "info" has a line per request and per job run (a routine check's
 * successful runs only at "debug"), "warn" only problems,
 * "silent" nothing (tests). The human lines a start prints (the address, a generated admin
 * password) stay plain text before the first JSON line.
 *
 * The line written for every request is the costliest to make this way: `infoLines` writes it
 * from a prepared template instead (the same line pino writes, with only the varying parts filled
 * in), and stdout takes lines in batches.
 */
import fs from "node:fs";
import os from "node:os";
import { pino, type DestinationStream, type Logger } from "pino";
import { logLevel, type LogLevel } from "../../data/config.ts";

export type { Logger };

export interface LoggerOptions {
  /** Default LOG_LEVEL. */
  level?: LogLevel;
  /** Where lines go (default stdout); tests pass a stream that keeps them. */
  destination?: DestinationStream;
}

let timeSecond = Number.NaN;
let timeSecondText = "";

/**
 * A time as an ISO 8601 UTC text with milliseconds (what Date's toISOString gives). The text up to
 * the second is worked out once per second and the milliseconds added: a new Date and its text
 * for every line cost more than the rest of a request's line.
 */
export function isoTime(ms: number = Date.now()): string {
  const second = Math.floor(ms / 1000);
  if (second !== timeSecond) {
    timeSecond = second;
    timeSecondText = new Date(second * 1000).toISOString().slice(0, -4); // up to and with the "."
  }
  const rest = ms - second * 1000;
  return `${timeSecondText}${rest < 10 ? "00" : rest < 100 ? "0" : ""}${rest}Z`;
}

/** The `time` member of every line (pino's isoTime format). */
const timeMember = () => `,"time":"${isoTime()}"`;

/** Text written to a file descriptor in batches (the DestinationStream pino writes lines to). */
export interface BatchedLines extends DestinationStream {
  /** Writes what is waiting now; `done` runs after. */
  flush(done?: (error?: Error) => void): void;
  /** Writes what is waiting now (at exit). */
  flushSync(): void;
}

/** Lines a file has not taken for this long are dropped rather than kept in memory without end. */
export const maxUnwrittenBytes = 16 * 1024 * 1024;

/**
 * Lines gather in memory until they reach `minChars` characters and then go out in one write to
 * `fd` (a write per line cost the server more CPU than answering a cached page). The write is
 * synchronous, as Node writes to stdout on a pipe itself: handing a batch to a background thread
 * cost ten times the CPU of writing it. A file that takes only part of a batch, or none of it
 * for now (a full non-blocking pipe, EAGAIN), gets the rest with the next batch (up to 16 MB
 * waiting, then that is dropped); any other failure drops the batch: a log line is never worth
 * stopping the server.
 */
export function batchedLines(fd: number, minChars = 4096): BatchedLines {
  let waiting: string[] = [];
  let chars = 0;
  /** Bytes the file has not taken yet, written before anything else. */
  let unwritten: Buffer | null = null;

  const writeOut = () => {
    if (waiting.length > 0) {
      const bytes = Buffer.from(waiting.join(""));
      waiting = [];
      chars = 0;
      unwritten = unwritten ? Buffer.concat([unwritten, bytes]) : bytes;
    }
    while (unwritten) {
      const bytes: Buffer = unwritten;
      try {
        const written = fs.writeSync(fd, bytes);
        unwritten = written < bytes.length ? bytes.subarray(written) : null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN" || bytes.length > maxUnwrittenBytes) unwritten = null;
        return;
      }
    }
  };

  return {
    write(line: string) {
      waiting.push(line);
      chars += line.length;
      if (chars >= minChars) writeOut();
    },
    flush(done) {
      writeOut();
      done?.();
    },
    flushSync: writeOut,
  };
}

let stdoutLines: BatchedLines | null = null;

/**
 * Stdout for every logger of the process (one file, one order of lines): batches of 4 KB, or
 * within a second when fewer lines come. Whatever waits is written when the process exits.
 */
function batchedStdout(): BatchedLines {
  if (!stdoutLines) {
    const lines = batchedLines(1);
    setInterval(() => lines.flush(), 1000).unref();
    process.once("exit", () => lines.flushSync());
    stdoutLines = lines;
  }
  return stdoutLines;
}

/** What every line names first after its time (pino's usual: the process id and host name). */
const base = { pid: process.pid, hostname: os.hostname() };

/** The loggers made here and their destinations (written to directly by `infoLines`). */
const destinations = new WeakMap<Logger, DestinationStream>();

export function createLogger(options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? batchedStdout();
  const logger = pino({ level: options.level ?? logLevel(), timestamp: timeMember, base }, destination);
  destinations.set(logger, destination);
  return logger;
}

/** A logger that writes nothing. */
export const silentLogger = (): Logger => createLogger({ level: "silent" });

/**
 * Writes lines at level info with the message `message`: given the line's own members as JSON
 * text (`,"name":value` each, already escaped), writes the very line `logger.info(fields,
 * message)` writes (level, time, the logger's bindings, the members, the message), from a
 * template prepared once. Only for a logger made by createLogger; any other logger gets its
 * fields through logger.info. The caller checks that info is enabled.
 */
export function infoLines(logger: Logger, message: string): (members: string) => void {
  const destination = destinations.get(logger);
  if (!destination) return (members) => logger.info(JSON.parse(`{${members.slice(1)}}`) as object, message);
  const bindings = Object.entries(base)
    .map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`)
    .join("");
  const head = `{"level":${logger.levels.values.info},"time":"`;
  const end = `,"msg":${JSON.stringify(message)}}\n`;
  return (members) => destination.write(`${head}${isoTime()}"${bindings}${members}${end}`);
}
