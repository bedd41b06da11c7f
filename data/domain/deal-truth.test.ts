import { describe, expect, it } from "vitest";
import { alertFires, type AlertState } from "./alerts.ts";
import {
  dailyLowest,
  isDeal,
  lowestIn90Days,
  typicalPrice,
  wasPrice,
  wasPriceFirstDay,
  wasPriceMinDays,
  type DailyLowest,
  type HistoryRow,
} from "./deal-truth.ts";

const today = "2026-03-31";
/** The window of `dailyLowest` for `today`: 2026-01-01 to 2026-03-31 (31 + 28 + 31 = 90 days). */
const firstDay = "2026-01-01";

/** A window of 90 days from a list of daily prices, oldest first, padded at the start with nulls. */
function days(prices: readonly (number | null)[]): DailyLowest[] {
  const padded = [...Array<null>(Math.max(0, 90 - prices.length)).fill(null), ...prices];
  const start = Date.parse(`${firstDay}T00:00:00Z`);
  return padded.map((lowestTotalPence, index) => ({ day: new Date(start + index * 86_400_000).toISOString().slice(0, 10), lowestTotalPence }));
}
/** `count` days at `price`. */
const run = (count: number, price: number | null) => Array<number | null>(count).fill(price);

describe("dailyLowest", () => {
  it("gives the 90 days ending today, oldest first, null before anything is recorded", () => {
    const result = dailyLowest([], today);
    expect(result).toHaveLength(90);
    expect(result[0]).toEqual({ day: firstDay, lowestTotalPence: null });
    expect(result[89]).toEqual({ day: today, lowestTotalPence: null });
    expect(result.every((day) => day.lowestTotalPence === null)).toBe(true);
    // Across a month end and a leap day: 90 days ending 2024-03-01 start 2023-12-03.
    const leap = dailyLowest([], "2024-03-01");
    expect([leap[0]!.day, leap.find((day) => day.day === "2024-02-29")?.day, leap[89]!.day]).toEqual(["2023-12-03", "2024-02-29", "2024-03-01"]);
  });

  it("holds each retailer's price from the day it is recorded until it changes, and takes the day's least across retailers", () => {
    const rows: HistoryRow[] = [
      { retailerId: 1, totalPence: 2000, recordedAt: "2026-03-25T10:00:00Z" },
      { retailerId: 2, totalPence: 1900, recordedAt: "2026-03-27T23:59:59Z" },
      { retailerId: 1, totalPence: 1800, recordedAt: "2026-03-29T00:00:00Z" },
      { retailerId: 2, totalPence: 2100, recordedAt: "2026-03-30T08:00:00Z" },
    ];
    expect(dailyLowest(rows, today).slice(-8)).toEqual([
      { day: "2026-03-24", lowestTotalPence: null },
      { day: "2026-03-25", lowestTotalPence: 2000 },
      { day: "2026-03-26", lowestTotalPence: 2000 },
      { day: "2026-03-27", lowestTotalPence: 1900 },
      { day: "2026-03-28", lowestTotalPence: 1900 },
      { day: "2026-03-29", lowestTotalPence: 1800 },
      { day: "2026-03-30", lowestTotalPence: 1800 },
      { day: "2026-03-31", lowestTotalPence: 1800 },
    ]);
  });

  it("takes a retailer's last recording of a day, not its lowest, and the later row of the same instant", () => {
    const rows: HistoryRow[] = [
      { retailerId: 1, totalPence: 1500, recordedAt: "2026-03-30T09:00:00Z" },
      { retailerId: 1, totalPence: 2500, recordedAt: "2026-03-30T18:00:00Z" },
      { retailerId: 1, totalPence: 1700, recordedAt: "2026-03-31T12:00:00Z" },
      { retailerId: 1, totalPence: 1600, recordedAt: "2026-03-31T12:00:00Z" },
    ];
    expect(dailyLowest(rows, today).slice(-2).map((day) => day.lowestTotalPence)).toEqual([2500, 1600]);
    // Given out of order, the times decide.
    expect(dailyLowest([rows[1]!, rows[0]!], today).at(-2)?.lowestTotalPence).toBe(2500);
  });

  it("reads days in UTC, whatever offset the timestamp carries", () => {
    // 00:30 in UK summer time on 31 March is 23:30 UTC on 30 March.
    const rows: HistoryRow[] = [{ retailerId: 1, totalPence: 999, recordedAt: "2026-03-31T00:30:00+01:00" }];
    expect(dailyLowest(rows, today).slice(-2).map((day) => day.lowestTotalPence)).toEqual([999, 999]);
    const atMidnight: HistoryRow[] = [{ retailerId: 1, totalPence: 999, recordedAt: "2026-03-31T00:00:00Z" }];
    expect(dailyLowest(atMidnight, today).slice(-2).map((day) => day.lowestTotalPence)).toEqual([null, 999]);
  });

  it("carries a price recorded before the window into its first day, and ignores rows after today", () => {
    const rows: HistoryRow[] = [
      { retailerId: 1, totalPence: 3000, recordedAt: "2025-06-01T12:00:00Z" },
      { retailerId: 1, totalPence: 2800, recordedAt: "2025-12-31T23:59:59.999Z" },
      { retailerId: 2, totalPence: 100, recordedAt: "2026-04-01T00:00:00Z" },
      { retailerId: 3, totalPence: 50, recordedAt: "not a date" },
    ];
    const result = dailyLowest(rows, today);
    expect(result[0]).toEqual({ day: firstDay, lowestTotalPence: 2800 });
    expect(result.every((day) => day.lowestTotalPence === 2800)).toBe(true);
  });

  it("drops a retailer from the day's lowest once it records out of stock, and gives null when none is in stock", () => {
    const rows: HistoryRow[] = [
      { retailerId: 1, totalPence: 1500, recordedAt: "2026-03-28T10:00:00Z" },
      { retailerId: 2, totalPence: 1800, recordedAt: "2026-03-28T10:00:00Z" },
      { retailerId: 1, totalPence: null, recordedAt: "2026-03-29T10:00:00Z" },
      { retailerId: 2, totalPence: null, recordedAt: "2026-03-30T10:00:00Z" },
      { retailerId: 2, totalPence: 1700, recordedAt: "2026-03-31T10:00:00Z" },
    ];
    expect(dailyLowest(rows, today).slice(-4).map((day) => day.lowestTotalPence)).toEqual([1500, 1800, null, 1700]);
  });

  it("keeps the in-stock price when a retailer seen before it goes out of stock, and skips rows whose time is not a date", () => {
    // Retailer 1 is in stock first; retailer 2's out-of-stock row must not blank the day's lowest.
    const rows: HistoryRow[] = [
      { retailerId: 1, totalPence: 1500, recordedAt: "2026-03-30T08:00:00Z" },
      { retailerId: 2, totalPence: null, recordedAt: "2026-03-30T09:00:00Z" },
      { retailerId: 3, totalPence: 900, recordedAt: "yesterday" },
      { retailerId: 2, totalPence: 1400, recordedAt: "2026-03-31T09:00:00Z" },
    ];
    expect(dailyLowest(rows, today).slice(-2).map((day) => day.lowestTotalPence)).toEqual([1500, 1400]);
  });

  it("refuses a today that is not a date", () => {
    for (const bad of ["2026-02-30", "31/03/2026", "2026-3-31", "", "2026-03-31T00:00:00Z"]) {
      expect(() => dailyLowest([], bad), bad).toThrow(new RangeError(`Not a YYYY-MM-DD date: ${bad}`));
    }
  });
});

