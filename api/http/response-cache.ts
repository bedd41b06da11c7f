/**
 * An in-process cache of public catalogue responses. The catalogue changes only when it is
 * written (admin edits, imports, the seed, price refreshes), so identical GETs between two writes
 * get the same bytes: serving them from memory takes the database and JSON encoding off the hot
 * path. Entries are tagged with the catalogue's version and dropped when it moves on:
 *  - writes by another connection (the seed or import scripts, a second process) change SQLite's
 *    `PRAGMA data_version`, read on every lookup, or with `dataVersionOncePerTurn` (the server's
 *    setting) once per event-loop turn: see `#version()`;
 *  - writes through this process call `invalidate()`, which takes effect at once either way.
 * The size cap counts everything an entry holds: its key, its body's bytes, its headers and a
 * fixed overhead for the objects around them, so many small answers under long keys are bounded
 * as surely as a few large ones. Least recently used entries go first once the cap is reached.
 */
import type { Statement } from "better-sqlite3";
import type { Db } from "../../data/db/client.ts";

export interface CachedResponse {
  body: string;
  headers: Record<string, string>;
}

/**
 * An answer as the HTTP server sends it: its header list (name, value, name, value, ...,
 * Content-Length last) and its body's UTF-8 bytes, kept so a later hit can be written out as
 * is (./fast-reads.ts).
 */
export interface SentResponse {
  /** The reason phrase of its status line, as the server wrote it ("" leaves it empty). */
  statusText: string | undefined;
  headers: string[];
  body: Uint8Array;
}

/** What an entry costs beyond its key, body and headers: the Map slot, the entry and buffer objects. */
export const entryOverheadBytes = 256;

/** JavaScript strings may hold two bytes per character: keys and headers are counted that way. */
const stringBytes = (text: string) => 2 * text.length;

const headerBytes = (headers: readonly string[]) => headers.reduce((sum, part) => sum + stringBytes(part), 0);

/** The bytes an entry is counted as against the cap. */
export function entryBytes(key: string, response: CachedResponse): number {
  return entryOverheadBytes + stringBytes(key) + stringBytes(response.body) + headerBytes(Object.entries(response.headers).flat());
}

const sentBytes = (sent: SentResponse) => headerBytes(sent.headers) + sent.body.byteLength;

interface Entry extends CachedResponse {
  /** `PRAGMA data_version` and this cache's generation when stored. */
  dataVersion: number;
  generation: number;
  bytes: number;
  sent?: SentResponse;
}

export class ResponseCache {
  readonly #entries = new Map<string, Entry>();
  readonly #dataVersion: Statement;
  readonly #maxBytes: number;
  readonly #oncePerTurn: boolean;
  /** data_version as read in this event-loop turn (once per turn only), else undefined. */
  #turnVersion: number | undefined;
  readonly #endTurn = () => {
    this.#turnVersion = undefined;
  };
  #bytes = 0;
  #generation = 0;
  #hits = 0;
  #misses = 0;
  #sentHits = 0;

  constructor(db: Db, options: { maxBytes?: number; dataVersionOncePerTurn?: boolean } = {}) {
    this.#dataVersion = db.$client.prepare("PRAGMA data_version").pluck();
    this.#maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.#oncePerTurn = options.dataVersionOncePerTurn ?? false;
  }

  /**
   * SQLite's data_version: it moves when another connection commits. Reading it is a small read
   * transaction (about 6 µs on a loaded 2-core machine, a tenth of a small hit's whole cost), so with
   * `dataVersionOncePerTurn` the first lookup of an event-loop turn reads it and the lookups of
   * the same turn reuse that value; it is forgotten in the turn's check phase (setImmediate).
   * The staleness rule: a lookup sees every commit another connection made before the first
   * lookup of the current turn; a commit made while a turn is running is seen from the next turn
   * on.
   */
  #version(): number {
    if (this.#turnVersion !== undefined) return this.#turnVersion;
    const version = this.#dataVersion.get() as number;
    if (this.#oncePerTurn) {
      this.#turnVersion = version;
      setImmediate(this.#endTurn);
    }
    return version;
  }

  #current(entry: Entry): boolean {
    return entry.generation === this.#generation && entry.dataVersion === this.#version();
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  /** The current entry under `key`, counted as a hit or a miss (the metrics read the counts). */
  get(key: string): CachedResponse | undefined {
    const entry = this.#lookup(key);
    if (entry) this.#hits++;
    else this.#misses++;
    return entry;
  }

  #lookup(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (!this.#current(entry)) {
      this.#drop(key, entry);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry); // most recently used last
    return entry;
  }

  set(key: string, response: CachedResponse): void {
    const previous = this.#entries.get(key);
    if (previous) this.#drop(key, previous);
    const bytes = entryBytes(key, response);
    if (bytes > this.#maxBytes / 16) return;
    this.#entries.set(key, { ...response, dataVersion: this.#version(), generation: this.#generation, bytes });
    this.#bytes += bytes;
    this.#evict();
  }

  /**
   * The current entry under `key` with what the server sent for it, when that was recorded.
   * Only an answer found counts (as a hit before the app); without one the app looks again and counts that.
   */
  getSent(key: string): SentResponse | undefined {
    const sent = this.#lookup(key)?.sent;
    if (sent) this.#sentHits++;
    return sent;
  }

  /**
   * Records how the server sent the entry under `key`: the same headers (plus Content-Length) and the body encoded,
   * if that entry is still there and current (a write in between leaves nothing to attach to).
   */
  attachSent(key: string, headers: string[], statusText?: string): void {
    const entry = this.#entries.get(key);
    if (!entry || entry.sent || !this.#current(entry)) return;
    const body = new TextEncoder().encode(entry.body);
    const sent = { statusText, headers: [...headers, "content-length", String(body.byteLength)], body };
    const bytes = entry.bytes + sentBytes(sent);
    this.#entries.set(key, { ...entry, sent, bytes });
    this.#bytes += bytes - entry.bytes;
    this.#evict();
  }

  #evict(): void {
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#drop(oldest, entry);
    }
  }

  /** Call after this process wrote to the catalogue. */
  invalidate(): void {
    this.#generation++;
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** Lookups answered from the cache inside the app (get). */
  get hits(): number {
    return this.#hits;
  }

  /** Lookups inside the app that found no current entry. */
  get misses(): number {
    return this.#misses;
  }

  /** Answers replayed at the HTTP server before the app (getSent found them). */
  get sentHits(): number {
    return this.#sentHits;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The bytes the entries are counted as (never above the cap). */
  get bytes(): number {
    return this.#bytes;
  }

  get maxBytes(): number {
    return this.#maxBytes;
  }
}
