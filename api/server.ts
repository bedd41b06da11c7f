/**
 * `npm start`: migrate the database, seed it when empty, build the site when no release exists,
 * then serve the API and the built site on one port; catalogue changes rebuild the site.
 * A start-up problem a person can fix is printed as one line naming the fix (exit code 1).
 */
import { startServer } from "./start-server.ts";
import { StartupError } from "./startup-check.ts";

try {
  await startServer();
} catch (error) {
  if (!(error instanceof StartupError)) throw error;
  console.error(`PawPrice could not start: ${error.message}`);
  process.exit(1);
}
