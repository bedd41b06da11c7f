/**
 * `npm start`: migrate the database, seed it when empty, build the site when no release exists,
 * then serve the API and the built site on one port; catalogue changes rebuild the site.
 */
import { startServer } from "./start-server.ts";

await startServer();
