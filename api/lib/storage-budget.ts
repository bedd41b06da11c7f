/**
 * A daily budget of stored rows per client address. The anonymous writes key their own caps on
 * visitor ids, which a client makes up freely; this budget keys on the client address instead (the
 * same key as the per-minute limits: IPv4 as is, IPv6 by its /64, so a client cannot rotate
 * addresses inside its own network). Every row an anonymous write stores counts, whatever table it
 * lands in (a click, a favourite, a recently viewed entry, a voucher use, a price alert, a sign-up,
 * a confirmation mail queued for them); a request that stores nothing spends nothing. A write that
 * would take the address past its budget for the UTC day is refused whole with 429 and stores nothing.
 *
 * The counts live in this process's memory: a restart resets the day's counts. That is acceptable
 * because the budget is a brake on how fast one address can fill the database, not an exact quota:
 * a client cannot restart the server, the per-minute limits still hold, and the tables' row
 * ceilings (data/db/storage-ceilings.ts) bound what is kept whatever happens here. The map holds
 * only addresses that stored something today, is emptied when the UTC day changes, and past
 * `maxClients` addresses the one counted first is dropped.
 */
import { HTTPError, type H3Event } from "h3";
import type { Db } from "../../data/db/client.ts";

const dayMs = 24 * 60 * 60 * 1000;

export interface StorageBudgetOptions {
  /** Rows one client may store per UTC day. */
  rowsPerDay: number;
  /** Clients counted at once (default 100,000). */
  maxClients?: number;
  /** The clock (tests move it to the next day). */
  now?: () => Date;
}

export class StorageBudget {
  readonly rowsPerDay: number;
  readonly #maxClients: number;
  readonly #now: () => Date;
  readonly #spent = new Map<string, number>();
  /** The UTC day the counts are for, as days since 1970-01-01. */
  #day = Number.NaN;

  constructor(options: StorageBudgetOptions) {
    if (!Number.isSafeInteger(options.rowsPerDay) || options.rowsPerDay < 1) throw new Error("rowsPerDay must be a whole number of at least 1");
    this.rowsPerDay = options.rowsPerDay;
    this.#maxClients = options.maxClients ?? 100_000;
    this.#now = options.now ?? (() => new Date());
  }

  /** Milliseconds since the epoch, after emptying the counts when the UTC day has changed. */
  #time(): number {
    const time = this.#now().getTime();
    const day = Math.floor(time / dayMs);
    if (day !== this.#day) {
      this.#spent.clear();
      this.#day = day;
    }
    return time;
  }

  /** The rows `client` may still store today. */
  remaining(client: string): number {
    this.#time();
    return Math.max(0, this.rowsPerDay - (this.#spent.get(client) ?? 0));
  }

  /** Counts `rows` stored by `client` today. */
  spend(client: string, rows: number): void {
    if (rows <= 0) return;
    this.#time();
    const spent = this.#spent.get(client);
    if (spent === undefined) {
      // Full: the client counted first goes (Map keeps insertion order).
      for (const key of this.#spent.keys()) {
        if (this.#spent.size < this.#maxClients) break;
        this.#spent.delete(key);
      }
    }
    this.#spent.set(client, (spent ?? 0) + rows);
  }

  /** Whole seconds until the next UTC day begins (at least 1). */
  secondsToNextDay(): number {
    const time = this.#time();
    return Math.max(1, Math.ceil((dayMs - (time % dayMs)) / 1000));
  }

  /** Clients counted today. */
  get size(): number {
    this.#time();
    return this.#spent.size;
  }
}

/** What the write guard puts on an anonymous write's event: whose budget its rows count against. */
interface BudgetCharge {
  budget: StorageBudget;
  client: string;
}

/** Called by the write guard for every anonymous write: rows this request stores count against `client`. */
export function chargeStorageTo(event: H3Event, budget: StorageBudget, client: string): void {
  event.context.storageBudget = { budget, client } satisfies BudgetCharge;
}

/** What a write reports: its result, and how many rows it added to the database. */
export interface Stored<T> {
  value: T;
  rows: number;
}

/**
 * Runs `write` in one transaction and counts the rows it reports against the client's daily
 * budget. When they are more than the client has left today, the transaction is rolled back (the
 * request stores nothing) and the answer is 429 with Retry-After (seconds until the next UTC day).
 */
export function storeWithinBudget<T>(event: H3Event, db: Db, write: () => Stored<T>): T {
  const charge = event.context.storageBudget as BudgetCharge | undefined;
  if (!charge) throw new Error("a route that stores visitor data must be registered with an anonymous write limit");
  const { budget, client } = charge;
  const stored = db.$client.transaction((): Stored<T> => {
    const result = write();
    if (result.rows > budget.remaining(client)) {
      throw new HTTPError({
        status: 429,
        message: "Daily storage limit reached for your connection: nothing was saved. Please try again after midnight (UTC)",
        headers: { "retry-after": String(budget.secondsToNextDay()) },
      });
    }
    return result;
  })();
  budget.spend(client, stored.rows);
  return stored.value;
}