describe("lowestIn90Days", () => {
  it("gives the least price of the window, with and without today", () => {
    expect(lowestIn90Days(days([...run(89, 2000), 1800]))).toEqual({ lowestPence: 1800, lowestBeforeTodayPence: 2000, isTodayLowest: true });
    expect(lowestIn90Days(days([1500, ...run(88, 2000), 1800]))).toEqual({ lowestPence: 1500, lowestBeforeTodayPence: 1500, isTodayLowest: false });
  });

  it("calls today the lowest when it equals the least of the other days too", () => {
    expect(lowestIn90Days(days([...run(45, 2000), 1800, ...run(43, 2000), 1800])).isTodayLowest).toBe(true);
    expect(lowestIn90Days(days([...run(45, 2000), 1799, ...run(43, 2000), 1800])).isTodayLowest).toBe(false);
  });

  it("looks at the last 90 days only: a lower price 91 days ago does not count", () => {
    const longer = [{ day: "2025-12-31", lowestTotalPence: 100 }, ...days([...run(89, 2000), 1800])];
    expect(lowestIn90Days(longer)).toEqual({ lowestPence: 1800, lowestBeforeTodayPence: 2000, isTodayLowest: true });
  });

  it("claims nothing unless the history reaches back the whole window", () => {
    // Priced from day 2 of the window only: a true minimum, but not of 90 days.
    expect(lowestIn90Days(days([...run(88, 2000), 1800]))).toEqual({ lowestPence: 1800, lowestBeforeTodayPence: 2000, isTodayLowest: false });
    // A window of fewer than 90 days.
    expect(lowestIn90Days(days([...run(89, 2000), 1800]).slice(1)).isTodayLowest).toBe(false);
    // Out of stock on the first day: wait rather than over-claim.
    expect(lowestIn90Days(days([null, ...run(88, 2000), 1800])).isTodayLowest).toBe(false);
    // Out of stock on a day in the middle does not matter.
    expect(lowestIn90Days(days([2000, null, ...run(87, 2000), 1800])).isTodayLowest).toBe(true);
  });

  it("never calls a day with nothing in stock the lowest", () => {
    expect(lowestIn90Days(days([...run(89, 2000), null]))).toEqual({ lowestPence: 2000, lowestBeforeTodayPence: 2000, isTodayLowest: false });
    expect(lowestIn90Days(days([]))).toEqual({ lowestPence: null, lowestBeforeTodayPence: null, isTodayLowest: false });
    expect(lowestIn90Days([])).toEqual({ lowestPence: null, lowestBeforeTodayPence: null, isTodayLowest: false });
  });
});

