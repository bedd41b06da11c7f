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

export function createLogger(options: LoggerOptions = {}): Logger {
  const settings = { level: options.level ?? logLevel(), timestamp: pino.stdTimeFunctions.isoTime };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

/** A logger that writes nothing. */
export const silentLogger = (): Logger => createLogger({ level: "silent" });
