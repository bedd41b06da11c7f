/**
 * Structured logs: one JSON line per event (pino), on stdout. LOG_LEVEL (default "info") sets the
 * least severe line written: "info" has a line per request and per job run, "warn" only problems,
 * "silent" nothing (tests). The human lines a start prints (the address, a generated admin
 * password) stay plain text before the first JSON line.
 */
import { pino, type DestinationStream, type Logger } from "pino";
import { logLevel, type LogLevel } from "../../data/config.ts";

export type { Logger };

export interface LoggerOptions {
  /** Default LOG_LEVEL. */
  level?: LogLevel;
  /** Where lines go (default stdout); tests pass a stream that keeps them. */
  destination?: DestinationStream;
}

/**
 * Stdout, written in batches: lines gather in memory up to 4 KB and go out in one write, or
 * within a second when fewer come. A write per line cost the server more CPU than answering a
 * cached page. Whatever waits is written when the process exits (pino flushes it then).
 */
function batchedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const flush = () => {
    try {
      stream.flush();
    } catch {
      clearInterval(timer); // the stream has ended (the process is exiting)
    }
  };
  const timer = setInterval(flush, 1000);
  timer.unref();
  return stream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const settings = { level: options.level ?? logLevel(), timestamp: pino.stdTimeFunctions.isoTime };
  return pino(settings, options.destination ?? batchedStdout());
}

/** A logger that writes nothing. */
export const silentLogger = (): Logger => createLogger({ level: "silent" });