describe("typicalPrice", () => {
  it("is the median of the priced days, ignoring days with nothing in stock", () => {
    // 15 prices: 7 × 1000, 1500, 7 × 3000 → the 8th is 1500.
    expect(typicalPrice(days([...run(7, 1000), 1500, ...run(7, 3000)]))).toBe(1500);
    // Nulls between do not count as prices (nor as low ones).
    expect(typicalPrice(days([...run(7, 3000), ...run(20, null), 1500, ...run(7, 1000)]))).toBe(1500);
    // The order of the days does not matter: the 8th day is 3000, the 8th price of 15 in order 2000.
    expect(typicalPrice(days([3000, 1000, 3000, 1000, 2000, 3000, 1000, 3000, 2000, 1000, 2000, 3000, 1000, 2000, 1000]))).toBe(2000);
  });

  it("takes the mean of the two middle prices of an even count, a half penny rounded up", () => {
    // 14 prices: 7 × 1000 and 7 × 1001 → 1000.5 → 1001
    expect(typicalPrice(days([...run(7, 1000), ...run(7, 1001)]))).toBe(1001);
    // 7 × 1000 and 7 × 1003 → 1001.5 → 1002; 7 × 1000 and 7 × 1002 → 1001 exactly
    expect(typicalPrice(days([...run(7, 1003), ...run(7, 1000)]))).toBe(1002);
    expect(typicalPrice(days([...run(7, 1000), ...run(7, 1002)]))).toBe(1001);
    // The middle two are the 45th and 46th of 90.
    expect(typicalPrice(days([...run(44, 500), 1000, 2000, ...run(44, 9000)]))).toBe(1500);
  });

  it("needs at least 14 days with a price", () => {
    expect(typicalPrice(days(run(13, 1000)))).toBeNull();
    expect(typicalPrice(days([...run(13, 1000), ...run(50, null)]))).toBeNull();
    expect(typicalPrice(days(run(14, 1000)))).toBe(1000);
    expect(typicalPrice([])).toBeNull();
  });

  it("looks at the last 90 days only", () => {
    const old = Array.from({ length: 30 }, (_, index) => ({ day: `2025-11-${String(index + 1).padStart(2, "0")}`, lowestTotalPence: 100 }));
    expect(typicalPrice([...old, ...days(run(20, 2000))])).toBe(2000);
  });
});

describe("isDeal", () => {
  const typical2000 = days(run(30, 2000));

  it("is a deal at exactly 5% below the typical price, and not a penny above that", () => {
    // 2000 × 0.95 = 1900
    expect(isDeal(1900, typical2000)).toBe(true);
    expect(isDeal(1901, typical2000)).toBe(false);
    expect(isDeal(1500, typical2000)).toBe(true);
    expect(isDeal(2000, typical2000)).toBe(false);
  });

  it("holds the bound where 5% is not whole pence: 1999 × 0.95 = 1899.05", () => {
    const typical1999 = days(run(30, 1999));
    expect(isDeal(1899, typical1999)).toBe(true);
    expect(isDeal(1900, typical1999)).toBe(false);
  });

  it("is never a deal without a typical price or a price today", () => {
    expect(isDeal(1, days(run(13, 2000)))).toBe(false);
    // Not even a free item: with no typical price there is nothing to be below.
    expect(isDeal(0, days(run(13, 2000)))).toBe(false);
    expect(isDeal(null, typical2000)).toBe(false);
  });
});

