/**
 * Backs the database up now, as the server's scheduled backup does (data/db/backup.ts): a
 * consistent copy even while the server writes, into BACKUP_DIR (default data/backups) as
 * pawprice-<UTC time>.db, keeping the newest BACKUP_KEEP (default 14).
 *
 *   node scripts/backup.ts
 *
 * Prints the backup's path. Exit codes: 0 done, 1 failed, 2 bad arguments.
 */
import fs from "node:fs";
import { backupConfig, databasePath } from "../data/config.ts";
import { backupDatabase } from "../data/db/backup.ts";
import { openDb } from "../data/db/client.ts";
import { runCommand, UsageError } from "./cli.ts";

async function backup(): Promise<number> {
  const file = databasePath();
  if (!fs.existsSync(file)) throw new Error(`There is no database at ${file} to back up`);
  const { dir, keep } = backupConfig();
  const db = openDb(file);
  try {
    const taken = await backupDatabase(db, { dir, keep });
    console.log(`Backed up ${file} to ${taken.file} (${taken.bytes} bytes)`);
    if (taken.deleted.length > 0) console.log(`Deleted ${taken.deleted.length} older backup(s), keeping the newest ${keep}`);
    return 0;
  } finally {
    db.$client.close();
  }
}

const usage = "Usage: node scripts/backup.ts (no arguments; BACKUP_DIR and BACKUP_KEEP set where and how many)";
process.exitCode = await runCommand("backup", usage, (argv) => {
  if (argv.includes("--help") || argv.includes("-h")) return "help";
  if (argv.length > 0) throw new UsageError(`unexpected argument "${argv[0]}"`);
}, backup);
