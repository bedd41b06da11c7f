/**
 * What the price refresh remembers about each retailer origin between runs (crawl_hosts): its
 * robots.txt as last read, and the wait a 429/503 asked for.
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";

/** robots.txt as read: its rules (a 2xx), none to obey (a 4xx), or nothing may be fetched (no usable answer). */
export type StoredRobots = { state: "rules"; text: string } | { state: "allow" } | { state: "disallow" };

export interface CrawlHost {
  /** scheme://host[:port], lower case. */
  origin: string;
  robots: StoredRobots;
  robotsFetchedAt: Date;
  /** No request to the origin before this time (null: none asked for). */
  blockedUntil: Date | null;
  /** 429/503 answers in a row. */
  busyStreak: number;
}

interface CrawlHostRow {
  origin: string;
  robots_txt: string | null;
  robots_state: string;
  robots_fetched_at: string;
  blocked_until: string | null;
  busy_streak: number;
}

function storedRobots(row: CrawlHostRow): StoredRobots {
  if (row.robots_state === "rules" && row.robots_txt !== null) return { state: "rules", text: row.robots_txt };
  if (row.robots_state === "allow") return { state: "allow" };
  return { state: "disallow" };
}

export function getCrawlHost(db: Db, origin: string): CrawlHost | null {
  const row = statement(db, "SELECT origin, robots_txt, robots_state, robots_fetched_at, blocked_until, busy_streak FROM crawl_hosts WHERE origin = ?").get(origin) as
    | CrawlHostRow
    | undefined;
  if (!row) return null;
  return {
    origin: row.origin,
    robots: storedRobots(row),
    robotsFetchedAt: new Date(row.robots_fetched_at),
    blockedUntil: row.blocked_until === null ? null : new Date(row.blocked_until),
    busyStreak: row.busy_streak,
  };
}

/** Stores the robots.txt just read for `origin`, keeping its back-off. */
export function saveRobots(db: Db, origin: string, robots: StoredRobots, fetchedAt: Date): void {
  statement(
    db,
    `INSERT INTO crawl_hosts (origin, robots_txt, robots_state, robots_fetched_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(origin) DO UPDATE SET robots_txt = excluded.robots_txt, robots_state = excluded.robots_state, robots_fetched_at = excluded.robots_fetched_at`,
  ).run(origin, robots.state === "rules" ? robots.text : null, robots.state, fetchedAt.toISOString());
}

/** Stores the back-off of `origin` (whose robots.txt was stored first); null and 0 clear it. */
export function saveBackOff(db: Db, origin: string, blockedUntil: Date | null, busyStreak: number): void {
  statement(db, "UPDATE crawl_hosts SET blocked_until = ?, busy_streak = ? WHERE origin = ?").run(blockedUntil?.toISOString() ?? null, busyStreak, origin);
}
