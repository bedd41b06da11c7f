/**
 * Per-client limits on anonymous writes. Each limit allows `max` requests per client in a
 * fixed window of `windowMs`; the next one is refused with 429 and Retry-After (seconds until
 * the window ends). Counters live in memory, bounded: past `maxClients` tracked clients the
 * expired ones are dropped, and if every one is still live the oldest window goes first (an
 * attacker cycling addresses then loses its own counters first, never anyone's block on others).
 */
import { HTTPError } from "h3";

export interface Limit {
  max: number;
  windowMs: number;
}

interface Window {
  count: number;
  resetAt: number;
}

export class RateLimiter {
  readonly #windows = new Map<string, Window>();
  readonly #maxClients: number;

  constructor(options: { maxClients?: number } = {}) {
    this.#maxClients = options.maxClients ?? 100_000;
  }

  /** Counts one request of `client` against `name`'s limit; throws 429 when it is over. */
  take(name: string, limit: Limit, client: string, now = Date.now()): void {
    const key = `${name}\u0000${client}`;
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      this.#windows.delete(key);
      this.#makeRoom(now);
      window = { count: 0, resetAt: now + limit.windowMs };
      this.#windows.set(key, window);
    }
    if (window.count >= limit.max) {
      const seconds = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
      throw new HTTPError({
        status: 429,
        message: "Too many requests: please wait a moment and try again",
        headers: { "retry-after": String(seconds) },
      });
    }
    window.count++;
  }

  #makeRoom(now: number): void {
    if (this.#windows.size < this.#maxClients) return;
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
    // Still full: windows were created in time order, so the first ones are the oldest.
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < this.#maxClients) break;
      this.#windows.delete(key);
    }
  }

  get size(): number {
    return this.#windows.size;
  }
}

const minute = 60_000;
const hour = 60 * minute;

/**
 * The limits of the anonymous writes, per client address:
 *  - mail: an alert or newsletter sign-up may send a confirmation mail, so few are allowed;
 *  - clicks: the affiliate click log (each post carries up to 20 events);
 *  - visitor: favourites, recently viewed, alert deletion, voucher uses, unsubscribes;
 *  - quotes: basket quotes, which store nothing but each search many ways to split a basket.
 */
export interface WriteLimits {
  mail: Limit;
  clicks: Limit;
  visitor: Limit;
  quotes: Limit;
}

export const defaultWriteLimits: WriteLimits = {
  mail: { max: 20, windowMs: hour },
  clicks: { max: 60, windowMs: minute },
  visitor: { max: 300, windowMs: minute },
  quotes: { max: 120, windowMs: minute },
};