describe("wasPrice", () => {
  // Six calendar months before 2026-11-27 is 2026-05-27.
  const today = "2026-11-27";
  const dayMs = 86_400_000;
  const plusDays = (day: string, count: number) => new Date(Date.parse(`${day}T00:00:00Z`) + count * dayMs).toISOString().slice(0, 10);
  /** Retailer `retailerId` charging `totalPence` (null: out of stock) from `time` on `day`. */
  const at = (day: string, totalPence: number | null, retailerId = 1, time = "00:00:00"): HistoryRow => ({ retailerId, totalPence, recordedAt: `${day}T${time}Z` });
  /** Today's best offer as historyTotals adds it: retailer 1 at 17.99 now. */
  const now = at(today, 1799, 1, "12:00:00");
  const was = (rows: HistoryRow[], todayPence: number | null = 1799, retailerId: number | null = 1) => wasPrice([...rows, now], retailerId, todayPence, today);

  it("needs 28 consecutive whole days at the price: 27 are not enough", () => {
    // 21.99 from midnight on 1 October; 17.99 from midnight on 29 October: 28 whole days.
    expect(was([at("2026-10-01", 2199), at("2026-10-29", 1799)])).toBe(2199);
    expect(was([at("2026-10-01", 2199), at("2026-10-28", 1799)])).toBeNull();
  });

  it("counts only whole days: the day a price starts or ends part-way is not a day at that price", () => {
    // Changed at 10:00 on 29 October: 1 to 28 October are still 28 whole days.
    expect(was([at("2026-10-01", 2199), at("2026-10-29", 1799, 1, "10:00:00")])).toBe(2199);
    // Started at 10:00 on 1 October: 2 to 28 October are 27.
    expect(was([at("2026-10-01", 2199, 1, "10:00:00"), at("2026-10-29", 1799)])).toBeNull();
    // A change and a change back within one day break the run there.
    expect(was([at("2026-10-01", 2199), at("2026-10-15", 2099, 1, "09:00:00"), at("2026-10-15", 2199, 1, "17:00:00"), at("2026-11-15", 1799)])).toBe(2199);
    expect(was([at("2026-10-01", 2199), at("2026-10-15", 2099, 1, "09:00:00"), at("2026-10-15", 2199, 1, "17:00:00"), at("2026-11-12", 1799)])).toBeNull();
  });

  it("is broken by a day out of stock or a day at another price", () => {
    const around = (middle: HistoryRow) => [at("2026-10-01", 2199), middle, at("2026-10-16", 2199), at("2026-10-30", 1799)];
    // 29 days at 21.99 with nothing between them qualify...
    expect(was([at("2026-10-01", 2199), at("2026-10-30", 1799)])).toBe(2199);
    // ...but not split 14 + 14 by a day out of stock, or by a day at 20.99.
    expect(was(around(at("2026-10-15", null)))).toBeNull();
    expect(was(around(at("2026-10-15", 2099)))).toBeNull();
    // Out of stock for one hour is out of stock that day.
    expect(was([at("2026-10-01", 2199), at("2026-10-15", null, 1, "11:00:00"), at("2026-10-15", 2199, 1, "12:00:00"), at("2026-10-30", 1799)])).toBeNull();
  });

  it("is ruled out by a higher price from that retailer between the run and today, not by a lower one or a spell out of stock", () => {
    const run = [at("2026-09-01", 2199), at("2026-10-01", 1799)];
    expect(was(run)).toBe(2199);
    expect(was([...run, at("2026-10-10", 2499), at("2026-10-13", 1799)])).toBeNull();
    // For an hour only, still a higher price charged.
    expect(was([...run, at("2026-10-10", 2499, 1, "09:00:00"), at("2026-10-10", 1799, 1, "10:00:00")])).toBeNull();
    // The same price again is not higher; a penny more is.
    expect(was([...run, at("2026-10-10", 2199), at("2026-10-13", 1799)])).toBe(2199);
    expect(was([...run, at("2026-10-10", 2200), at("2026-10-13", 1799)])).toBeNull();
    // A higher step that starts and ends exactly at midnight (no day part-way at it) still counts.
    expect(was([...run, at("2026-10-10", 2499), at("2026-10-15", 1799)])).toBeNull();
    expect(was([at("2026-09-01", 2199), at("2026-10-01", 2499), at("2026-10-05", 1799)])).toBeNull();
    // A lower step and a spell out of stock leave it standing.
    expect(was([...run, at("2026-10-10", 1999), at("2026-10-15", 1799)])).toBe(2199);
    expect(was([...run, at("2026-10-10", null), at("2026-10-20", 1799)])).toBe(2199);
    // Earlier today counts too.
    expect(wasPrice([...run, at(today, 2499, 1, "06:00:00"), now], 1, 1799, today)).toBeNull();
  });

  it("allows a run that ended exactly six calendar months before today, not six months and a day", () => {
    // 28 whole days, 30 April to 27 May, then 17.99.
    expect(was([at("2026-04-30", 2199), at("2026-05-28", 1799)])).toBe(2199);
    // 29 April to 26 May: the price was recorded before the first day the rule reads, and holds into it.
    expect(was([at("2026-04-29", 2199), at("2026-05-27", 1799)])).toBeNull();
    // A longer run ending on 27 May counts, however long ago it began.
    expect(was([at("2025-12-01", 2199), at("2026-05-28", 1799)])).toBe(2199);
    expect(was([at("2025-12-01", 2199), at("2026-05-27", 1799)])).toBeNull();
  });

  it("counts calendar months at a month end: six months before 31 August is 28 February", () => {
    const endOfAugust = (rows: HistoryRow[]) => wasPrice([...rows, at("2026-08-31", 1799, 1, "12:00:00")], 1, 1799, "2026-08-31");
    expect(endOfAugust([at("2026-02-01", 2199), at("2026-03-01", 1799)])).toBe(2199);
    expect(endOfAugust([at("2026-01-31", 2199), at("2026-02-28", 1799)])).toBeNull();
  });

  it("looks only at the retailer of today's best offer", () => {
    const rows = [at("2026-09-01", 2199, 2), at("2026-11-01", 1899, 2), at("2026-09-01", 1799, 1)];
    expect(was(rows)).toBeNull();
    // The same history read for retailer 2 has its run of 21.99 (above 17.99).
    expect(wasPrice(rows, 2, 1799, today)).toBe(2199);
    // A lower price at another retailer between the run and today does not matter either way.
    expect(was([at("2026-09-01", 2199), at("2026-10-01", 1799), at("2026-10-05", 2999, 2)])).toBe(2199);
  });

  it("takes the most recent qualifying run, not an older higher one; an older one when the recent run is too short", () => {
    const higherThenLower = [at("2026-07-01", 2499), at("2026-08-15", 2199), at("2026-09-20", 1799)];
    expect(was(higherThenLower)).toBe(2199);
    // 21.99 for 20 days only: the 24.99 before it stands (nothing higher since).
    expect(was([at("2026-07-01", 2499), at("2026-08-15", 2199), at("2026-09-04", 1799)])).toBe(2499);
    // A lower run after a higher one still comes first, however long the older one was.
    expect(was([at("2026-06-01", 2999), at("2026-09-01", 2099), at("2026-10-01", 1799)])).toBe(2099);
  });

  it("gives nothing at or below today's price, and then looks further back", () => {
    expect(was([at("2026-09-01", 1799)])).toBeNull();
    expect(was([at("2026-09-01", 1699), at("2026-10-15", 1799)])).toBeNull();
    // A penny above today's price is a was price.
    expect(was([at("2026-09-01", 1800), at("2026-10-15", 1799)])).toBe(1800);
    // 21.99 for 30 days, then 17.99 for 30 days: the recent run is today's price, the older one the was price.
    expect(was([at("2026-08-01", 2199), at("2026-08-31", 1799), at("2026-09-30", 1999), at("2026-10-01", 1799)])).toBe(2199);
  });

  it("gives nothing without a best offer today, and ignores rows after today or without a date", () => {
    const run = [at("2026-09-01", 2199), at("2026-10-01", 1799)];
    expect(was(run, null)).toBeNull();
    expect(was(run, 1799, null)).toBeNull();
    expect(was([...run, at(plusDays(today, 1), 2999)])).toBe(2199);
    expect(was([...run, { retailerId: 1, totalPence: 2999, recordedAt: "not a date" }])).toBe(2199);
    // Of two rows at the same instant, the later one holds.
    expect(was([at("2026-09-01", 2199), at("2026-09-01", 2099), at("2026-10-01", 1799)])).toBe(2099);
  });

  it("refuses a today that is not a date", () => {
    expect(() => wasPrice([], 1, 1799, "2026-02-30")).toThrow(RangeError);
    expect(() => wasPriceFirstDay("27/11/2026")).toThrow(RangeError);
  });
});

