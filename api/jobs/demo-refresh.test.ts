/**
 * The demo refresher over a real SQLite file seeded with the demo catalogue, on an injected clock:
 * a simulated week of daily runs with the stale sweep, the hourly schedule's rule over a week,
 * nothing to do without a demo, and the server's services running it at start.
 */
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { demoRecheckAfterMs, demoRefreshDue, refreshDemoOffers, startDemoRefresh } from "./demo-refresh.ts";
import { createServices } from "../services.ts";
import { createMailer } from "../mail/mailer.ts";
import { clearDemoCatalogue } from "../../data/db/demo.ts";
import { dealFactsFor } from "../../data/db/deal-facts.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { readOfferPricing } from "../../data/db/offer-pricing.ts";
import { markStaleOffers } from "../../data/db/price-writer.ts";
import { monthsBeforeDay, ukToday } from "../../data/domain/dates.ts";
import { historyTotals, utcDay, type ItemPricePoint } from "../../data/domain/deal-facts.ts";

const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;
/** The simulated start: the demo was seeded (and its offers confirmed) then. */
const t0 = new Date("2026-06-01T09:00:00.000Z");
/** The freshness window the lead's rule uses: a price counts only when confirmed within 24 hours. */
const windowMs = dayMs;

let temp: TempDb;
beforeEach(async () => {
  temp = await tempDb(60, t0);
  temp.db.$client.prepare("UPDATE product_prices SET last_checked_at = ?").run(t0.toISOString());
});
afterEach(() => temp.remove());

const rows = <T>(sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).all(...params) as T[];
const count = (sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).pluck().get(...params) as number;

interface OfferState {
  product_id: number;
  retailer_id: number;
  price_pence: number;
  original_price_pence: number | null;
  in_stock: number;
  last_checked_at: string;
  stale: number;
}
const offers = () =>
  rows<OfferState>("SELECT product_id, retailer_id, price_pence, original_price_pence, in_stock, last_checked_at, stale FROM product_prices WHERE source = 'demo' ORDER BY id");
const key = (offer: { product_id: number; retailer_id: number }) => `${offer.product_id}:${offer.retailer_id}`;

/** Offers not confirmed within the window before `now`: what a 24-hour stale rule would mark. */
const unconfirmedWithin = (now: Date, ms: number) =>
  count("SELECT count(*) FROM product_prices WHERE source = 'demo' AND coalesce(last_checked_at, updated_at) < ?", new Date(now.getTime() - ms).toISOString());

