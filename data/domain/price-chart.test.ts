import { describe, expect, it } from "vitest";
import { defaultChartPadding, pointsToDoor, priceChart, retailerStyle, retailerStyles, type ChartPoint } from "./price-chart.ts";
import type { OfferPricing } from "./offers.ts";

const now = new Date("2026-03-31T12:00:00Z");
const dayMs = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(now.getTime() - days * dayMs).toISOString();
const point = (retailerName: string, pricePence: number, ago: number): ChartPoint => ({ retailerName, pricePence, recordedAt: daysAgo(ago) });

// 100 days over a 500-wide plot (60..560) makes 5 units a day; 200 high plot (12..212).
const size = { now, days: 100, width: 576, height: 240 };
const plot = { left: 60, right: 560, top: 12, bottom: 212 };
const xAt = (ago: number) => plot.left + ((100 - ago) / 100) * (plot.right - plot.left);

describe("priceChart", () => {
  it("draws no lines for no points, but keeps its size and date axis", () => {
    const chart = priceChart([], size);
    expect(chart.lines).toEqual([]);
    expect(chart.yTicks).toEqual([]);
    expect(chart.minPence).toBeNull();
    expect(chart.maxPence).toBeNull();
    expect(chart.width).toBe(576);
    expect(chart.height).toBe(240);
    expect(chart.plot).toEqual(plot);
    expect(chart.xTicks.length).toBeGreaterThan(1);
  });

  it("draws a step line: each price holds until the next change, and the last runs to now", () => {
    const chart = priceChart([point("Amazon", 1000, 80), point("Amazon", 2000, 40), point("Amazon", 1500, 20)], size);
    // Prices 1000..2000: £2 steps, so the axis runs £10..£20 over 200 units (y = 212 - (p - 1000) / 5).
    expect(chart.minPence).toBe(1000);
    expect(chart.maxPence).toBe(2000);
    expect(chart.lines).toHaveLength(1);
    const line = chart.lines[0]!;
    expect(line.path).toBe(`M${xAt(80)},212H${xAt(40)}V12H${xAt(20)}V112H${plot.right}`);
    expect(line.lastPricePence).toBe(1500);
    expect(line.lowestPence).toBe(1000);
  });

  it("scales prices onto round price ticks from the bottom of the plot to the top", () => {
    const chart = priceChart([point("Amazon", 1000, 80), point("Amazon", 2000, 40)], size);
    expect(chart.yTicks.map((tick) => tick.label)).toEqual(["£10.00", "£12.00", "£14.00", "£16.00", "£18.00", "£20.00"]);
    expect(chart.yTicks[0]!.y).toBe(plot.bottom);
    expect(chart.yTicks.at(-1)!.y).toBe(plot.top);
    expect(chart.yTicks.map((tick) => tick.y)).toEqual([212, 172, 132, 92, 52, 12]);
  });

  it("puts the price axis on round values just outside the prices", () => {
    const chart = priceChart([point("Zooplus", 1849, 30), point("Zooplus", 2399, 10)], size);
    const labels = chart.yTicks.map((tick) => tick.label);
    expect(labels[0]).toBe("£18.00");
    expect(labels.at(-1)).toBe("£24.00");
    for (const tick of chart.yTicks) {
      expect(tick.y).toBeGreaterThanOrEqual(plot.top);
      expect(tick.y).toBeLessThanOrEqual(plot.bottom);
    }
  });

  it("spaces date ticks evenly from the window's start to now, labelled '12 Oct' style in UK time", () => {
    const chart = priceChart([point("eBay", 999, 5)], size);
    expect(chart.xTicks.map((tick) => tick.x)).toEqual([60, 185, 310, 435, 560]);
    expect(chart.xTicks[0]!.label).toBe("21 Dec");
    expect(chart.xTicks.at(-1)!.label).toBe("31 Mar");
    expect(chart.xTicks.every((tick) => /^\d{1,2} [A-Z][a-z]{2,3}$/.test(tick.label))).toBe(true);
  });

  it("uses fewer date ticks on a narrow chart", () => {
    expect(priceChart([], { ...size, width: 340 }).xTicks).toHaveLength(3);
  });

  it("carries the last point before the window in at the left edge and drops older ones", () => {
    const chart = priceChart([point("Jollyes", 500, 200), point("Jollyes", 3000, 150), point("Jollyes", 1000, 50)], size);
    const line = chart.lines[0]!;
    // The 200-day-old £5 point is gone; the £30 price (set 150 days ago) held at the left edge.
    expect(chart.minPence).toBe(1000);
    expect(chart.maxPence).toBe(3000);
    expect(line.path.startsWith(`M${plot.left},${plot.top}H${xAt(50)}V`)).toBe(true);
    expect(line.lowestPence).toBe(1000);
  });

  it("draws a single old point as a flat line across the whole window", () => {
    const chart = priceChart([point("Pets at Home", 1299, 400)], size);
    const line = chart.lines[0]!;
    // Flat at £12.99: the axis gets a band around it (£12.00..£14.00), the line sits inside.
    expect(line.path).toMatch(new RegExp(`^M${plot.left},[\\d.]+H${plot.right}$`));
    const y = Number(/^M[\d.]+,([\d.]+)H/.exec(line.path)![1]);
    expect(y).toBeGreaterThan(plot.top);
    expect(y).toBeLessThan(plot.bottom);
    expect(line.lastPricePence).toBe(1299);
  });

  it("draws a single recent point from its own day to now", () => {
    const chart = priceChart([point("Amazon", 1299, 10)], size);
    expect(chart.lines[0]!.path).toMatch(new RegExp(`^M${xAt(10)},[\\d.]+H${plot.right}$`));
  });

  it("ignores points after now and unreadable dates", () => {
    const chart = priceChart(
      [point("Amazon", 1000, 10), { retailerName: "Amazon", pricePence: 9999, recordedAt: daysAgo(-1) }, { retailerName: "Amazon", pricePence: 1, recordedAt: "soon" }],
      size,
    );
    expect(chart.maxPence).toBe(1000);
    expect(chart.minPence).toBe(1000);
    expect(chart.lines[0]!.lastPricePence).toBe(1000);
  });

  it("sorts points by time whatever order they arrive in", () => {
    const inOrder = priceChart([point("Amazon", 1000, 80), point("Amazon", 2000, 40)], size);
    const reversed = priceChart([point("Amazon", 2000, 40), point("Amazon", 1000, 80)], size);
    expect(reversed.lines).toEqual(inOrder.lines);
  });

  it("gives one line per retailer, in a fixed legend order, each with its own colour", () => {
    const chart = priceChart(
      [point("eBay", 1100, 3), point("Amazon", 1000, 5), point("Zooplus", 1200, 5), point("Pets at Home", 1050, 5), point("Jollyes", 990, 5)],
      size,
    );
    expect(chart.lines.map((line) => line.retailerName)).toEqual(["Amazon", "Pets at Home", "Jollyes", "Zooplus", "eBay"]);
    expect(new Set(chart.lines.map((line) => line.color)).size).toBe(5);
    expect(chart.lines.find((line) => line.retailerName === "Jollyes")!.lowestPence).toBe(990);
  });

  it("keeps every line inside the plot", () => {
    const chart = priceChart([point("Amazon", 1, 90), point("Amazon", 99999, 30), point("eBay", 500, 60)], size);
    for (const line of chart.lines) {
      for (const [, value] of line.path.matchAll(/[MHV,]([\d.]+)/g)) expect(Number(value)).toBeGreaterThanOrEqual(0);
      const xs = [...line.path.matchAll(/[MH]([\d.]+)/g)].map((m) => Number(m[1]));
      const ys = [...line.path.matchAll(/(?:,|V)([\d.]+)/g)].map((m) => Number(m[1]));
      expect(Math.min(...xs)).toBeGreaterThanOrEqual(plot.left);
      expect(Math.max(...xs)).toBeLessThanOrEqual(plot.right);
      expect(Math.min(...ys)).toBeGreaterThanOrEqual(plot.top);
      expect(Math.max(...ys)).toBeLessThanOrEqual(plot.bottom);
    }
  });

  it("uses the default padding unless given other padding", () => {
    expect(defaultChartPadding).toEqual({ top: 12, right: 16, bottom: 28, left: 60 });
    const chart = priceChart([], { ...size, padding: { top: 0, right: 0, bottom: 0, left: 0 } });
    expect(chart.plot).toEqual({ left: 0, top: 0, right: 576, bottom: 240 });
  });
});

