/** What the command-line entry points share: argument errors, exit codes and the database. */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { closeDb, migrateDb, openDb, type Db } from "../data/db/client.ts";

/** A bad command line: printed with the usage text, exit code 2. */
export class UsageError extends Error {}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Named options only (no positionals, unknown ones refused); a malformed command line is a UsageError. */
export function parseOptions<const Options extends ParseArgsOptionsConfig>(argv: string[], options: Options) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(message(error));
  }
}

/**
 * Runs a command: `parse` reads the arguments ("help" prints the usage), `run` does the work and
 * returns the exit code. Exit codes: 0 done, 1 failed, 2 bad arguments.
 */
export async function runCommand<Args>(
  name: string,
  usage: string,
  parse: (argv: string[]) => Args | "help",
  run: (args: Args) => Promise<number>,
): Promise<number> {
  let args: Args | "help";
  try {
    args = parse(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${name}: ${error.message}\n${usage}`);
    return 2;
  }
  if (args === "help") {
    console.log(usage);
    return 0;
  }
  try {
    return await run(args);
  } catch (error) {
    console.error(`${name}: failed: ${message(error)}`);
    return 1;
  }
}

/** Opens and migrates the database for `fn`, closing it afterwards whatever happens. */
export async function withDatabase<T>(file: string, fn: (db: Db) => Promise<T> | T): Promise<T> {
  const db = openDb(file);
  try {
    await migrateDb(db);
    return await fn(db);
  } finally {
    closeDb(db);
  }
}