describe("the demo refresher over a simulated week", () => {
  it("keeps every demo offer confirmed, best prices standing, a history point for each day's move, and deal facts the rule allows", () => {
    let before = new Map(offers().map((offer) => [key(offer), offer]));
    const stock = new Map([...before].map(([k, offer]) => [k, offer.in_stock]));
    let moves = 0;
    for (let day = 1; day <= 7; day++) {
      const now = new Date(t0.getTime() + day * dayMs);
      const historyBefore = count("SELECT count(*) FROM price_history");
      const { value, change } = refreshDemoOffers(temp.db, now);
      expect(markStaleOffers(temp.db, now).value.marked, `day ${day}`).toBe(0);

      const after = offers();
      expect(value.checked).toBe(after.length);
      expect(value.held).toBe(0);
      // Confirmed now: within any freshness window of 24 hours or more, none stale.
      expect(unconfirmedWithin(now, windowMs)).toBe(0);
      expect(after.every((offer) => offer.last_checked_at === now.toISOString() && offer.stale === 0)).toBe(true);
      // Stock as it was; a stated was-price only above the price.
      expect(after.every((offer) => offer.in_stock === stock.get(key(offer)))).toBe(true);
      expect(after.filter((offer) => offer.original_price_pence !== null && offer.original_price_pence <= offer.price_pence)).toEqual([]);

      // One history point at `now` for each offer whose price moved, at its new price; none for the others.
      const moved = after.filter((offer) => offer.price_pence !== before.get(key(offer))!.price_pence);
      const points = rows<{ product_id: number; retailer_id: number; price_pence: number }>(
        "SELECT product_id, retailer_id, price_pence FROM price_history WHERE recorded_at = ? ORDER BY product_id, retailer_id",
        now.toISOString(),
      );
      expect(points.map((point) => `${key(point)}=${point.price_pence}`).sort()).toEqual(moved.map((offer) => `${key(offer)}=${offer.price_pence}`).sort());
      expect(count("SELECT count(*) FROM price_history") - historyBefore).toBe(moved.length);
      expect(value.changed).toBe(moved.length);
      // Each move is small: within 3% of the day before, or back to an earlier price.
      for (const offer of moved) {
        const was = before.get(key(offer))!.price_pence;
        const earlier = rows<{ price_pence: number }>(
          "SELECT price_pence FROM price_history WHERE product_id = ? AND retailer_id = ? AND recorded_at < ?",
          offer.product_id,
          offer.retailer_id,
          now.toISOString(),
        ).map((row) => row.price_pence);
        expect(Math.abs(offer.price_pence - was) <= was * 0.03 || earlier.includes(offer.price_pence), `${key(offer)} ${was} -> ${offer.price_pence}`).toBe(true);
      }
      moves += moved.length;
      // Every product confirmed changed its page.
      expect(change.productIds.length).toBe(new Set(after.map((offer) => offer.product_id)).size);

      // Every product with an in-stock offer keeps a best price.
      expect(count("SELECT count(*) FROM products p WHERE best_price_pence IS NULL AND EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id AND pp.in_stock = 1)")).toBe(0);

      // Deal facts derive, and agree with the stored best and was prices.
      const facts = dealFactsFor(temp.db, null, now);
      const stored = rows<{ id: number; best: number | null; was: number | null }>("SELECT id, best_price_pence AS best, original_price_pence AS was FROM products");
      for (const product of stored) {
        expect(facts.get(product.id)?.todayPence ?? null, `product ${product.id}`).toBe(product.best);
        expect(facts.get(product.id)?.wasPence ?? null, `product ${product.id}`).toBe(product.was);
      }
      // No invented was-price: each one is above today's, and the best offer's own retailer charged it (to the door) over
      // 28 whole days or more ending no more than six months ago, with nothing higher since.
      const pricing = readOfferPricing(temp.db, null);
      const withWas = stored.filter((p) => p.was !== null);
      expect(withWas.length, `day ${day}`).toBeGreaterThan(0);
      const retailerOf = new Map(rows<{ id: number; retailer: number }>("SELECT id, best_retailer_id AS retailer FROM products").map((p) => [p.id, p.retailer]));
      const oldest = Date.parse(`${monthsBeforeDay(utcDay(now), 6)}T00:00:00Z`);
      for (const product of withWas) {
        expect(product.was!, `product ${product.id}`).toBeGreaterThan(product.best!);
        const retailer = retailerOf.get(product.id)!;
        const steps = historyTotals(
          rows<ItemPricePoint>("SELECT retailer_id AS retailerId, price_pence AS pricePence, recorded_at AS recordedAt FROM price_history WHERE product_id = ? AND retailer_id = ? ORDER BY recorded_at, id", product.id, retailer),
          pricing.get(product.id)!.filter((offer) => offer.retailerId === retailer),
          now,
        ).map((row) => ({ total: row.totalPence, time: Date.parse(row.recordedAt) }));
        const runs = steps.slice(0, -1).flatMap((step, i) => {
          // Whole days from the midnight after the price was set to the midnight before it changed.
          const firstDay = Math.ceil(step.time / dayMs) * dayMs;
          const end = Math.floor(steps[i + 1]!.time / dayMs) * dayMs;
          return step.total === product.was && end - firstDay >= 28 * dayMs && end - dayMs >= oldest ? [i] : [];
        });
        expect(runs.length, `product ${product.id}`).toBeGreaterThan(0);
        expect(Math.max(...steps.slice(runs.at(-1)! + 1).map((step) => step.total ?? 0)), `product ${product.id}`).toBeLessThanOrEqual(product.was!);
      }
      before = new Map(after.map((offer) => [key(offer), offer]));
    }
    // The prices moved: about half the offers each day.
    expect(moves).toBeGreaterThan(before.size * 7 * 0.3);
    expect(moves).toBeLessThan(before.size * 7 * 0.7);
  });

  it("moves a price once a UK day: a second check the same day repeats it and only confirms", () => {
    const morning = new Date("2026-06-02T06:00:00.000Z");
    refreshDemoOffers(temp.db, morning);
    const first = offers();
    const evening = new Date("2026-06-02T20:30:00.000Z");
    const { value } = refreshDemoOffers(temp.db, evening);
    expect(value.changed).toBe(0);
    expect(offers()).toEqual(first.map((offer) => ({ ...offer, last_checked_at: evening.toISOString() })));
    // The next UK day (it starts at 23:00 UTC in summer) moves again.
    const nextDay = new Date("2026-06-02T23:30:00.000Z");
    expect(ukToday(nextDay)).toBe("2026-06-03");
    expect(refreshDemoOffers(temp.db, nextDay).value.changed).toBeGreaterThan(0);
  });

  it("is reproducible: the same demo on the same days moves to the same prices", async () => {
    const run = async () => {
      const other = await tempDb(60, t0);
      try {
        other.db.$client.prepare("UPDATE product_prices SET last_checked_at = ?").run(t0.toISOString());
        for (let day = 1; day <= 3; day++) refreshDemoOffers(other.db, new Date(t0.getTime() + day * dayMs));
        return other.db.$client.prepare("SELECT product_id, retailer_id, price_pence FROM product_prices ORDER BY id").all();
      } finally {
        other.remove();
      }
    };
    expect(await run()).toEqual(await run());
  });
});