describe("wasPriceFirstDay", () => {
  it("is the first day of 28 ending six calendar months before today", () => {
    expect(wasPriceMinDays).toBe(28);
    expect(wasPriceFirstDay("2026-11-27")).toBe("2026-04-30");
    expect(wasPriceFirstDay("2026-08-31")).toBe("2026-02-01");
  });
});

describe("alertFires", () => {
  const state = (more: Partial<AlertState>): AlertState => ({ currentPence: 1800, referencePence: 2000, wasInStock: true, lowest90ExcludingTodayPence: 1500, ...more });

  it("fires a target alert at or below the target", () => {
    expect(alertFires({ kind: "target", targetPence: 1800 }, state({}))).toBe(true);
    expect(alertFires({ kind: "target", targetPence: 1799 }, state({}))).toBe(false);
    expect(alertFires({ kind: "target", targetPence: 5000 }, state({ currentPence: null }))).toBe(false);
  });

  it("fires a 10% drop alert set at £20.00 at £18.00 exactly, not at £18.01", () => {
    expect(alertFires({ kind: "drop", percent: 10 }, state({ currentPence: 1800 }))).toBe(true);
    expect(alertFires({ kind: "drop", percent: 10 }, state({ currentPence: 1801 }))).toBe(false);
    expect(alertFires({ kind: "drop", percent: 10 }, state({ currentPence: 1500 }))).toBe(true);
  });

  it("holds a drop bound that is not whole pence, and fractional percents", () => {
    // 15% off £19.99 = 1699.15: 1699 fires, 1700 does not.
    expect(alertFires({ kind: "drop", percent: 15 }, state({ currentPence: 1699, referencePence: 1999 }))).toBe(true);
    expect(alertFires({ kind: "drop", percent: 15 }, state({ currentPence: 1700, referencePence: 1999 }))).toBe(false);
    // 12.5% off £20.00 = £17.50.
    expect(alertFires({ kind: "drop", percent: 12.5 }, state({ currentPence: 1750 }))).toBe(true);
    expect(alertFires({ kind: "drop", percent: 12.5 }, state({ currentPence: 1751 }))).toBe(false);
  });

  it("does not fire a drop alert without a reference, a price, or a percent between 0 and 100", () => {
    expect(alertFires({ kind: "drop", percent: 10 }, state({ referencePence: null }))).toBe(false);
    expect(alertFires({ kind: "drop", percent: 10 }, state({ referencePence: null, currentPence: 0 }))).toBe(false);
    expect(alertFires({ kind: "drop", percent: 10 }, state({ currentPence: null }))).toBe(false);
    for (const percent of [0, -5, 100, 150, Number.NaN]) {
      expect(alertFires({ kind: "drop", percent }, state({ currentPence: 0 })), String(percent)).toBe(false);
    }
  });

  it("fires back-in-stock only when nothing was in stock and something is now", () => {
    expect(alertFires({ kind: "back-in-stock" }, state({ wasInStock: false }))).toBe(true);
    expect(alertFires({ kind: "back-in-stock" }, state({ wasInStock: true }))).toBe(false);
    expect(alertFires({ kind: "back-in-stock" }, state({ wasInStock: false, currentPence: null }))).toBe(false);
  });

  it("fires lowest-90 only strictly below the least price of the 90 days before today", () => {
    expect(alertFires({ kind: "lowest-90" }, state({ currentPence: 1499 }))).toBe(true);
    expect(alertFires({ kind: "lowest-90" }, state({ currentPence: 1500 }))).toBe(false);
    expect(alertFires({ kind: "lowest-90" }, state({ currentPence: 1499, lowest90ExcludingTodayPence: null }))).toBe(false);
    expect(alertFires({ kind: "lowest-90" }, state({ currentPence: null }))).toBe(false);
  });

  it("works with lowestIn90Days: today's new low fires against the days before it", () => {
    const { lowestBeforeTodayPence } = lowestIn90Days(days([...run(89, 2000), 1800]));
    expect(alertFires({ kind: "lowest-90" }, state({ currentPence: 1800, lowest90ExcludingTodayPence: lowestBeforeTodayPence }))).toBe(true);
  });
});
