/**
 * `npm run build`: make sure the database is migrated and seeded, then build the static site
 * into dist/site (or BUILD_OUT_DIR).
 */
import path from "node:path";
import { buildSite, defaultSiteDir } from "../api/site-build.ts";
import { databasePath } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { ensureSeeded } from "../data/db/seed.ts";

const file = databasePath();
const db = openDb(file);
await migrateDb(db);
ensureSeeded(db);
db.$client.close();

const outDir = process.env.BUILD_OUT_DIR ? path.resolve(process.env.BUILD_OUT_DIR) : defaultSiteDir;
const result = await buildSite({ databaseFile: file, outDir });
console.log(result.ok ? `Built ${outDir} in ${(result.durationMs / 1000).toFixed(1)} s` : "Build failed");
process.exit(result.ok ? 0 : 1);
