/**
 * The cheapest whole basket. A pet owner buys several products at once, and delivery changes the
 * answer: two products each cheapest at a different shop can cost more to the door than both
 * from one shop that delivers free over £39. Given the basket (products and quantities), every
 * comparable offer (the caller has already kept only in-stock, current prices) and each
 * retailer's delivery rule, quoteBasket finds the cheapest way to split the basket across
 * retailers, the cheapest basket from a single shop, and what the split saves. Every figure is
 * the price to the door (items plus delivery) in integer pence.
 *
 * How the cheapest split is found. What one retailer's order costs depends only on which lines it
 * holds, so the cost of a plan is a sum over retailers of "this retailer takes these lines".
 * - Up to exactLimits (8 buyable products and 8 retailers with an offer for one of them) the
 *   search is exact: for each retailer and each set of lines it offers, the order's cost is worked
 *   out once (at most 256 sets); then a dynamic programme over the retailers, in ascending id,
 *   finds for every set of lines the cheapest way to buy it from the retailers so far, trying
 *   every part of that set the next retailer could take. That is 3^8 = 6,561 steps per retailer,
 *   about 52,000 for 8 × 8, instead of the 16.7 million assignments, and it needs no bound to
 *   prune with, so no data makes it slow. The tie rule (fewer orders, then the lowest retailer
 *   ids in line order) is folded into a second, additive key, so the plan is the one the rule picks.
 * - Beyond those limits the answer is a heuristic and says so (exact: false). It builds three
 *   starting plans: every line at the retailer where it costs least; the best single shop; and a
 *   greedy consolidation (lines from dearest to cheapest, each to the retailer whose order it adds
 *   least to, delivery included). From each start a local search takes the best improving move
 *   until none improves: move one line to another retailer that offers it, or move a whole order
 *   into another retailer's order (when that retailer offers all of its lines). The best result
 *   of the three searches is the plan. The lower bound beside it is the sum of each line's cheapest
 *   cost plus, for the line where it is largest, the least delivery any order holding that line
 *   must pay.
 */
import { noDeliveryRule, type DeliveryRule } from "./delivery.ts";
import type { Pence } from "./money.ts";
import { multiBuyPence, type MultiBuy } from "./multi-buy.ts";

/** One product in the basket. */
export interface BasketLine {
  productId: number;
  /** Whole units, at least 1. */
  quantity: number;
  /** The visitor wants repeat delivery where it is offered. */
  repeat: boolean;
}

/** One retailer's comparable offer for one product. */
export interface BasketOffer {
  productId: number;
  retailerId: number;
  /** The one-off price of one unit now. */
  itemPence: Pence;
  /** The retailer's repeat-delivery price of one unit (Subscribe & Save and the like); null: none. */
  repeatPence: Pence | null;
  /** Delivery for this unit bought alone, as its source states it; null: not stated. */
  deliveryPence: Pence | null;
  /** The site owner marked this offer as delivered free. */
  freeDelivery: boolean;
  multiBuy: MultiBuy | null;
}

export interface BasketRetailer {
  id: number;
  rule: DeliveryRule;
}

export interface BasketInput {
  lines: readonly BasketLine[];
  offers: readonly BasketOffer[];
  retailers: readonly BasketRetailer[];
}

export interface PlannedLine {
  productId: number;
  quantity: number;
  /** The per-unit price used: the repeat price when the line wants repeat and the offer has one, else the one-off price. */
  unitPence: Pence;
  /** True when the repeat price was used. */
  repeat: boolean;
  /** What the line costs: quantity × unit, less any multi-buy. */
  linePence: Pence;
  /** What the multi-buy took off (0 when none applied). */
  multiBuySavingPence: Pence;
}

export interface RetailerOrder {
  retailerId: number;
  /** In the basket's line order. */
  lines: PlannedLine[];
  /** The sum of the lines' linePence. */
  itemsPence: Pence;
  /** Delivery for this order; null when nobody knows it (counted as 0 in totals, and the plan says so). */
  deliveryPence: Pence | null;
  /** itemsPence + (deliveryPence ?? 0). */
  totalPence: Pence;
  /** How much more in items would make delivery free at this retailer (null: already free, or no threshold). */
  toFreeDeliveryPence: Pence | null;
}

