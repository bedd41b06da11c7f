const ukDate = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" });

/**
 * Today's date in the UK as YYYY-MM-DD: a voucher "valid until 31 March" is valid all that
 * UK day, whatever the server's time zone.
 * @example ukToday(new Date("2026-06-30T23:30:00Z")) // "2026-07-01" (BST)
 */
export function ukToday(now: Date = new Date()): string {
  return ukDate.format(now);
}

/**
 * The calendar day `months` whole months before `day` (both YYYY-MM-DD): six months before
 * 2026-11-27 is 2026-05-27. A day the earlier month does not have becomes its last day, so six
 * months before 2026-08-31 is 2026-02-28.
 * @example monthsBeforeDay("2026-11-27", 6) // "2026-05-27"
 * @example monthsBeforeDay("2026-03-31", 1) // "2026-02-28"
 */
export function monthsBeforeDay(day: string, months: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) - months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index - targetYear * 12;
  const lastDate = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  const pad = (value: number, width: number) => String(value).padStart(width, "0");
  return `${pad(targetYear, 4)}-${pad(targetMonth + 1, 2)}-${pad(Math.min(date, lastDate), 2)}`;
}
