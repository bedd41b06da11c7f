/**
 * The product page's price-history chart, as plain numbers and SVG path text: one step line per
 * retailer over the last N days, with price and date ticks. Pure, so the static build renders
 * it as inline SVG with no JavaScript and a test can check every coordinate. The page charts
 * prices to the door (pointsToDoor), the basis its retailer table ranks on.
 */
import { formatPence, type Pence } from "./money.ts";
import { offerTotalAt, type OfferPricing } from "./offers.ts";
import { registryEntryByName, retailerRegistry } from "./retailers.ts";

/** One recorded price of one offer (a row of price_history with its retailer's name). */
export interface HistoryPoint {
  retailerId: number;
  retailerName: string;
  pricePence: Pence;
  /** ISO-8601 UTC. */
  recordedAt: string;
}

export type ChartPoint = Pick<HistoryPoint, "retailerName" | "pricePence" | "recordedAt">;

/**
 * The points as prices to the door: each recorded item price plus the delivery that price
 * carries at its offer today (offerTotalAt: the offer's own delivery, else free when marked, else
 * its retailer's rule at that price), as the retailer table ranks offers and the deal facts count
 * the history. So a line ends at its offer's total in the table. A retailer the product has no
 * offer at is left out.
 * @example pointsToDoor([{ retailerId: 1, retailerName: "Zooplus", pricePence: 1000, recordedAt }], [offer at retailer 1 with £2.99 delivery])[0].pricePence // 1299
 */
export function pointsToDoor(points: readonly HistoryPoint[], offers: readonly OfferPricing[]): HistoryPoint[] {
  const offerAt = new Map(offers.map((offer) => [offer.retailerId, offer]));
  const converted: HistoryPoint[] = [];
  for (const point of points) {
    const offer = offerAt.get(point.retailerId);
    if (offer !== undefined) converted.push({ ...point, pricePence: offerTotalAt(offer, point.pricePence) });
  }
  return converted;
}

export interface ChartPadding {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface PriceChartOptions {
  now: Date;
  /** Width of the window, ending at `now`. */
  days: number;
  width: number;
  height: number;
  /** Room around the plot for the axis labels; defaults to `defaultChartPadding`. */
  padding?: ChartPadding;
}

export interface ChartLine {
  retailerName: string;
  color: string;
  /** SVG stroke-dasharray: lines differ in pattern as well as colour. Empty for solid. */
  dash: string;
  /** A step line: each price holds (H) until the next change (V), and the last one runs to now. */
  path: string;
  /** The price at `now`. */
  lastPricePence: Pence;
  /** The lowest price the retailer charged within the window (a carried-in price counts). */
  lowestPence: Pence;
}

export interface PriceChart {
  width: number;
  height: number;
  /** The plot area inside the padding. */
  plot: { left: number; top: number; right: number; bottom: number };
  lines: ChartLine[];
  yTicks: { y: number; label: string }[];
  xTicks: { x: number; label: string }[];
  /** Range of the prices drawn; null when there is nothing to draw. */
  minPence: Pence | null;
  maxPence: Pence | null;
}

/** Room for axis labels drawn inside the SVG, left and below the plot. */
export const defaultChartPadding: ChartPadding = { top: 12, right: 16, bottom: 28, left: 60 };

/**
 * For a chart that stretches to its container with its labels drawn in HTML beside it
 * (site/components/PriceHistoryChart.astro): the plot fills the width, with a little room
 * above and below so the top and bottom lines are not cut in half.
 */
export const fluidChartPadding: ChartPadding = { top: 8, right: 0, bottom: 8, left: 0 };

const dayMs = 24 * 60 * 60 * 1000;

interface RetailerStyle {
  color: string;
  dash: string;
}

/** The registry's retailers with a chart style of their own (the compared ones), in legend order. */
const styledRetailers = retailerRegistry.filter((entry) => entry.style !== null);

/** Those retailers' styles, in legend order. */
export const retailerStyles: readonly RetailerStyle[] = styledRetailers.map((entry) => entry.style!);

/** Any other retailer: a stable pick from further AA colours (at least 5:1 on white). */
const otherStyles: readonly RetailerStyle[] = [
  { color: "#6d28d9", dash: "5 3" },
  { color: "#be123c", dash: "1 3" },
  { color: "#0e7490", dash: "8 3 1 3" },
  { color: "#4b5563", dash: "4 4" },
];


/**
 * The line colour and dash pattern of a retailer, the same on every page.
 * @example retailerStyle("Pets at Home") // { color: "#0072b2", dash: "" }
 * @example retailerStyle("Amazon UK").color // "#b45309"
 */
export function retailerStyle(retailerName: string): { color: string; dash: string } {
  const known = registryEntryByName(retailerName)?.style;
  if (known) return { color: known.color, dash: known.dash };
  const token = retailerName.toLowerCase().replace(/[^a-z]/g, "");
  let hash = 0;
  for (const char of token) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const other = otherStyles[hash % otherStyles.length]!;
  return { color: other.color, dash: other.dash };
}

/** Legend order: the five compared retailers first, in a fixed order, then others by name. */
function styleOrder(retailerName: string): number {
  const entry = registryEntryByName(retailerName);
  const index = entry === undefined ? -1 : styledRetailers.indexOf(entry);
  return index === -1 ? styledRetailers.length : index;
}

/** Step between price ticks: 1, 2 or 5 times a power of ten pence, giving at most `maxSteps` steps. */
function niceStep(range: Pence, maxSteps: number): Pence {
  const raw = Math.max(1, range / maxSteps);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5, 10]) {
    if (factor * power >= raw) return factor * power;
  }
  return 10 * power;
}