export interface BasketPlan {
  /** By ascending retailerId. */
  orders: RetailerOrder[];
  itemsPence: Pence;
  /** The known delivery of the orders, summed. */
  deliveryPence: Pence;
  totalPence: Pence;
  /** Some order's delivery is not known (counted as nothing). */
  deliveryUnknown: boolean;
}

export interface BasketQuote {
  /** The cheapest split of the lines that can be bought (null when none can). */
  cheapest: BasketPlan | null;
  /** The cheapest plan with every buyable line at one retailer (null when no retailer has them all). */
  singleShop: BasketPlan | null;
  /** singleShop.totalPence − cheapest.totalPence (0 when the single shop is the cheapest); null without a single shop. */
  savingPence: Pence | null;
  /** Products in the basket with no offer at all, in line order. */
  unavailable: number[];
  /** True when `cheapest` was found by exhaustive search (guaranteed cheapest). */
  exact: boolean;
  /** No plan can cost less than this (equals cheapest.totalPence when exact). */
  lowerBoundPence: Pence;
}

/** The largest basket the exact search takes: buyable products, and retailers with an offer for one of them. */
export const exactLimits: { readonly products: number; readonly retailers: number } = { products: 8, retailers: 8 };

/**
 * What `quantity` units cost at `offer`. When the line wants repeat delivery and the offer has a
 * repeat price, every unit costs the repeat price and no multi-buy applies (repeat orders are not
 * multi-buy orders). Otherwise the one-off price, less the offer's multi-buy when it is valid and
 * makes the line cheaper: a multi-buy that would cost more than the plain price is ignored, as the
 * shopper would not take it.
 * @example lineCost({ productId: 1, quantity: 3, repeat: false }, { ...offer, itemPence: 500, multiBuy: { kind: "n-for-m", buy: 3, payFor: 2 } }) // linePence 1000, multiBuySavingPence 500
 * @example lineCost({ productId: 1, quantity: 3, repeat: true }, { ...offer, itemPence: 500, repeatPence: 450, multiBuy: { kind: "n-for-m", buy: 3, payFor: 2 } }) // linePence 1350, repeat true
 */
export function lineCost(line: BasketLine, offer: BasketOffer): PlannedLine {
  assertQuantity(line);
  if (line.productId !== offer.productId) throw new RangeError(`offer for product ${offer.productId} priced for line ${line.productId}`);
  const { productId, quantity } = line;
  if (line.repeat && offer.repeatPence !== null) {
    return { productId, quantity, unitPence: offer.repeatPence, repeat: true, linePence: quantity * offer.repeatPence, multiBuySavingPence: 0 };
  }
  const plainPence = quantity * offer.itemPence;
  const multiPence = offer.multiBuy === null ? null : multiBuyPence(quantity, offer.itemPence, offer.multiBuy);
  const linePence = multiPence !== null && multiPence < plainPence ? multiPence : plainPence;
  return { productId, quantity, unitPence: offer.itemPence, repeat: false, linePence, multiBuySavingPence: plainPence - linePence };
}

/**
 * Delivery for one retailer's order of the lines at `offers`, whose items come to `itemsPence`.
 * Each offer carries the delivery it carries on its product page (deliveryFor), worked out at the
 * order's items rather than its own price: the delivery its source states for it; else nothing
 * when marked free; else the retailer's rule, free when the order's items reach the threshold
 * (exactly on it is free), else the standard charge; else not known. The order pays one charge,
 * the largest of those known; null when none is known. So an order of one item costs what its
 * product page says, and the items of an order count together toward the threshold.
 * @example orderDelivery({ id: 1, rule: { standardPence: 399, freeFromPence: 3900 } }, offers, 3900) // 0
 * @example orderDelivery({ id: 1, rule: { standardPence: 399, freeFromPence: 3900 } }, offers, 3899) // 399
 * @example orderDelivery({ id: 1, rule: { standardPence: null, freeFromPence: null } }, [{ ...offer, deliveryPence: 250 }, { ...offer, deliveryPence: 300 }], 1000) // 300
 */
export function orderDelivery(retailer: BasketRetailer, offers: readonly BasketOffer[], itemsPence: Pence): Pence | null {
  let summary = emptyDelivery;
  for (const offer of offers) summary = withOffer(summary, offer);
  return deliveryOf(retailer.rule, summary, itemsPence);
}

