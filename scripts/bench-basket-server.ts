/**
 * The server bench:basket measures: `npm start`'s (api/start-server.ts) with the per-client limit
 * on basket quotes lifted, as the bench asks for a thousand quotes from one address in a minute
 * (a visitor may ask for 120). Started by scripts/bench-basket.ts, never by hand.
 */
import { startServer } from "../api/start-server.ts";

await startServer({ writeLimits: { quotes: { max: 1_000_000, windowMs: 60_000 } } });
