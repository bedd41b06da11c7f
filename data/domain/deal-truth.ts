/**
 * Deal signals a shopper can trust, worked out from a product's price history: the lowest price
 * in 90 days, the typical price, whether today's price is a deal, and a "was" price the history
 * supports (price alerts, data/domain/alerts.ts, read the lowest in 90 days from here). Every
 * figure is a total to the door (price plus delivery) in integer pence: the day's lowest in-stock
 * total, except the "was" price, which is one retailer's own.
 */
import { monthsBeforeDay } from "./dates.ts";
import type { Pence } from "./money.ts";

/** One UTC day of a product's history, oldest first; the last one is today. */
export interface DailyLowest {
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** The lowest in-stock total that day; null when nothing was in stock (or not yet recorded). */
  lowestTotalPence: Pence | null;
}

/** One recorded total of one retailer's offer, as the history keeps it. */
export interface HistoryRow {
  retailerId: number;
  /** Price to the door; null records that the retailer went out of stock. */
  totalPence: Pence | null;
  /** ISO-8601. */
  recordedAt: string;
}

/** The window every signal here looks at, in days, today included. */
export const windowDays = 90;
/** Fewer days with a price than this says nothing about a typical price. */
export const minPricedDays = 14;
/** A "was" price must have been charged for at least this many consecutive days. */
export const wasPriceMinDays = 28;
/** ... in a run that ended no more than this many calendar months before today. */
export const wasPriceMaxAgeMonths = 6;
/** A deal is at least this many percent below the typical price. */
export const dealPercent = 5;

const dayMs = 24 * 60 * 60 * 1000;

/** The start (ms) of a YYYY-MM-DD day, UTC. Throws a RangeError when `day` is not a date. */
function dayStartOf(day: string): number {
  const start = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !Number.isFinite(start) || new Date(start).toISOString().slice(0, 10) !== day) {
    throw new RangeError(`Not a YYYY-MM-DD date: ${day}`);
  }
  return start;
}

/** The window ending on the last `today` asked for: a build asks for one day, for every product. */
let lastWindow: { today: string; firstDayStart: number; labels: readonly string[] } | undefined;

/**
 * The start (ms) of the first day of the 90-day window ending `today` and the window's days
 * (YYYY-MM-DD), oldest first. Throws a RangeError when `today` is not a date.
 */
function windowOf(today: string): { firstDayStart: number; labels: readonly string[] } {
  if (lastWindow?.today === today) return lastWindow;
  const firstDayStart = dayStartOf(today) - (windowDays - 1) * dayMs;
  const labels = Array.from({ length: windowDays }, (_, index) => new Date(firstDayStart + index * dayMs).toISOString().slice(0, 10));
  lastWindow = { today, firstDayStart, labels };
  return lastWindow;
}

/**
 * The day-by-day lowest total of the 90 days ending `today` (YYYY-MM-DD, UTC), oldest first.
 * A retailer's price holds from the day it is recorded until it changes, so each day takes each
 * retailer's last recording on or before that day (from before the window too; on the same
 * instant, the later row) and the day's lowest is the least of them. A retailer whose last
 * recording is out of stock, or that has no recording yet, does not count; a day with no
 * retailer counting is null. Rows that are not dates or are after today are ignored. Throws a
 * RangeError when `today` is not a date.
 * @example dailyLowest([{ retailerId: 1, totalPence: 1299, recordedAt: "2026-03-01T09:00:00Z" }], "2026-03-02").slice(-3) // [{ day: "2026-02-28", lowestTotalPence: null }, { day: "2026-03-01", lowestTotalPence: 1299 }, { day: "2026-03-02", lowestTotalPence: 1299 }]
 */
export function dailyLowest(entries: readonly HistoryRow[], today: string): DailyLowest[] {
  const { firstDayStart, labels } = windowOf(today);
  // A stable sort, so rows of the same instant stay in their given order and the later one wins.
  const rows = entries
    .map((entry) => ({ entry, time: Date.parse(entry.recordedAt) }))
    .filter((row) => Number.isFinite(row.time))
    .sort((a, b) => a.time - b.time);

  const current = new Map<number, Pence | null>();
  const days: DailyLowest[] = [];
  let next = 0;
  for (let index = 0; index < windowDays; index++) {
    const dayStart = firstDayStart + index * dayMs;
    for (; next < rows.length && rows[next]!.time < dayStart + dayMs; next++) {
      current.set(rows[next]!.entry.retailerId, rows[next]!.entry.totalPence);
    }
    let lowest: Pence | null = null;
    for (const total of current.values()) {
      if (total !== null && (lowest === null || total < lowest)) lowest = total;
    }
    days.push({ day: labels[index]!, lowestTotalPence: lowest });
  }
  return days;
}

