/**
 * The server the browser tests run: `npm start`'s (api/start-server.ts) with one difference, the
 * loopback test allowance: the page reader may read fixture retailer pages on loopback (the
 * product form's Extract Price tested end to end) and feed sources may download fixture feeds from
 * there. Production (`api/server.ts`) can never pass this allowance.
 */
import { allowLoopbackForTests } from "../../api/lib/guarded-fetch.ts";
import { createPageReader } from "../../api/lib/page-price.ts";
import { startServer } from "../../api/start-server.ts";

const allowance = allowLoopbackForTests();
await startServer({ pageReader: createPageReader({ allowance }), feedAllowance: allowance });
