/**
 * `npm start`: migrate the database, seed it when empty, and serve the API on one port.
 */
import { serve } from "h3";
import { createApp } from "./app.ts";
import { databasePath, serverHost, serverPort } from "../data/config.ts";
import { migrateDb, openDb } from "../data/db/client.ts";
import { ensureSeeded } from "../data/db/seed.ts";

const file = databasePath();
const db = openDb(file);
migrateDb(db);
if (ensureSeeded(db)) console.log(`Seeded the catalogue into ${file}`);

const port = serverPort();
const server = serve(createApp({ db }), { port, hostname: serverHost(), silent: true });
await server.ready();
console.log(`PawPrice is running at http://localhost:${port}`);

const shutdown = async () => {
  await server.close();
  db.$client.close();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