/** What decides an order's delivery, summed up over its offers (withOffer adds one). */
interface DeliverySummary {
  /** The largest delivery an offer's source states; noStated when none states one. */
  largestStated: number;
  /** Some offer without a stated delivery is marked free (it carries nothing). */
  anyMarkedFree: boolean;
  /** Some offer has neither: it carries the retailer's rule. */
  anyByRule: boolean;
}

/** Marks "no offer in the order states a delivery" where a stated delivery (>= 0) is kept. */
const noStated = -1;
const emptyDelivery: DeliverySummary = { largestStated: noStated, anyMarkedFree: false, anyByRule: false };

function withOffer(summary: DeliverySummary, offer: BasketOffer): DeliverySummary {
  if (offer.deliveryPence !== null) return { ...summary, largestStated: Math.max(summary.largestStated, offer.deliveryPence) };
  if (offer.freeDelivery) return summary.anyMarkedFree ? summary : { ...summary, anyMarkedFree: true };
  return summary.anyByRule ? summary : { ...summary, anyByRule: true };
}

/** The retailer's rule at an order's items: free from the threshold (inclusive), else the standard charge (null: not known). */
function byRule(rule: DeliveryRule, itemsPence: Pence): Pence | null {
  return rule.freeFromPence !== null && itemsPence >= rule.freeFromPence ? 0 : rule.standardPence;
}

/** The order delivery rule (orderDelivery) on an order summed up: the largest delivery its offers carry, null when none is known. */
function deliveryOf(rule: DeliveryRule, summary: DeliverySummary, itemsPence: Pence): Pence | null {
  let largest: Pence | null = summary.largestStated === noStated ? null : summary.largestStated;
  if (summary.anyMarkedFree) largest = Math.max(largest ?? 0, 0);
  if (summary.anyByRule) {
    const charged = byRule(rule, itemsPence);
    if (charged !== null) largest = Math.max(largest ?? 0, charged);
  }
  return largest;
}

/**
 * How much more in items makes the order's delivery free: the threshold less the items, when
 * delivery is not free yet and reaching the threshold would make it free (no offer in the order
 * states a charge of its own); else null. Items at or over the threshold need no check of their
 * own: there the rule charges nothing already, so the delivery at the threshold is the order's
 * own delivery, which is not free (free returns null first).
 * @example toFreeDelivery({ standardPence: 399, freeFromPence: 3900 }, { largestStated: -1, anyMarkedFree: false, anyByRule: true }, 399, 3000) // 900
 */
function toFreeDelivery(rule: DeliveryRule, summary: DeliverySummary, deliveryPence: Pence | null, itemsPence: Pence): Pence | null {
  if (deliveryPence === 0 || rule.freeFromPence === null) return null;
  return deliveryOf(rule, summary, rule.freeFromPence) === 0 ? rule.freeFromPence - itemsPence : null;
}

function assertQuantity(line: BasketLine): void {
  if (!Number.isInteger(line.quantity) || line.quantity < 1) throw new RangeError(`quantity of product ${line.productId} must be a whole number of at least 1: ${line.quantity}`);
}

/**
 * The basket made ready to search: the lines that can be bought (in line order), the retailers
 * with an offer for one of them (by ascending id), and for each line and retailer the offer and
 * what the line costs there.
 */
interface Problem {
  lines: BasketLine[];
  retailers: BasketRetailer[];
  /** offers[line][retailer]; undefined where the retailer has no offer for the line's product. */
  offers: (BasketOffer | undefined)[][];
  /** costs[line][retailer]; undefined where there is no offer. */
  costs: (PlannedLine | undefined)[][];
  /** Products in the basket with no offer, in line order. */
  unavailable: number[];
}

/** Cheapest one-off price first; exact ties by a fixed reading of the offer, so the input order does not matter. */
function preferredOffer(a: BasketOffer, b: BasketOffer): BasketOffer {
  if (a.itemPence !== b.itemPence) return a.itemPence < b.itemPence ? a : b;
  return offerText(a) <= offerText(b) ? a : b;
}

function offerText(offer: BasketOffer): string {
  return JSON.stringify([offer.itemPence, offer.repeatPence, offer.deliveryPence, offer.freeDelivery, offer.multiBuy === null ? null : Object.entries(offer.multiBuy).sort()]);
}