/** The last 90 days of `days`: each signal looks at the window only, however much is passed. */
const inWindow = (days: readonly DailyLowest[]) => days.slice(-windowDays);
/** The days' prices, days with nothing in stock left out (a loop: a build runs this for every product, five times). */
function pricesOf(days: readonly DailyLowest[]): Pence[] {
  const prices: Pence[] = [];
  for (const day of days) if (day.lowestTotalPence !== null) prices.push(day.lowestTotalPence);
  return prices;
}

function minimum(prices: readonly Pence[]): Pence | null {
  return prices.length === 0 ? null : prices.reduce((least, price) => (price < least ? price : least));
}

export interface LowestIn90Days {
  /** The least daily lowest of the window, today included; null when nothing was in stock. */
  lowestPence: Pence | null;
  /** The same without today: what a "lowest in 90 days" alert has to beat. */
  lowestBeforeTodayPence: Pence | null;
  /**
   * Whether to show "Lowest price in 90 days": today has a price, it is at or below every other
   * day's, and the history reaches back the whole window (its first day has a price), since a
   * product seen for a fortnight cannot claim 90 days. Out of stock everywhere 90 days ago counts
   * as not reaching back: the label waits rather than over-claims.
   */
  isTodayLowest: boolean;
}

/**
 * The lowest price of the window (the days from `dailyLowest`, today last) and whether today's
 * price is it.
 * @example lowestIn90Days(days).isTodayLowest // true when today's 1199 is the least of 90 priced days
 */
export function lowestIn90Days(days: readonly DailyLowest[]): LowestIn90Days {
  const recent = inWindow(days);
  const today = recent.at(-1)?.lowestTotalPence ?? null;
  const lowestBeforeTodayPence = minimum(pricesOf(recent.slice(0, -1)));
  const lowestPence = minimum(pricesOf(recent));
  const coversWindow = recent.length === windowDays && recent[0]!.lowestTotalPence !== null;
  return { lowestPence, lowestBeforeTodayPence, isTodayLowest: today !== null && today === lowestPence && coversWindow };
}

/**
 * The typical price: the median of the daily lowest over the window, days with nothing in stock
 * left out; of an even count, the mean of the middle two, a half penny rounded up. Null with
 * fewer than 14 days with a price: too little history says nothing.
 * @example typicalPrice(days) // 1999 when 1999 is the middle of the priced days
 */
export function typicalPrice(days: readonly DailyLowest[]): Pence | null {
  const prices = pricesOf(inWindow(days)).sort((a, b) => a - b);
  if (prices.length < minPricedDays) return null;
  const middle = prices.length >> 1;
  if (prices.length % 2 === 1) return prices[middle]!;
  return Math.floor((prices[middle - 1]! + prices[middle]! + 1) / 2);
}

/**
 * Whether today's price is a deal: at least 5% below the typical price, so exactly 5% below
 * counts (1900 against 2000) and a penny less of a cut does not. No price today or no typical
 * price: never a deal.
 * @example isDeal(1900, days) // true when the typical price is 2000
 * @example isDeal(1901, days) // false when the typical price is 2000
 */
export function isDeal(todayPence: Pence | null, days: readonly DailyLowest[]): boolean {
  const typical = typicalPrice(days);
  if (todayPence === null || typical === null) return false;
  return todayPence * 100 <= typical * (100 - dealPercent);
}

/**
 * The first UTC day the "was" price rule looks at for `today`: the first day of a 28-day run that
 * ended exactly six calendar months before today. A price recorded before it holds into it, so a
 * reader passes each retailer's last recording before this day as well.
 * @example wasPriceFirstDay("2026-11-27") // "2026-04-30" (28 days ending 2026-05-27)
 */
export function wasPriceFirstDay(today: string): string {
  dayStartOf(today);
  const lastDayAllowed = dayStartOf(monthsBeforeDay(today, wasPriceMaxAgeMonths));
  return new Date(lastDayAllowed - (wasPriceMinDays - 1) * dayMs).toISOString().slice(0, 10);
}

