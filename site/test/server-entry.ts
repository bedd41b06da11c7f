/**
 * The server the browser tests run: `npm start`'s (api/start-server.ts) with two differences: the
 * loopback test allowance (the page reader may read fixture retailer pages on loopback, the
 * product form's Extract Price tested end to end, and feed sources may download fixture feeds from
 * there; production, `api/server.ts`, can never pass this allowance), and a per-client mail limit
 * that a whole browser run from one address does not reach.
 */
import { allowLoopbackForTests } from "../../api/lib/guarded-fetch.ts";
import { createPageReader } from "../../api/lib/page-price.ts";
import { startServer } from "../../api/start-server.ts";

const allowance = allowLoopbackForTests();
// Every browser test file signs up for alerts and newsletters as the one client 127.0.0.1 on this
// one server: the per-client limits on writes (mail-sending ones: 20 an hour) are tested in
// api/test/abuse.test.ts, not spent across files here (the 21st sign-up of a run got a 429).
const writeLimits = { mail: { max: 1_000_000, windowMs: 60 * 60 * 1000 } };
await startServer({ pageReader: createPageReader({ allowance }), feedAllowance: allowance, writeLimits });
