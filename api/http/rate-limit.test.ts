/**
 * The per-client write limiter on its own, with the clock given: a fixed window of `max`
 * requests, refused with 429 and Retry-After (whole seconds to the window's end, at least 1)
 * until the window ends exactly at its reset time; at most `maxClients` windows kept, expired
 * ones dropped first, then the oldest.
 */
import { HTTPError } from "h3";
import { describe, expect, it } from "vitest";
import { RateLimiter, type Limit } from "./rate-limit.ts";

const limit: Limit = { max: 2, windowMs: 60_000 };
const start = 1_000_000;

/** The refusal `take` throws, or null when it lets the request through. */
function refusal(limiter: RateLimiter, client: string, now: number, name = "mail"): HTTPError | null {
  try {
    limiter.take(name, limit, client, now);
    return null;
  } catch (error) {
    if (error instanceof HTTPError) return error;
    throw error;
  }
}

const retryAfter = (error: HTTPError | null) => error?.headers?.get("retry-after");

describe("RateLimiter", () => {
  it("lets max requests through in a window and refuses the next with 429 and the seconds to the window's end", () => {
    const limiter = new RateLimiter();
    expect(refusal(limiter, "a", start)).toBeNull();
    expect(refusal(limiter, "a", start + 1000)).toBeNull();
    const refused = refusal(limiter, "a", start + 30_000);
    expect(refused?.status).toBe(429);
    expect(refused?.message).toBe("Too many requests: please wait a moment and try again");
    expect(retryAfter(refused)).toBe("30");
    // 29.5 s left rounds up to 30; 200 ms left is still a whole second.
    expect(retryAfter(refusal(limiter, "a", start + 30_500))).toBe("30");
    expect(retryAfter(refusal(limiter, "a", start + 59_800))).toBe("1");
  });

  it("starts a new window exactly at the reset time, not a millisecond before", () => {
    const limiter = new RateLimiter();
    refusal(limiter, "a", start);
    refusal(limiter, "a", start);
    expect(refusal(limiter, "a", start + limit.windowMs - 1)?.status).toBe(429);
    expect(refusal(limiter, "a", start + limit.windowMs)).toBeNull();
    expect(refusal(limiter, "a", start + limit.windowMs)).toBeNull();
    expect(refusal(limiter, "a", start + limit.windowMs)?.status).toBe(429);
  });

  it("counts each client and each limit apart", () => {
    const limiter = new RateLimiter();
    refusal(limiter, "a", start);
    refusal(limiter, "a", start);
    expect(refusal(limiter, "a", start)?.status).toBe(429);
    expect(refusal(limiter, "b", start)).toBeNull();
    expect(refusal(limiter, "a", start, "clicks")).toBeNull();
    expect(limiter.size).toBe(3);
  });

  it("keeps up to 100,000 clients by default: a second client does not cost the first its count", () => {
    const limiter = new RateLimiter();
    refusal(limiter, "a", start);
    refusal(limiter, "a", start);
    refusal(limiter, "b", start);
    expect(refusal(limiter, "a", start)?.status).toBe(429);
    expect(limiter.size).toBe(2);
  });

  it("when full, drops expired windows before any live one, even a live one that is older", () => {
    const limiter = new RateLimiter({ maxClients: 2 });
    refusal(limiter, "live", start);
    refusal(limiter, "live", start);
    // A later window of a shorter limit, which ends first: exactly when "new" arrives.
    limiter.take("short", { max: 1, windowMs: 1000 }, "brief", start + 10);
    expect(refusal(limiter, "new", start + 1010)).toBeNull();
    expect(limiter.size).toBe(2);
    // "live", the oldest, kept its count; the expired window went instead.
    expect(refusal(limiter, "live", start + 1010)?.status).toBe(429);
  });

  it("when full of live windows, drops the oldest first", () => {
    const limiter = new RateLimiter({ maxClients: 2 });
    for (const client of ["first", "second"]) {
      refusal(limiter, client, start);
      refusal(limiter, client, start);
    }
    expect(refusal(limiter, "third", start + 1)).toBeNull();
    expect(limiter.size).toBe(2);
    // "first" lost its window (a fresh one lets it through); "second" is still refused.
    expect(refusal(limiter, "second", start + 2)?.status).toBe(429);
    expect(refusal(limiter, "first", start + 3)).toBeNull();
  });
});
