/**
 * `npm run build`: make sure the database is migrated and seeded, then build the whole static
 * site into a new release in SITE_RELEASES_DIR (default releases/) and swap it in, exactly as the
 * server's rebuilds do: a running server serves the new release from its next request, and a
 * failed build leaves the served one as it was. Old releases are deleted afterwards (the last 3
 * are kept).
 */
import { buildRelease } from "../api/jobs/site-rebuild.ts";
import { createAstroBuilder } from "../api/site-build/builder.ts";
import { createReleaseStore, releasesDirFromEnv } from "../api/site-build/releases.ts";
import { databasePath } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { ensureSeeded } from "../data/db/seed.ts";

const db = openDb(databasePath());
await migrateDb(db);
ensureSeeded(db);

const store = createReleaseStore(releasesDirFromEnv());
const builder = createAstroBuilder({ keepWarm: false });
const { ok } = await buildRelease({ db, store, builder, log: console.log }, "full");
if (ok) {
  console.log(`Serving ${store.currentRoot()}`);
  await store.cleanup(3);
}
db.$client.close();
process.exit(ok ? 0 : 1);
