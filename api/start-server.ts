/**
 * The server of `npm start` (api/server.ts): migrate the database, seed it when empty, build the
 * site when no release exists, then serve the API and the built site on one port; catalogue
 * changes rebuild the site. Browser tests start it with a page reader allowed to read fixture
 * pages on loopback (the only option they pass); `npm start` passes nothing.
 */
import { serveApi } from "./http/fast-reads.ts";
import { createApp } from "./app.ts";
import { createSiteRebuilder } from "./jobs/site-rebuild.ts";
import { createServices, type ServicesOptions } from "./services.ts";
import { createReleaseStore, releasesDirFromEnv } from "./site-build/releases.ts";
import { createSitePages } from "./http/site.ts";
import { alertCheckIntervalMinutes, databasePath, serverHost, serverPort, shutdownGraceMs } from "../data/config.ts";
import { checkIntegrity } from "../data/db/integrity.ts";
import { checkConfiguration, checkDatabaseFolder, explainDatabaseError, explainListenError } from "./startup-check.ts";
import { createLogger } from "./http/log.ts";

export async function startServer(options: Pick<ServicesOptions, "pageReader" | "feedAllowance" | "writeLimits"> = {}): Promise<void> {
  // Every setting is read before the database is touched; a bad one stops the start (StartupError).
  checkConfiguration();
  const file = databasePath();
  checkDatabaseFolder(file);
  // From here on the server logs JSON lines (LOG_LEVEL): a line per request and per job run.
  // The few lines a person reads at start (the address, a generated password) stay plain text.
  const logger = createLogger();
  // Price alerts: checked at start, on a schedule (ALERT_CHECK_INTERVAL_MINUTES, default 60), after
  // catalogue changes and whenever a visitor sets an alert. Other processes' writes (npm run seed,
  // imports) are noticed within 2 s. API_CACHE=off serves every read from the database.
  const services = await createServices({
    ...options,
    logger,
    databaseFile: file,
    cache: process.env.API_CACHE !== "off",
    alertIntervalMinutes: alertCheckIntervalMinutes(),
    watchMs: 2000,
    startJobs: false,
  }).catch((error: unknown) => {
    throw explainDatabaseError(error, file);
  });
  // A damaged file would serve failing reads: refuse to start on it.
  const integrity = checkIntegrity(services.db);
  if (integrity.state === "corrupt") {
    await services.close();
    throw explainDatabaseError(Object.assign(new Error(integrity.detail), { code: "SQLITE_CORRUPT" }), file);
  }
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
  // one, the first build starts at once and the site answers 503 until it is done. A release that
  // may be out of date (the last build was cut off or failed, or the catalogue has moved on since
  // it was built) is rebuilt in full at start and served meanwhile. After that, catalogue changes
  // rebuild what they affect. SITE_BUILD=never: serve the API (and whatever
  // release exists) without building, e.g. for benchmarks.
  const releasesDir = releasesDirFromEnv();
  const rebuilder =
    process.env.SITE_BUILD === "never"
      ? null
      : createSiteRebuilder({
          db: services.db,
          databaseFile: file,
          releasesDir,
          log: (line) => logger.info(line),
          onBuild: services.metrics.observeSiteBuild,
        });
  // Database snapshots that killed builds left are deleted at every start (the rebuilder does it when there is one).
  if (!rebuilder) createReleaseStore(releasesDir).removeLeftoverSnapshots();
  const site = rebuilder ?? createReleaseStore(releasesDir);
  // Catalogue changes (admin writes, other processes' writes) now rebuild the pages they affect.
  if (rebuilder) services.attachSite(rebuilder);

  console.log(`Price alert e-mails: ${services.mailer.describe === "smtp" ? "sent over SMTP" : "written to the outbox folder (no SMTP_URL)"}`);

  const port = serverPort();
  const siteRoot = () => site.currentRoot();
  // Pages are answered at the HTTP server, before the app (api/http/site.ts); both share what they keep.
  const sitePages = createSitePages(siteRoot);
  const app = createApp(services.context, { siteRoot, sitePages });
  const server = serveApi(app, services.context, { port, hostname: serverHost(), silent: true }, sitePages);
  await Promise.resolve(server.ready()).catch(async (error: unknown) => {
    await rebuilder?.stop();
    await services.close();
    throw explainListenError(error, port);
  });
  // The background jobs start once the server is listening: a start that fails runs none.
  services.schedule.start();
  console.log(`PawPrice is running at http://localhost:${port}`);

  // Shutdown lets requests under way finish, stops the build worker and the jobs, and closes the
  // database, but never waits forever: after the grace period (SHUTDOWN_GRACE_MS, default 10 s)
  // or on a second signal it exits at once. Whatever a stuck job had not committed is not lost
  // data: every write is one transaction, and an unfinished run is marked dead on the next start.
  const graceMs = shutdownGraceMs();
  let stopping = false;
  const shutdown = async () => {
    if (stopping) {
      logger.warn("Second stop signal: exiting now.");
      process.exit(1);
    }
    stopping = true;
    logger.info("Stopping: waiting for requests and jobs under way");
    setTimeout(() => {
      logger.warn(`Shutdown took longer than ${graceMs / 1000} s: exiting without waiting for the rest.`);
      process.exit(1);
    }, graceMs).unref();
    try {
      await server.close();
      await rebuilder?.stop();
      await services.close();
    } catch (error) {
      logger.error({ err: error }, "Shutdown failed");
      process.exit(1);
    }
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
