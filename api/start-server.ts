/**
 * The server of `npm start` (api/server.ts): migrate the database, seed it when empty, build the
 * site when no release exists, then serve the API and the built site on one port; catalogue
 * changes rebuild the site. Browser tests start it with a page reader allowed to read fixture
 * pages on loopback (the only option they pass); `npm start` passes nothing.
 */
import { serveApi } from "./lib/fast-reads.ts";
import { createApp } from "./app.ts";
import { createSiteRebuilder } from "./jobs/site-rebuild.ts";
import { createServices, type ServicesOptions } from "./services.ts";
import { createReleaseStore, releasesDirFromEnv } from "./site-releases.ts";
import { alertCheckIntervalMinutes, databasePath, serverHost, serverPort } from "../data/config.ts";

export async function startServer(options: Pick<ServicesOptions, "pageReader"> = {}): Promise<void> {
  const file = databasePath();
  // Price alerts: checked at start, on a schedule (ALERT_CHECK_INTERVAL_MINUTES, default 60), after
  // catalogue changes and whenever a visitor sets an alert. Other processes' writes (npm run seed,
  // imports) are noticed within 2 s. API_CACHE=off serves every read from the database.
  const services = await createServices({
    ...options,
    databaseFile: file,
    cache: process.env.API_CACHE !== "off",
    alertIntervalMinutes: alertCheckIntervalMinutes(),
    watchMs: 2000,
  });
  if (services.seeded) console.log(`Seeded the catalogue into ${file}`);
  if (services.adminPassword.password !== undefined) {
    // Shown this once; only its hash is stored.
    console.log(
      [
        "",
        "  Admin password (generated on first start, shown only now):",
        `    ${services.adminPassword.password}`,
        "  Sign in at /admin/login. Change it with `npm run admin:password`, or set ADMIN_PASSWORD_HASH.",
        "",
      ].join("\n"),
    );
  }

  // The site is served from the current release in SITE_RELEASES_DIR (default releases/). Without
  // one, the first build starts at once and the site answers 503 until it is done; after that,
  // catalogue changes rebuild what they affect. SITE_BUILD=never: serve the API (and whatever
  // release exists) without building, e.g. for benchmarks.
  const releasesDir = releasesDirFromEnv();
  const rebuilder = process.env.SITE_BUILD === "never" ? null : createSiteRebuilder({ db: services.db, databaseFile: file, releasesDir });
  const site = rebuilder ?? createReleaseStore(releasesDir);
  // Catalogue changes (admin writes, other processes' writes) now rebuild the pages they affect.
  if (rebuilder) services.attachSite(rebuilder);

  console.log(`Price alert e-mails: ${services.mailer.describe === "smtp" ? "sent over SMTP" : "written to the outbox folder (no SMTP_URL)"}`);

  const port = serverPort();
  const app = createApp(services.context, { siteRoot: () => site.currentRoot() });
  const server = serveApi(app, services.context, { port, hostname: serverHost(), silent: true });
  await server.ready();
  console.log(`PawPrice is running at http://localhost:${port}`);

  const shutdown = async () => {
    await server.close();
    await rebuilder?.stop();
    await services.close();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