describe("pointsToDoor", () => {
  const offer = (retailerId: number, over: Partial<OfferPricing> = {}): OfferPricing => ({
    retailerId,
    pricePence: 3900,
    inStock: true,
    priceOverride: false,
    manualPricePence: null,
    ...over,
  });
  const at = (retailerId: number, pricePence: number, ago: number) => ({ retailerId, retailerName: `Shop ${retailerId}`, pricePence, recordedAt: daysAgo(ago) });

  it("adds the delivery each recorded price carries at its offer today, across the free-delivery threshold", () => {
    const rule = { standardPence: 399, freeFromPence: 3900 };
    const offers = [offer(1, { deliveryRule: rule }), offer(2, { deliveryPence: 250 }), offer(3, { freeDelivery: true, deliveryRule: rule })];
    expect(pointsToDoor([at(1, 3899, 20), at(1, 3900, 5), at(2, 1000, 20), at(3, 1000, 20)], offers).map((point) => point.pricePence)).toEqual([4298, 3900, 1250, 1000]);
  });

  it("keeps each point's retailer and time, and leaves out a retailer the product has no offer at", () => {
    expect(pointsToDoor([at(1, 1000, 20), at(9, 500, 10)], [offer(1)])).toEqual([{ ...at(1, 1000, 20) }]);
  });

  it("makes a line end at the offer's total to the door", () => {
    const offers = [offer(1, { pricePence: 1000, deliveryPence: 299 })];
    const chart = priceChart(pointsToDoor([at(1, 1200, 40), at(1, 1000, 10)], offers), size);
    expect(chart.lines.map((line) => [line.lastPricePence, line.lowestPence])).toEqual([[1299, 1299]]);
  });
});

describe("retailerStyle", () => {
  it("gives the five compared retailers fixed, distinct colours, whatever the spelling", () => {
    const colours = ["Amazon", "Pets at Home", "Jollyes", "Zooplus", "eBay"].map((name) => retailerStyle(name).color);
    expect(new Set(colours).size).toBe(5);
    expect(retailerStyle("Amazon UK")).toEqual(retailerStyle("amazon"));
    expect(retailerStyle("ebay.co.uk")).toEqual(retailerStyle("eBay"));
  });

  it("gives any other retailer a stable colour", () => {
    expect(retailerStyle("Viovet")).toEqual(retailerStyle("Viovet"));
    expect(retailerStyles.map((style) => style.color)).not.toContain(retailerStyle("Viovet").color);
  });

  it("only uses colours with at least 4.5:1 contrast on white", () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const v = parseInt(hex.slice(i, i + 2), 16) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const names = ["Amazon", "Pets at Home", "Jollyes", "Zooplus", "eBay", "Viovet", "Fetch", "Petplanet", "VetUK", "Other"];
    for (const name of names) expect(1.05 / (luminance(retailerStyle(name).color) + 0.05)).toBeGreaterThanOrEqual(4.5);
  });
});