function prepare(input: BasketInput): Problem {
  const lineOf = new Map<number, number>();
  input.lines.forEach((line, index) => {
    assertQuantity(line);
    // The caller merges lines of the same product; two would make "the line" ambiguous.
    if (lineOf.has(line.productId)) throw new RangeError(`product ${line.productId} appears in two basket lines`);
    lineOf.set(line.productId, index);
  });
  const rules = new Map<number, DeliveryRule>();
  for (const retailer of input.retailers) {
    if (rules.has(retailer.id)) throw new RangeError(`retailer ${retailer.id} is listed twice`);
    rules.set(retailer.id, retailer.rule);
  }
  // At most one offer per product and retailer is expected; of several, the cheapest one-off
  // price counts. Offers for products not in the basket play no part.
  const chosen = new Map<number, Map<number, BasketOffer>>();
  for (const offer of input.offers) {
    if (!lineOf.has(offer.productId)) continue;
    let byRetailer = chosen.get(offer.productId);
    if (byRetailer === undefined) chosen.set(offer.productId, (byRetailer = new Map()));
    const other = byRetailer.get(offer.retailerId);
    byRetailer.set(offer.retailerId, other === undefined ? offer : preferredOffer(other, offer));
  }
  // A line without any offer cannot be bought: it is reported and left out of every plan.
  const lines = input.lines.filter((line) => chosen.has(line.productId));
  const unavailable = input.lines.filter((line) => !chosen.has(line.productId)).map((line) => line.productId);
  const retailerIds = [...new Set([...chosen.values()].flatMap((byRetailer) => [...byRetailer.keys()]))].sort((a, b) => a - b);
  // A retailer with offers but no entry in `retailers` has no delivery rule.
  const retailers = retailerIds.map((id) => ({ id, rule: rules.get(id) ?? noDeliveryRule }));
  const offers = lines.map((line) => retailerIds.map((id) => chosen.get(line.productId)!.get(id)));
  const costs = lines.map((line, i) => offers[i]!.map((offer) => (offer === undefined ? undefined : lineCost(line, offer))));
  return { lines, retailers, offers, costs, unavailable };
}

/** A plan as the searches hold it: for each buyable line (in line order), the index of its retailer in Problem.retailers. */
type Assignment = number[];

/** What retailer `r`'s order of the lines `lineIndexes` costs to the door (unknown delivery as 0), and its delivery (an empty order: nothing, delivery null). */
function orderCost(
  problem: Problem,
  r: number,
  lineIndexes: readonly number[],
): { itemsPence: Pence; deliveryPence: Pence | null; totalPence: Pence; summary: DeliverySummary } {
  let itemsPence = 0;
  let summary = emptyDelivery;
  for (const i of lineIndexes) {
    itemsPence += problem.costs[i]![r]!.linePence;
    summary = withOffer(summary, problem.offers[i]![r]!);
  }
  const deliveryPence = deliveryOf(problem.retailers[r]!.rule, summary, itemsPence);
  return { itemsPence, deliveryPence, totalPence: itemsPence + (deliveryPence ?? 0), summary };
}

/** The lines each retailer takes under `assignment`: groups[r] lists line indexes in line order. */
function groupsOf(problem: Problem, assignment: Assignment): number[][] {
  const groups: number[][] = problem.retailers.map(() => []);
  assignment.forEach((r, i) => groups[r]!.push(i));
  return groups;
}

function planOf(problem: Problem, assignment: Assignment): BasketPlan {
  const orders: RetailerOrder[] = [];
  groupsOf(problem, assignment).forEach((lineIndexes, r) => {
    if (lineIndexes.length === 0) return;
    const retailer = problem.retailers[r]!;
    const { itemsPence, deliveryPence, totalPence, summary } = orderCost(problem, r, lineIndexes);
    orders.push({
      retailerId: retailer.id,
      lines: lineIndexes.map((i) => problem.costs[i]![r]!),
      itemsPence,
      deliveryPence,
      totalPence,
      toFreeDeliveryPence: toFreeDelivery(retailer.rule, summary, deliveryPence, itemsPence),
    });
  });
  const sum = (of: (order: RetailerOrder) => number) => orders.reduce((total, order) => total + of(order), 0);
  return {
    orders,
    itemsPence: sum((order) => order.itemsPence),
    deliveryPence: sum((order) => order.deliveryPence ?? 0),
    totalPence: sum((order) => order.totalPence),
    deliveryUnknown: orders.some((order) => order.deliveryPence === null),
  };
}

