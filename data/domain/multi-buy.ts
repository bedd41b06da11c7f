/**
 * Multi-buy offers ("3 for 2", "2 for £20") as shops and feeds write them. An offer keeps its
 * multi-buy as one canonical text ("3 for 2", "2 for £20.00"); parseMultiBuy reads the ways
 * retailers word them, and what it cannot read is no multi-buy (a feed's promotional text is free
 * text: "Free delivery over £39" is not a multi-buy). multiBuyPence is what a quantity costs with
 * one; the basket (basket.ts) prices its lines with it.
 */
import { formatPence, type Pence } from "./money.ts";

/** A retailer's multi-buy offer on one product. */
export type MultiBuy =
  /** "3 for 2": buy 3, pay for 2 (buy > payFor >= 1). */
  | { kind: "n-for-m"; buy: number; payFor: number }
  /** "2 for £20": every 2 cost £20 (count >= 2, a price above nothing). */
  | { kind: "n-for-price"; count: number; pricePence: Pence };

/** The longest multi-buy text accepted from the admin form. */
export const maxMultiBuyLength = 60;

const count = "(\\d{1,2})";
/** An amount in pounds, whole or with pence ("£20", "£15.50"), not the start of a longer number ("£15.5" is no price). */
const pounds = "£\\s?(\\d{1,4}(?:\\.\\d{2})?)(?!\\.?\\d)";
/** The wordings read, each to a multi-buy; the first that matches wins. */
const wordings: { pattern: RegExp; read: (match: RegExpMatchArray) => MultiBuy }[] = [
  // "Buy 2 get 1 free", "buy 2, get 1 free": 3 for the price of 2.
  {
    pattern: new RegExp(`\\bbuy\\s+${count},?\\s+get\\s+${count}\\s+free\\b`, "i"),
    read: (m) => ({ kind: "n-for-m", buy: Number(m[1]) + Number(m[2]), payFor: Number(m[1]) }),
  },
  // "Buy 3 for the price of 2", "3 for the price of 2".
  { pattern: new RegExp(`\\b${count}\\s+for\\s+the\\s+price\\s+of\\s+${count}\\b`, "i"), read: (m) => ({ kind: "n-for-m", buy: Number(m[1]), payFor: Number(m[2]) }) },
  // "2 for £20", "any 2 for £15.00".
  { pattern: new RegExp(`\\b${count}\\s+for\\s+${pounds}`, "i"), read: (m) => ({ kind: "n-for-price", count: Number(m[1]), pricePence: Math.round(Number(m[2]) * 100) }) },
  // "3 for 2" (not followed by more digits or a unit: "3 for 2kg" is not a multi-buy).
  { pattern: new RegExp(`\\b${count}\\s+for\\s+${count}(?![\\d.,]|\\s*(?:kg|g|ml|l|x)\\b)`, "i"), read: (m) => ({ kind: "n-for-m", buy: Number(m[1]), payFor: Number(m[2]) }) },
];

/** Whether a multi-buy makes sense: whole numbers, more bought than paid for, at least 2 in a priced group. */
export function isValidMultiBuy(multiBuy: MultiBuy): boolean {
  if (multiBuy.kind === "n-for-m") return Number.isInteger(multiBuy.buy) && Number.isInteger(multiBuy.payFor) && multiBuy.payFor >= 1 && multiBuy.buy > multiBuy.payFor;
  return Number.isInteger(multiBuy.count) && multiBuy.count >= 2 && Number.isInteger(multiBuy.pricePence) && multiBuy.pricePence > 0;
}

/**
 * What `quantity` units cost at `itemPence` each with a multi-buy, or null when it is not valid
 * (isValidMultiBuy). Every complete group costs the multi-buy price, the units left over cost the
 * full price.
 * @example multiBuyPence(4, 500, { kind: "n-for-m", buy: 3, payFor: 2 }) // 1500 (3 for 1000, 1 for 500)
 * @example multiBuyPence(3, 1200, { kind: "n-for-price", count: 2, pricePence: 2000 }) // 3200
 * @example multiBuyPence(3, 500, { kind: "n-for-m", buy: 2, payFor: 2 }) // null
 */
export function multiBuyPence(quantity: number, itemPence: Pence, multiBuy: MultiBuy): Pence | null {
  if (!isValidMultiBuy(multiBuy)) return null;
  const [group, groupPence] = multiBuy.kind === "n-for-m" ? [multiBuy.buy, multiBuy.payFor * itemPence] : [multiBuy.count, multiBuy.pricePence];
  const groups = Math.floor(quantity / group);
  return groups * groupPence + (quantity - groups * group) * itemPence;
}

/**
 * The multi-buy a text words, or null when it words none that makes sense.
 * @example parseMultiBuy("3 for 2") // { kind: "n-for-m", buy: 3, payFor: 2 }
 * @example parseMultiBuy("Buy 2 get 1 free on all Felix pouches") // { kind: "n-for-m", buy: 3, payFor: 2 }
 * @example parseMultiBuy("Any 2 for £20") // { kind: "n-for-price", count: 2, pricePence: 2000 }
 * @example parseMultiBuy("Free delivery over £39") // null
 */
export function parseMultiBuy(text: string | null | undefined): MultiBuy | null {
  if (!text) return null;
  for (const { pattern, read } of wordings) {
    const match = text.match(pattern);
    if (!match) continue;
    const multiBuy = read(match);
    return isValidMultiBuy(multiBuy) ? multiBuy : null;
  }
  return null;
}

/**
 * A multi-buy as the site writes it (and stores it).
 * @example multiBuyText({ kind: "n-for-m", buy: 3, payFor: 2 }) // "3 for 2"
 * @example multiBuyText({ kind: "n-for-price", count: 2, pricePence: 2000 }) // "2 for £20.00"
 */
export function multiBuyText(multiBuy: MultiBuy): string {
  return multiBuy.kind === "n-for-m" ? `${multiBuy.buy} for ${multiBuy.payFor}` : `${multiBuy.count} for ${formatPence(multiBuy.pricePence as Pence)}`;
}

/** A text's multi-buy in the site's words, or null when it words none. */
export function canonicalMultiBuy(text: string | null | undefined): string | null {
  const multiBuy = parseMultiBuy(text);
  return multiBuy && multiBuyText(multiBuy);
}