/**
 * A "was" price may be shown next to today's best price only when the same retailer (the retailer
 * of today's best offer) charged that price, as a total to the door on the same basis as the best
 * price, for at least 28 consecutive days; that run ended no more than six calendar months before
 * today; and between the end of that run and today that retailer never charged a higher price.
 * A day out of stock or with another price breaks the run. The most recent run of 28 days or more
 * that meets all of this gives the "was" price, and only when it is above today's price; otherwise
 * there is no "was" price.
 *
 * Days are UTC days. A day counts towards a run only when the retailer charged that one price,
 * in stock, the whole day: from the price in force at midnight (its last row at or before then)
 * through every row in the day. So the day a price starts and the day it changes are not days at
 * that price. "Six calendar months before today" is monthsBeforeDay: for 2026-11-27 a run whose
 * last day is 2026-05-27 is recent enough and one ending 2026-05-26 is not. A higher price charged
 * on any day after the run's last day, today included, rules the run out (out of stock does not).
 *
 * `rows` are totals to the door as historyTotals gives them (other retailers' rows are ignored),
 * reaching back to wasPriceFirstDay(today) plus the row in force then; rows after today are
 * ignored. `retailerId` and `todayPence` are today's best offer's retailer and total (null: no
 * best offer, no "was" price). Throws a RangeError when `today` is not a date.
 * @example wasPrice(rows, 1, 1799, "2026-11-27") // 2199 when retailer 1 charged 2199 all day from 1 to 28 October and nothing higher since
 */
export function wasPrice(rows: readonly HistoryRow[], retailerId: number | null, todayPence: Pence | null, today: string): Pence | null {
  if (retailerId === null || todayPence === null) return null;
  const todayStart = dayStartOf(today);
  const firstDayStart = dayStartOf(wasPriceFirstDay(today));
  const dayCount = Math.round((todayStart - firstDayStart) / dayMs) + 1;
  // The run's last day may be no earlier than this day of the count (six months before today).
  const lastDayAllowed = wasPriceMinDays - 1;
  const todayEnd = todayStart + dayMs;
  // This retailer's rows by time (a stable sort: of the same instant, the later row wins).
  const own = rows
    .filter((row) => row.retailerId === retailerId)
    .map((row) => ({ totalPence: row.totalPence, time: Date.parse(row.recordedAt) }))
    .filter((row) => Number.isFinite(row.time) && row.time < todayEnd)
    .sort((a, b) => a.time - b.time);

  // Per day: the one price charged in stock all day (null: none, or more than one), and the
  // highest price charged at any moment of it (null: out of stock or not yet seen all day).
  const heldAllDay: (Pence | null)[] = [];
  const highest: (Pence | null)[] = [];
  let current: Pence | null = null;
  let next = 0;
  for (let index = 0; index < dayCount; index++) {
    const dayStart = firstDayStart + index * dayMs;
    for (; next < own.length && own[next]!.time <= dayStart; next++) current = own[next]!.totalPence;
    let held = current;
    let top = current;
    for (; next < own.length && own[next]!.time < dayStart + dayMs; next++) {
      current = own[next]!.totalPence;
      if (current !== held) held = null;
      if (current !== null && (top === null || current > top)) top = current;
    }
    // Today is not over: it is never a whole day at a price.
    heldAllDay.push(index === dayCount - 1 ? null : held);
    highest.push(top);
  }

  // From today back: each run of days at one price, most recent first.
  let highestSince: Pence | null = null;
  for (let index = dayCount - 1; index >= 0; ) {
    const price = heldAllDay[index] ?? null;
    if (price === null) {
      const top = highest[index] ?? null;
      if (top !== null && (highestSince === null || top > highestSince)) highestSince = top;
      index--;
      continue;
    }
    // Older runs ended earlier still: none is recent enough.
    if (index < lastDayAllowed) return null;
    let first = index;
    while (first > 0 && heldAllDay[first - 1] === price) first--;
    const longEnough = index - first + 1 >= wasPriceMinDays;
    if (longEnough && price > todayPence && (highestSince === null || highestSince <= price)) return price;
    if (highestSince === null || price > highestSince) highestSince = price;
    index = first - 1;
  }
  return null;
}