/** An assignment's total to the door and its number of orders. */
function scoreOf(problem: Problem, assignment: Assignment): { totalPence: Pence; orders: number } {
  let totalPence = 0;
  let orders = 0;
  for (const [r, lineIndexes] of groupsOf(problem, assignment).entries()) {
    if (lineIndexes.length === 0) continue;
    totalPence += orderCost(problem, r, lineIndexes).totalPence;
    orders += 1;
  }
  return { totalPence, orders };
}

interface Scored {
  assignment: Assignment;
  totalPence: Pence;
  orders: number;
}

/**
 * Which of two plans the basket prefers, negative when `a`: the lower total to the door; of equal
 * totals the one with fewer orders; then the one whose retailers, read in line order, come first
 * by id (retailer indexes follow ascending id, so comparing indexes compares ids).
 */
function compareScored(a: Scored, b: Scored): number {
  if (a.totalPence !== b.totalPence) return a.totalPence - b.totalPence;
  if (a.orders !== b.orders) return a.orders - b.orders;
  for (let i = 0; i < a.assignment.length; i++) {
    if (a.assignment[i] !== b.assignment[i]) return a.assignment[i]! - b.assignment[i]!;
  }
  return 0;
}

function scored(problem: Problem, assignment: Assignment): Scored {
  return { assignment, ...scoreOf(problem, assignment) };
}

/**
 * The guaranteed cheapest assignment, by the tie rule (compareScored). cost[r][set] is retailer
 * r's order of the lines in `set` (a bit per line) to the door; best[set] is the cheapest way to
 * buy `set` from the retailers taken so far, and each next retailer may take any part of a set
 * that it offers. Ties are settled by a second key that adds up like the cost: one order counts
 * base^n, and line i at retailer index r counts r × base^(n−1−i), so a smaller key means fewer
 * orders, then the smaller retailer indexes read in line order (base^n stays below 2^24 within
 * exactLimits, so the key is exact).
 */
function exactAssignment(problem: Problem): Assignment {
  const n = problem.lines.length;
  const m = problem.retailers.length;
  const size = 1 << n;
  const base = Math.max(m, 2);
  const orderKey = base ** n;
  const lineKey = new Float64Array(size);
  for (let set = 1; set < size; set++) {
    const low = set & -set;
    lineKey[set] = lineKey[set ^ low]! + base ** (n - 1 - lineOfBit(low));
  }
  let best = new Float64Array(size).fill(Infinity);
  let bestKey = new Float64Array(size).fill(Infinity);
  best[0] = 0;
  bestKey[0] = 0;
  const taken: Int32Array[] = [];
  for (let r = 0; r < m; r++) {
    let offered = 0;
    for (let i = 0; i < n; i++) if (problem.offers[i]![r] !== undefined) offered |= 1 << i;
    const cost = orderCosts(problem, r, offered);
    const next = new Float64Array(size);
    const nextKey = new Float64Array(size);
    const part = new Int32Array(size);
    for (let set = 0; set < size; set++) {
      let total = best[set]!;
      let key = bestKey[set]!;
      let chosen = 0;
      const own = set & offered;
      for (let sub = own; sub !== 0; sub = (sub - 1) & own) {
        const rest = set ^ sub;
        const candidate = best[rest]! + cost[sub]!;
        if (candidate > total) continue;
        const candidateKey = bestKey[rest]! + orderKey + r * lineKey[sub]!;
        if (candidate < total || candidateKey < key) {
          total = candidate;
          key = candidateKey;
          chosen = sub;
        }
      }
      next[set] = total;
      nextKey[set] = key;
      part[set] = chosen;
    }
    best = next;
    bestKey = nextKey;
    taken.push(part);
  }
  const assignment: Assignment = new Array<number>(n).fill(-1);
  let rest = size - 1;
  for (let r = m - 1; r >= 0; r--) {
    const sub = taken[r]![rest]!;
    for (let i = 0; i < n; i++) if (sub & (1 << i)) assignment[i] = r;
    rest ^= sub;
  }
  return assignment;
}

