/**
 * An in-process cache of public catalogue responses. The catalogue changes only when it is
 * written (admin edits, imports, the seed, price refreshes), so identical GETs between two writes
 * get the same bytes: serving them from memory takes the database and JSON encoding off the hot
 * path. Entries are tagged with the catalogue's version and dropped when it moves on:
 *  - writes by another connection (the seed or import scripts, a second process) change SQLite's
 *    `PRAGMA data_version`, read on every lookup (about a microsecond);
 *  - writes through this process call `invalidate()`.
 * Least recently used entries go first once the size cap is reached.
 */
import type { Db } from "../../data/db/client.ts";

export interface CachedResponse {
  body: string;
  headers: Record<string, string>;
}

export class ResponseCache {
  readonly #entries = new Map<string, CachedResponse & { version: string }>();
  readonly #db: Db;
  readonly #maxBytes: number;
  #bytes = 0;
  #generation = 0;

  constructor(db: Db, options: { maxBytes?: number } = {}) {
    this.#db = db;
    this.#maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  }

  #version(): string {
    return `${this.#db.$client.pragma("data_version", { simple: true })}:${this.#generation}`;
  }

  get(key: string): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.version !== this.#version()) {
      this.#bytes -= entry.body.length;
      return undefined;
    }
    this.#entries.set(key, entry); // most recently used last
    return entry;
  }

  set(key: string, response: CachedResponse): void {
    if (response.body.length > this.#maxBytes / 16) return;
    const previous = this.#entries.get(key);
    if (previous) this.#bytes -= previous.body.length;
    this.#entries.delete(key);
    this.#entries.set(key, { ...response, version: this.#version() });
    this.#bytes += response.body.length;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.body.length;
    }
  }

  /** Call after this process wrote to the catalogue. */
  invalidate(): void {
    this.#generation++;
    this.#entries.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#entries.size;
  }
}
