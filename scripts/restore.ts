/**
 * Restores a backup into the database (data/db/backup.ts):
 *
 *   node scripts/restore.ts <backup file>
 *
 * The file is refused when it fails SQLite's integrity check, is not a PawPrice catalogue or was
 * written by newer code; nothing changes then. Otherwise the current database is first backed up
 * into BACKUP_DIR (pawprice-before-restore-<UTC time>.db), then the file, brought up to this
 * code's migrations, is copied in through SQLite's online backup API. That is safe with the
 * server running: its connections see the old or the restored database, never a mix, and it
 * takes the restore for a catalogue change (caches dropped, every page rebuilt) within 2 s.
 *
 * Exit codes: 0 restored, 1 refused or failed (nothing restored), 2 bad arguments.
 */
import path from "node:path";
import { backupConfig, databasePath } from "../data/config.ts";
import { restoreDatabase } from "../data/db/backup.ts";
import { runCommand, UsageError } from "./cli.ts";

async function restore(file: string): Promise<number> {
  const database = databasePath();
  const { before } = await restoreDatabase(database, file, { dir: backupConfig().dir });
  if (before) console.log(`Backed up the current database to ${before.file}`);
  console.log(`Restored ${file} into ${database}`);
  return 0;
}

const usage = "Usage: node scripts/restore.ts <backup file>   (npm run restore -- <backup file>)";
process.exitCode = await runCommand(
  "restore",
  usage,
  (argv) => {
    if (argv.includes("--help") || argv.includes("-h")) return "help";
    if (argv.length !== 1) throw new UsageError(argv.length === 0 ? "name the backup file to restore" : `unexpected argument "${argv[1]}"`);
    if (argv[0]!.startsWith("-")) throw new UsageError(`unknown option "${argv[0]}"`);
    return path.resolve(argv[0]!);
  },
  restore,
);