/** Retailer r's order to the door for every set of the lines it offers (indexed by the set's bits; other entries unused). */
function orderCosts(problem: Problem, r: number, offered: number): Float64Array {
  const size = 1 << problem.lines.length;
  const cost = new Float64Array(size);
  const items = new Float64Array(size);
  const summaries: DeliverySummary[] = new Array<DeliverySummary>(size);
  summaries[0] = emptyDelivery;
  const rule = problem.retailers[r]!.rule;
  // Counting up, a set's part without its lowest line is always worked out before the set.
  for (let set = 1; set < size; set++) {
    if ((set & offered) !== set) continue;
    const low = set & -set;
    const i = lineOfBit(low);
    const rest = set ^ low;
    items[set] = items[rest]! + problem.costs[i]![r]!.linePence;
    summaries[set] = withOffer(summaries[rest]!, problem.offers[i]![r]!);
    cost[set] = items[set]! + (deliveryOf(rule, summaries[set]!, items[set]!) ?? 0);
  }
  return cost;
}

/** The line index of a set holding one line. */
function lineOfBit(bit: number): number {
  return 31 - Math.clz32(bit);
}

/** Every line at the retailer where the line alone costs least (ties: the lower retailer id). */
function cheapestPerLine(problem: Problem): Assignment {
  return problem.costs.map((row) => {
    let best = -1;
    row.forEach((cost, r) => {
      if (cost !== undefined && (best === -1 || cost.linePence < row[best]!.linePence)) best = r;
    });
    return best;
  });
}

/**
 * The cheapest basket from one retailer: among those with an offer for every buyable line, the
 * lowest total to the door; ties go to the lower retailer id. Null when no retailer has them all.
 */
function bestSingleShop(problem: Problem): Scored | null {
  let best: Scored | null = null;
  for (let r = 0; r < problem.retailers.length; r++) {
    if (problem.offers.some((row) => row[r] === undefined)) continue;
    const candidate = scored(problem, problem.lines.map(() => r));
    if (best === null || candidate.totalPence < best.totalPence) best = candidate;
  }
  return best;
}

/**
 * A greedy consolidation: lines from the dearest (by their cheapest cost) to the cheapest, lines
 * alike in line order (the sort is stable), each to the retailer whose order it adds least to,
 * delivery included, given the lines placed so far.
 */
function greedyConsolidation(problem: Problem): Assignment {
  const cheapest = problem.costs.map((row) => Math.min(...row.map((cost) => cost?.linePence ?? Infinity)));
  const byDearest = problem.lines.map((_, i) => i).sort((a, b) => cheapest[b]! - cheapest[a]!);
  const groups: number[][] = problem.retailers.map(() => []);
  const assignment: Assignment = new Array<number>(problem.lines.length).fill(-1);
  for (const i of byDearest) {
    let best = -1;
    let bestAdded = Infinity;
    for (let r = 0; r < problem.retailers.length; r++) {
      if (problem.offers[i]![r] === undefined) continue;
      const group = groups[r]!;
      const added = orderCost(problem, r, [...group, i]).totalPence - orderCost(problem, r, group).totalPence;
      if (added < bestAdded) {
        best = r;
        bestAdded = added;
      }
    }
    groups[best]!.push(i);
    assignment[i] = best;
  }
  return assignment;
}

/**
 * Local search from `start`: of all moves (one line to another retailer that offers it; a whole
 * order into another retailer's order when that retailer offers all of its lines) take the one
 * that gives the preferred plan (compareScored), as long as it beats the current plan. Each move
 * taken strictly improves the plan, so the search ends.
 */
function localSearch(problem: Problem, start: Assignment): Scored {
  const m = problem.retailers.length;
  let current = scored(problem, start);
  for (;;) {
    let best = current;
    const groups = groupsOf(problem, current.assignment);
    const consider = (assignment: Assignment) => {
      const candidate = scored(problem, assignment);
      if (compareScored(candidate, best) < 0) best = candidate;
    };
    current.assignment.forEach((from, i) => {
      for (let r = 0; r < m; r++) {
        if (r === from || problem.offers[i]![r] === undefined) continue;
        const moved = [...current.assignment];
        moved[i] = r;
        consider(moved);
      }
    });
    groups.forEach((group, from) => {
      if (group.length === 0) return;
      for (let r = 0; r < m; r++) {
        if (r === from || group.some((i) => problem.offers[i]![r] === undefined)) continue;
        consider(current.assignment.map((to) => (to === from ? r : to)));
      }
    });
    if (best === current) return current;
    current = best;
  }
}

