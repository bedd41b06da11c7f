/**
 * `npm start`: migrate the database, seed it when empty, build the site when no build exists,
 * then serve the API and the built site on one port.
 */
import fs from "node:fs";
import path from "node:path";
import { serve } from "h3";
import { createApp } from "./app.ts";
import { createServices } from "./services.ts";
import { buildSite, defaultSiteDir } from "./site-build.ts";
import { alertCheckIntervalMinutes, databasePath, serverHost, serverPort } from "../data/config.ts";

const file = databasePath();
// Price alerts: checked at start, on a schedule (ALERT_CHECK_INTERVAL_MINUTES, default 60), after
// catalogue changes and whenever a visitor sets an alert. Other processes' writes (npm run seed,
// imports) are noticed within 2 s. API_CACHE=off serves every read from the database.
const services = await createServices({
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

const siteDir = process.env.SITE_DIR ? path.resolve(process.env.SITE_DIR) : defaultSiteDir;
// SITE_BUILD=never: serve the API (and whatever build exists) without building, e.g. for benchmarks.
if (process.env.SITE_BUILD !== "never" && !fs.existsSync(path.join(siteDir, "index.html"))) {
  console.log("No site build found: building the site (this takes a moment the first time)...");
  const result = await buildSite({ databaseFile: file, outDir: siteDir, quiet: true });
  if (!result.ok) {
    console.error(result.log);
    console.error("The site build failed; the API is still served.");
  } else {
    console.log(`Built the site in ${(result.durationMs / 1000).toFixed(1)} s`);
  }
}

console.log(`Price alert e-mails: ${services.mailer.describe === "smtp" ? "sent over SMTP" : "written to the outbox folder (no SMTP_URL)"}`);

const port = serverPort();
const app = createApp(services.context, { siteRoot: () => (fs.existsSync(siteDir) ? siteDir : null) });
const server = serve(app, { port, hostname: serverHost(), silent: true });
await server.ready();
console.log(`PawPrice is running at http://localhost:${port}`);

const shutdown = async () => {
  await server.close();
  await services.close();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
