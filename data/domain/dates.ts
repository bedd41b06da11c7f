const ukDate = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" });

/**
 * Today's date in the UK as YYYY-MM-DD: a voucher "valid until 31 March" is valid all that
 * UK day, whatever the server's time zone.
 * @example ukToday(new Date("2026-06-30T23:30:00Z")) // "2026-07-01" (BST)
 */
export function ukToday(now: Date = new Date()): string {
  return ukDate.format(now);
}
