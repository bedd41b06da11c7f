/**
 * Admin-only wording of times and sizes (UK formats, London time).
 */

const dateTime = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
const dateOnly = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "numeric", month: "short", year: "numeric" });

/**
 * @example formatDateTime("2026-03-01T09:05:00Z") // "1 Mar 2026, 09:05"
 * @example formatDateTime(null) // "Never"
 */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return "Never";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "Never" : dateTime.format(date);
}

/**
 * A calendar date given as YYYY-MM-DD, written out.
 * @example formatDay("2026-12-31") // "31 Dec 2026"
 */
export function formatDay(value: string): string {
  const date = new Date(`${value}T12:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : dateOnly.format(date);
}

const units: [limitSeconds: number, secondsPerUnit: number, unit: string][] = [
  [3600, 60, "minute"],
  [86_400, 3600, "hour"],
  [86_400 * 30, 86_400, "day"],
  [86_400 * 365, 86_400 * 30, "month"],
  [Number.POSITIVE_INFINITY, 86_400 * 365, "year"],
];

/**
 * How long ago, in words, to follow "Subscribed ... ago".
 * @example timeSince("2026-03-01T09:00:00Z", new Date("2026-03-01T09:00:30Z")) // "less than a minute"
 * @example timeSince("2026-03-01T09:00:00Z", new Date("2026-03-01T12:00:00Z")) // "3 hours"
 * @example timeSince("2026-03-01T09:00:00Z", new Date("2026-03-02T09:00:00Z")) // "1 day"
 */
export function timeSince(value: string, now: Date = new Date()): string {
  const seconds = Math.max(0, (now.getTime() - new Date(value).getTime()) / 1000);
  if (!Number.isFinite(seconds) || seconds < 60) return "less than a minute";
  for (const [limit, size, unit] of units) {
    if (seconds < limit) {
      const count = Math.max(1, Math.floor(seconds / size));
      return `${count} ${unit}${count === 1 ? "" : "s"}`;
    }
  }
  return "a long time";
}

/**
 * @example formatBytes(1536) // "1.5 KB"
 * @example formatBytes(5_242_880) // "5.0 MB"
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/**
 * @example formatDuration(870) // "0.9 s"
 * @example formatDuration(95_000) // "1 min 35 s"
 */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