describe("the demo refresher's schedule", () => {
  it("looked at hourly for a week: confirmations never a day apart, and one move per UK day", () => {
    let clock = new Date(t0.getTime() + 5 * 60_000);
    const changes: number[] = [];
    const schedule = startDemoRefresh({ db: temp.db, catalogueChanged: (change) => changes.push(change.productIds.length), intervalMs: 0, now: () => clock, log: () => {} });
    const confirmations: Date[] = [t0];
    for (let hour = 0; hour < 7 * 24; hour++) {
      clock = new Date(clock.getTime() + hourMs);
      const counts = schedule.runIfDue();
      expect(counts === null, clock.toISOString()).toBe(!(clock.getTime() - confirmations.at(-1)!.getTime() >= demoRecheckAfterMs));
      if (counts !== null) confirmations.push(clock);
      expect(unconfirmedWithin(clock, windowMs), clock.toISOString()).toBe(0);
    }
    schedule.stop();
    const gaps = confirmations.slice(1).map((at, index) => at.getTime() - confirmations[index]!.getTime());
    expect(Math.max(...gaps)).toBeLessThan(dayMs);
    expect(changes).toHaveLength(confirmations.length - 1);
    // Each UK day of the week has a confirmation, and its price points all come from the day's first one.
    const days = [...new Set(confirmations.map((at) => ukToday(at)))];
    expect(days).toHaveLength(8);
    const pointDays = rows<{ at: string }>("SELECT DISTINCT recorded_at AS at FROM price_history WHERE recorded_at > ?", t0.toISOString()).map((row) => row.at);
    for (const day of days.slice(1)) {
      const firstOfDay = confirmations.find((at) => ukToday(at) === day)!.toISOString();
      expect(pointDays.filter((at) => ukToday(new Date(at)) === day), day).toEqual([firstOfDay]);
    }
  });

  it("does nothing without a demo: no check, no write, not due", () => {
    clearDemoCatalogue(temp.db, t0);
    const audits = count("SELECT count(*) FROM audit_log");
    const later = new Date(t0.getTime() + 3 * dayMs);
    expect(demoRefreshDue(temp.db, later)).toBe(false);
    expect(refreshDemoOffers(temp.db, later)).toEqual({ value: { checked: 0, changed: 0, held: 0, missing: 0 }, change: { productIds: [], categoryIds: [], siteWide: false } });
    const changes: unknown[] = [];
    const schedule = startDemoRefresh({ db: temp.db, catalogueChanged: (change) => changes.push(change), intervalMs: 0, now: () => later });
    expect(schedule.runIfDue()).toBeNull();
    schedule.stop();
    expect(changes).toEqual([]);
    expect(count("SELECT count(*) FROM audit_log")).toBe(audits);
  });

  it("runs in the server's services: offers confirmed 21 hours ago are confirmed shortly after start, and close() stops it", async () => {
    const stale = new Date(Date.now() - 21 * hourMs).toISOString();
    temp.db.$client.prepare("UPDATE product_prices SET last_checked_at = ?").run(stale);
    const dir = path.dirname(temp.file);
    const builds: unknown[] = [];
    const lines: string[] = [];
    const services = await createServices({
      databaseFile: temp.file,
      prepare: false,
      mailer: createMailer({ smtpUrl: undefined, from: "PawPrice <alerts@pawprice.example>", outboxDir: path.join(dir, "outbox") }),
      alertsOnChange: false,
      refreshCron: null,
      site: { request: (change) => builds.push(change), status: () => ({ state: "idle", lastBuild: null }) },
      log: (line) => lines.push(line),
    });
    try {
      await vi.waitFor(() => expect(count("SELECT count(*) FROM product_prices WHERE last_checked_at = ?", stale)).toBe(0), { timeout: 5000, interval: 50 });
      expect(builds).toHaveLength(1);
      expect(lines.some((line) => /^Demo prices confirmed: \d+ offers checked, \d+ moved$/.test(line))).toBe(true);
    } finally {
      await services.close();
    }
  });
});
