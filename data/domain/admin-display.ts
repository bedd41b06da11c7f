/**
 * How the admin screens show ages and long text. Kept apart from display.ts so the public
 * islands' shared code does not carry what only the admin uses.
 */

const hourMs = 60 * 60 * 1000;
const ukShortDate = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "2-digit", month: "2-digit", year: "2-digit" });

/**
 * How long ago something was edited, for the admin 'Last Edited' column: 'Never' without a
 * (valid) date, 'Just now' under an hour, '{n}h ago' under a day, '{n}d ago' under a week,
 * then the UK date as dd/mm/yy.
 * @example relativeTime(null) // "Never"
 * @example relativeTime("2026-03-01T09:00:00Z", new Date("2026-03-01T12:30:00Z")) // "3h ago"
 * @example relativeTime("2026-01-05T12:00:00Z", new Date("2026-03-01T12:00:00Z")) // "05/01/26"
 */
export function relativeTime(date: Date | string | number | null | undefined, now: Date = new Date()): string {
  if (date === null || date === undefined || date === "") return "Never";
  const then = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(then.getTime())) return "Never";
  const hours = (now.getTime() - then.getTime()) / hourMs;
  if (hours < 1) return "Just now";
  if (hours < 24) return `${Math.floor(hours)}h ago`;
  if (hours < 24 * 7) return `${Math.floor(hours / 24)}d ago`;
  return ukShortDate.format(then);
}

/**
 * The admin 'Last Edited' column: how long ago the product was edited, or, for one never edited
 * since it was created, when it was created ("Created 3h ago").
 * @example lastEditedText({ lastEditedAt: null, createdAt: "2026-03-01T12:10:00Z" }, new Date("2026-03-01T12:30:00Z")) // "Created just now"
 * @example lastEditedText({ lastEditedAt: "2026-03-01T09:00:00Z", createdAt: "2026-02-01T09:00:00Z" }, new Date("2026-03-01T12:30:00Z")) // "3h ago"
 */
export function lastEditedText(product: { lastEditedAt: string | null; createdAt: string | null }, now: Date = new Date()): string {
  const edited = relativeTime(product.lastEditedAt, now);
  if (edited !== "Never") return edited;
  const created = relativeTime(product.createdAt, now);
  if (created === "Never") return "Never";
  return created === "Just now" ? "Created just now" : `Created ${created}`;
}

/**
 * Cuts text to at most `max` characters and appends '...' when it was longer.
 * @example truncate("Royal Canin Maxi Adult Dry Dog Food 15kg", 11) // "Royal Canin..."
 * @example truncate("Short", 40) // "Short"
 */
export function truncate(text: string, max: number): string {
  // Count code points, so an emoji or accented letter is never split in half.
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  return `${characters.slice(0, Math.max(0, max)).join("").trimEnd()}...`;
}