/** The heuristic's assignment: the best local search from the cheapest per line, the best single shop and the greedy consolidation. */
function heuristicAssignment(problem: Problem): Assignment {
  const starts = [cheapestPerLine(problem), bestSingleShop(problem)?.assignment, greedyConsolidation(problem)];
  let best: Scored | null = null;
  for (const start of starts) {
    if (start === undefined) continue;
    const found = localSearch(problem, start);
    if (best === null || compareScored(found, best) < 0) best = found;
  }
  return best!.assignment;
}

/**
 * A total no plan can go below: every line costs at least its cheapest line cost, and the order
 * that holds a line pays at least the delivery the line's offer carries in any order (its stated
 * delivery, as the largest charge is paid; nothing when it is marked free; else nothing when the
 * retailer's threshold can be reached by all the lines it offers, else its standard charge, or
 * nothing when that is not known). Only one such delivery is counted, for the line where it adds
 * most, as other lines may share that order.
 */
function lowerBoundOf(problem: Problem): Pence {
  const m = problem.retailers.length;
  const reachable = problem.retailers.map((_, r) => problem.costs.reduce((sum, row) => sum + (row[r]?.linePence ?? 0), 0));
  let cheapestSum = 0;
  let extra = 0;
  for (let i = 0; i < problem.lines.length; i++) {
    const row = problem.costs[i]!;
    let cheapest = Infinity;
    let cheapestWithDelivery = Infinity;
    for (let r = 0; r < m; r++) {
      const cost = row[r];
      if (cost === undefined) continue;
      const offer = problem.offers[i]![r]!;
      const { rule } = problem.retailers[r]!;
      const canReachFree = rule.freeFromPence !== null && reachable[r]! >= rule.freeFromPence;
      const leastDelivery = offer.deliveryPence ?? (offer.freeDelivery || canReachFree ? 0 : (rule.standardPence ?? 0));
      cheapest = Math.min(cheapest, cost.linePence);
      cheapestWithDelivery = Math.min(cheapestWithDelivery, cost.linePence + leastDelivery);
    }
    cheapestSum += cheapest;
    extra = Math.max(extra, cheapestWithDelivery - cheapest);
  }
  return cheapestSum + extra;
}

/**
 * The heuristic plan for the basket whatever its size (quoteBasket uses it beyond exactLimits);
 * null when no line can be bought. Exported so tests can hold it against the exact search.
 */
export function heuristicPlan(input: BasketInput): BasketPlan | null {
  const problem = prepare(input);
  return problem.lines.length === 0 ? null : planOf(problem, heuristicAssignment(problem));
}

/**
 * The cheapest whole basket: the cheapest split across retailers (exact within exactLimits, else
 * the heuristic described at the top of this module), the cheapest single shop, and the saving
 * between them. Lines without any offer are listed as unavailable and left out of both plans.
 * @example quoteBasket({ lines: [{ productId: 1, quantity: 1, repeat: false }], offers: [{ productId: 1, retailerId: 4, itemPence: 2000, repeatPence: null, deliveryPence: null, freeDelivery: false, multiBuy: null }], retailers: [{ id: 4, rule: { standardPence: 399, freeFromPence: 3900 } }] }).cheapest?.totalPence // 2399
 */
export function quoteBasket(input: BasketInput): BasketQuote {
  const problem = prepare(input);
  const { unavailable } = problem;
  if (problem.lines.length === 0) return { cheapest: null, singleShop: null, savingPence: null, unavailable, exact: true, lowerBoundPence: 0 };
  // Exhaustive search when the basket is small enough to be sure of the cheapest plan; else the heuristic.
  const exact = problem.lines.length <= exactLimits.products && problem.retailers.length <= exactLimits.retailers;
  const cheapest = planOf(problem, exact ? exactAssignment(problem) : heuristicAssignment(problem));
  const single = bestSingleShop(problem);
  const singleShop = single === null ? null : planOf(problem, single.assignment);
  return {
    cheapest,
    singleShop,
    savingPence: singleShop === null ? null : singleShop.totalPence - cheapest.totalPence,
    unavailable,
    exact,
    lowerBoundPence: exact ? cheapest.totalPence : lowerBoundOf(problem),
  };
}