/** Rounds a coordinate to 0.1 so the path text stays short. */
const round = (value: number) => Math.round(value * 10) / 10;

const tickDate = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "numeric", month: "short" });

/**
 * Remembers a label function's results: a build draws thousands of charts with the same date
 * ticks and mostly the same round prices, and Intl formatting was most of a chart's cost.
 */
function memoLabel(format: (value: number) => string, limit = 2000): (value: number) => string {
  const cache = new Map<number, string>();
  return (value) => {
    let label = cache.get(value);
    if (label === undefined) {
      if (cache.size >= limit) cache.clear();
      cache.set(value, (label = format(value)));
    }
    return label;
  };
}

const dateLabel = memoLabel((time) => tickDate.format(time));
const priceLabel = memoLabel(formatPence);

interface Step {
  time: number;
  pricePence: Pence;
}

/**
 * The steps one retailer's line is drawn from: points older than the window are dropped except
 * the latest of them, which is moved to the window's left edge (the price that held there);
 * points after `now` and unreadable dates are ignored; equal times keep the later point.
 */
function windowSteps(points: readonly ChartPoint[], start: number, end: number): Step[] {
  const timed = points
    .map((point) => ({ time: Date.parse(point.recordedAt), pricePence: point.pricePence }))
    .filter((step) => Number.isFinite(step.time) && step.time <= end)
    .sort((a, b) => a.time - b.time);
  const steps: Step[] = [];
  for (const step of timed) {
    const time = Math.max(step.time, start);
    if (steps.length > 0 && steps[steps.length - 1]!.time === time) steps.pop();
    steps.push({ time, pricePence: step.pricePence });
  }
  return steps;
}

/**
 * Lays out a price-history chart of the last `days` days up to `now`: one step line per
 * retailer, coloured per retailer; a price holds until the next change and the last one
 * extends to now. The price axis runs between round values (£1, £2, £5 steps and so on)
 * just outside the lowest and highest price; the date axis has evenly spaced day labels.
 * No points gives no lines, no price ticks and null min/max.
 * @example priceChart([{ retailerName: "Amazon", pricePence: 1299, recordedAt: "2026-01-01T00:00:00Z" }], { now: new Date("2026-01-31T00:00:00Z"), days: 30, width: 600, height: 240 }).lines[0]!.path // "M60,113H584"
 */
export function priceChart(points: readonly ChartPoint[], options: PriceChartOptions): PriceChart {
  const { now, days, width, height } = options;
  const padding = options.padding ?? defaultChartPadding;
  const plot = { left: padding.left, top: padding.top, right: width - padding.right, bottom: height - padding.bottom };
  const end = now.getTime();
  const start = end - days * dayMs;

  const byRetailer = new Map<string, ChartPoint[]>();
  for (const point of points) {
    const list = byRetailer.get(point.retailerName);
    if (list) list.push(point);
    else byRetailer.set(point.retailerName, [point]);
  }
  const series = [...byRetailer]
    .map(([retailerName, list]) => ({ retailerName, steps: windowSteps(list, start, end) }))
    .filter((line) => line.steps.length > 0)
    .sort((a, b) => styleOrder(a.retailerName) - styleOrder(b.retailerName) || a.retailerName.localeCompare(b.retailerName));

  const xFor = (time: number) => round(plot.left + ((time - start) / (end - start)) * (plot.right - plot.left));
  const plotWidth = plot.right - plot.left;
  const tickCount = plotWidth >= 400 ? 5 : 3;
  const xTicks = Array.from({ length: tickCount }, (_, i) => {
    const time = start + ((end - start) * i) / (tickCount - 1);
    return { x: xFor(time), label: dateLabel(time) };
  });

  if (series.length === 0) return { width, height, plot, lines: [], yTicks: [], xTicks, minPence: null, maxPence: null };

  const prices = series.flatMap((line) => line.steps.map((step) => step.pricePence));
  const minPence = Math.min(...prices);
  const maxPence = Math.max(...prices);
  // A flat history still needs a scale: centre it in a band of about 10% of the price.
  const pad = minPence === maxPence ? Math.max(50, Math.round(maxPence * 0.05)) : 0;
  const step = niceStep(maxPence - minPence + 2 * pad, 5);
  const axisMin = Math.max(0, Math.floor((minPence - pad) / step) * step);
  const axisMax = Math.ceil((maxPence + pad) / step) * step;
  const yFor = (pence: Pence) => round(plot.bottom - ((pence - axisMin) / (axisMax - axisMin)) * (plot.bottom - plot.top));

  const yTicks: PriceChart["yTicks"] = [];
  for (let pence = axisMin; pence <= axisMax; pence += step) yTicks.push({ y: yFor(pence), label: priceLabel(pence) });

  const lines = series.map(({ retailerName, steps }): ChartLine => {
    const [first, ...rest] = steps as [Step, ...Step[]];
    let path = `M${xFor(first.time)},${yFor(first.pricePence)}`;
    let lowestPence = first.pricePence;
    for (const step of rest) {
      path += `H${xFor(step.time)}V${yFor(step.pricePence)}`;
      lowestPence = Math.min(lowestPence, step.pricePence);
    }
    path += `H${xFor(end)}`;
    return {
      retailerName,
      ...retailerStyle(retailerName),
      path,
      lastPricePence: steps[steps.length - 1]!.pricePence,
      lowestPence,
    };
  });

  return { width, height, plot, lines, yTicks, xTicks, minPence, maxPence };
}
