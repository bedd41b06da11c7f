/**
 * The server the browser tests run: `npm start`'s (api/start-server.ts) with one difference, a
 * page reader allowed to read fixture retailer pages on loopback, so the product form's Extract
 * Price can be tested end to end, and feed sources allowed to download fixture feeds from loopback. Production (`api/server.ts`) can never pass this allowance.
 */
import { allowLoopbackForTests } from "../../api/lib/guarded-fetch.ts";
import { createPageReader } from "../../api/lib/page-price.ts";
import { startServer } from "../../api/start-server.ts";

const allowance = allowLoopbackForTests();
await startServer({ pageReader: createPageReader({ allowance }), feedAllowance: allowance });
