/**
 * Reading prices as shops write them: visible text ("£1,299.00", "12,99 €", "from £3.49", "99p")
 * and schema.org structured-data values ("12.99", 12.99, "12.990"). Amounts come back as integer
 * hundredths of their currency (pence for GBP, cents for EUR and USD), counted on the digits as
 * written, never through float arithmetic.
 */
import type { Pence } from "./money.ts";

/** A price read from shop text. */
export interface PriceText {
  /** Integer hundredths of the currency: pence for GBP, cents for EUR or USD. */
  pence: Pence;
  /** ISO 4217 code the text names (by symbol or code), or null when it names none. */
  currency: string | null;
  /** The text gives a starting price: "from £3.49", "From: £3.49", "ab 3,49 €". */
  from: boolean;
  /** The text gives a range ("£5.29 - £9.56"); `pence` is its low end. */
  range: boolean;
}

/**
 * The largest amount in pounds read as a price: £100,000. A bigger number next to a price is a
 * product code, a barcode or a phone number, not what a pet product costs. The cap is about
 * pounds: an amount in another currency (450,000 Colombian pesos) is only held to what an
 * integer count of hundredths can carry exactly, and is reported with its currency.
 */
const MAX_PENCE = 10_000_000;
const MAX_MINOR_UNITS = Number.MAX_SAFE_INTEGER;
/** Longer text is a paragraph, not a printed price; reading it would only cost time. */
const MAX_TEXT = 400;

/** Currency symbols, longest first so "US$" wins over "$". A bare "$" is read as US dollars. */
const currencySymbols: Readonly<Record<string, string>> = {
  "US$": "USD",
  "AU$": "AUD",
  "NZ$": "NZD",
  "CA$": "CAD",
  "A$": "AUD",
  "C$": "CAD",
  "£": "GBP",
  "€": "EUR",
  "$": "USD",
};

/** Codes recognised inside free text ("GBP 5", "5,95 EUR"); a structured currency field takes any. */
const currencyCodes = ["GBP", "EUR", "USD", "AUD", "CAD", "NZD", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "JPY", "INR", "BRL", "MXN", "COP", "ZAR"];

const symbolPattern = Object.keys(currencySymbols)
  .map((symbol) => symbol.replace(/\$/g, "\\$"))
  .join("|");
const codePattern = currencyCodes.join("|");

/**
 * A number as shops print it: digits with "." "," or apostrophe separators, or a space that
 * groups thousands ("1 299,00": the space must be followed by exactly three digits).
 */
const NUMBER = /\d+(?:(?:[.,'’]|\s(?=\d{3}(?!\d)))\d+)*/g;
/** A currency mark right before a number: "£", "£ ", "EUR", "EUR130.00", "USD ". */
const MARK_BEFORE = new RegExp(`(?:(${symbolPattern})|(?<![A-Za-z])(${codePattern}))\\s?$`, "i");
/**
 * A currency mark right after a number: "€", " EUR", or "p" for pence ("99p"); not a mark that
 * starts the next amount ("Pack of 12 £9.99").
 */
const MARK_AFTER = new RegExp(`^\\s?(?:(${symbolPattern})|(${codePattern})(?![A-Za-z])|(p)(?![A-Za-z&]))(?!\\s?\\d)`, "i");
/** A minus sign before the first number makes it negative; after a number it is a range's dash. */
const MINUS = /[-−]\s?$/;
/** Words that make the amount something other than the price: an old price, a saving, delivery. */
const LABEL_BEFORE = /\b(?:was|rrp|msrp|save|saving|delivery|postage|shipping|p&p|deposit)\b[\s:]*(?:only\s*)?$/i;
/** What after an amount makes it a percentage, a discount, delivery or a unit price ("/kg", "per 100g"). */
const LABEL_AFTER = /^\s*(?:%|off\b|delivery|postage|shipping|p&p|per\s|\/\s*(?:\d+\s*)?(?:kg|g|l|ml|litre|liter|lb|oz|unit|each|pack|item|tablet)\b)/i;
/** Quantity units after a bare number ("2 kg", "12 x 400g"). */
const QUANTITY_AFTER = /^\s?(?:kg|g|ml|l|x|pack|pk|pcs|cm|mm|lb|oz|litre|tablets?|capsules?)\b/i;
/** What stands between the two ends of a range. */
const RANGE_BETWEEN = /^\s*(?:-|–|—|−|to|bis|à)\s*$/i;
/** Words that make a price a starting price. */
const FROM = /\b(?:from|ab|starting at|starts at|as low as)\b|à partir de/i;

interface Amount {
  pence: Pence;
  currency: string | null;
  /** Where the amount starts in the text, its currency mark included. */
  start: number;
  /** Where the amount ends in the text, its currency mark included. */
  end: number;
}

/** Why a piece of text gave no price, for the admin to read. */
export type PriceRefusal =
  | "no amount"
  | "accounting negative"
  | "negative amount"
  | "fraction"
  | "text too long"
  /** Amounts there, but each is zero, above the cap, a quantity, a unit price, a saving or an old price. */
  | "no price among the amounts";

export type PriceTextReading = { ok: true; price: PriceText } | { ok: false; reason: PriceRefusal };

/**
 * Reads the price in a piece of shop text, or says why it holds none (see parsePriceText for
 * the rules).
 * @example readPriceText("(5.00)") // { ok: false, reason: "accounting negative" }
 * @example readPriceText("1/2") // { ok: false, reason: "fraction" }
 */
export function readPriceText(text: string): PriceTextReading {
  if (text.length > MAX_TEXT * 4) return { ok: false, reason: "text too long" };
  const normalised = normaliseSpaces(text);
  if (normalised.length > MAX_TEXT) return { ok: false, reason: "text too long" };
  const refusal = nonPrice(normalised);
  if (refusal !== null) return { ok: false, reason: refusal };
  const amounts = readAmounts(normalised);
  const priced = amounts.some((amount) => amount.currency !== null) ? amounts.filter((amount) => amount.currency !== null) : amounts;
  const [first, second] = priced;
  if (first === undefined) return { ok: false, reason: /\d/.test(normalised) ? "no price among the amounts" : "no amount" };
  const range = second !== undefined && RANGE_BETWEEN.test(normalised.slice(first.end, second.start));
  return {
    ok: true,
    price: {
      pence: range ? Math.min(first.pence, second.pence) : first.pence,
      currency: first.currency,
      from: FROM.test(normalised.slice(0, first.start)),
      range,
    },
  };
}

/**
 * Text that shows an amount but is no price: an accounting negative "(5.00)" or "(£5.00)", a
 * fraction "1/2", a negative "-£5" or "£5.00-".
 */
function nonPrice(text: string): PriceRefusal | null {
  if (/\(\s*(?:[^\d\s()]{1,3}\s?)?\d[\d.,'\s]*(?:\s?[^\d\s()]{1,3})?\s*\)/.test(text) && !/\d/.test(text.replace(/\([^)]*\)/g, ""))) {
    return "accounting negative";
  }
  if (/(?:^|[^\d.,])\d+\s?\/\s?\d+(?![\d.,]*\s?(?:kg|g|ml|l)\b)/i.test(text) && !/[£$€]|\b(?:GBP|EUR|USD)\b/i.test(text)) return "fraction";
  if (/^[-−]\s?(?:[£$€]|GBP|EUR|USD)?\s?\d/i.test(text) || /^(?:[£$€]|GBP|EUR|USD)\s?[-−]\s?\d/i.test(text) || /\d[-−]$/.test(text)) return "negative amount";
  return null;
}

/**
 * Reads the price in a piece of shop text. Rules:
 * - A currency mark (symbol or ISO code, before or after) makes an amount a price; when any
 *   amount in the text has one, amounts without one (quantities, pack sizes) are ignored.
 * - Separators: with both "." and "," present, the last one is the decimal mark. A lone "." or
 *   "," followed by exactly three digits groups thousands ("1,299" and "1.299" are 1299.00);
 *   followed by any other number of digits it is the decimal mark ("12,99" is 12.99, so is
 *   "12.9900"). Spaces and apostrophes only group thousands. A third decimal rounds half up.
 * - Old prices ("Was", "RRP"), savings, delivery, percentages and unit prices ("/kg") are not
 *   the price. Of two prices joined by a dash or "to", the lower is taken and `range` is set;
 *   otherwise the first price wins.
 * - No amount, a zero, a negative amount ("-£5", "£5-", the accounting "(5.00)"), a fraction
 *   ("1/2"), text longer than 400 characters or an amount above £100,000 gives null; so do
 *   "Free" and "N/A", which name no amount.
 * @example parsePriceText("£1,299.00") // { pence: 129900, currency: "GBP", from: false, range: false }
 * @example parsePriceText("12,99 €") // { pence: 1299, currency: "EUR", from: false, range: false }
 * @example parsePriceText("from £3.49") // { pence: 349, currency: "GBP", from: true, range: false }
 * @example parsePriceText("£5.29 - £9.56") // { pence: 529, currency: "GBP", from: false, range: true }
 * @example parsePriceText("99p") // { pence: 99, currency: "GBP", from: false, range: false }
 * @example parsePriceText("1.299,00") // { pence: 129900, currency: null, from: false, range: false }
 * @example parsePriceText("Price: N/A") // null
 * @example parsePriceText("(5.00)") // null
 */
export function parsePriceText(text: string): PriceText | null {
  const reading = readPriceText(text);
  return reading.ok ? reading.price : null;
}

/**
 * Reads a schema.org `price` value (JSON-LD, microdata `content`, product meta tags), where "."
 * is always the decimal point: "12.990" is 12.99 and a third decimal rounds half up ("1.005" is
 * 101 pence). Other text ("12,99", "£12.99", "1,299.00") is read as shop text. Zero, negative
 * and absurd amounts give null; above £100,000 is absurd for pounds and for an unnamed currency,
 * while a `currency` other than GBP is held only to what integer hundredths carry exactly.
 * @example parseSchemaPrice("12.99") // 1299
 * @example parseSchemaPrice(12.99) // 1299
 * @example parseSchemaPrice("12.990") // 1299
 * @example parseSchemaPrice("1299.00") // 129900
 * @example parseSchemaPrice("12,99") // 1299
 * @example parseSchemaPrice("1.005") // 101
 * @example parseSchemaPrice("0") // null
 * @example parseSchemaPrice("450000.00", "COP") // 45000000
 */
export function parseSchemaPrice(value: unknown, currency: string | null = null): Pence | null {
  if (typeof value !== "number" && typeof value !== "string") return null;
  if (typeof value === "string" && value.length > MAX_TEXT) return null;
  const text = typeof value === "number" ? String(value) : normaliseSpaces(value);
  const decimal = /^(\d*)(?:\.(\d+))?$/.exec(text);
  if (decimal) {
    const minor = minorUnits(decimal[1]!, decimal[2] ?? "");
    return currency !== null && currency !== "GBP" ? withinMinorUnits(minor) : withinBounds(minor);
  }
  // A number that String() writes with an exponent (1e-7, 1e+21) is no price.
  return typeof value === "string" ? (parsePriceText(text)?.pence ?? null) : null;
}

/**
 * Reads a currency field ("GBP", "gbp", " EUR ", "£") as an ISO 4217 code.
 * @example parseCurrency("gbp") // "GBP"
 * @example parseCurrency("€") // "EUR"
 * @example parseCurrency("pounds") // null
 */
export function parseCurrency(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (/^[A-Za-z]{3}$/.test(text)) return text.toUpperCase();
  return currencySymbols[text.toUpperCase()] ?? null;
}

function normaliseSpaces(text: string): string {
  // No-break, narrow no-break, thin and other typographic spaces separate like a space; zero-width
  // characters separate nothing.
  return text
    .replace(/[\u200b\u200c\u200d\u2060\ufeff]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Every amount in the text that could be a price, in order, with its currency. */
function readAmounts(text: string): Amount[] {
  const amounts: Amount[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const numberStart = match.index;
    const numberEnd = numberStart + match[0].length;
    const markBefore = MARK_BEFORE.exec(text.slice(0, numberStart));
    const markAfter = markBefore ? null : MARK_AFTER.exec(text.slice(numberEnd));
    const inPence = markAfter?.[3] !== undefined;
    const currency = inPence ? "GBP" : parseCurrency(markBefore?.[1] ?? markBefore?.[2] ?? markAfter?.[1] ?? markAfter?.[2]);
    const start = markBefore ? markBefore.index : numberStart;
    const end = markAfter ? numberEnd + markAfter[0].length : numberEnd;
    const textBefore = text.slice(0, start);
    const textAfter = text.slice(end);

    if (MINUS.test(textBefore) && !/\d/.test(textBefore)) continue;
    if (LABEL_BEFORE.test(textBefore) || LABEL_AFTER.test(textAfter)) continue;
    // A bare number glued to letters ("X200", "2kg") or followed by a unit is a code or a quantity.
    if (currency === null && (/[A-Za-z]$/.test(textBefore) || /^[A-Za-z]/.test(textAfter) || QUANTITY_AFTER.test(textAfter))) continue;

    const minor = inPence ? wholePence(match[0]) : readAmount(match[0]);
    const pence = minor === null ? null : currency !== null && currency !== "GBP" ? withinMinorUnits(minor) : withinBounds(minor);
    if (pence === null) continue;
    amounts.push({ pence, currency, start, end });
  }
  return amounts;
}

/** "99" of "99p": whole pence only. */
function wholePence(token: string): number | null {
  return /^\d+$/.test(token) ? Number(token) : null;
}

/**
 * A printed number in hundredths, or null when malformed. The decimal mark is the last "." or ","
 * when it occurs once and either follows another separator ("1,299.00", "1 299,00") or is not
 * followed by exactly three digits ("12,99", "12.9900"); otherwise it groups thousands ("1,299").
 */
function readAmount(token: string): number | null {
  const [, before = "", mark = "", after = ""] = /^(.*)([.,])(\d+)$/.exec(token) ?? [];
  const isDecimal = mark !== "" && !before.includes(mark) && (/\D/.test(before) || after.length !== 3);
  const whole = isDecimal ? before : token;
  // Thousands come in groups of three after the first one to three digits; a printed price never
  // starts with a zero before another digit ("0800", "007").
  if (!/^(?:\d+|\d{1,3}(?:\D\d{3})+)$/.test(whole) || /^0\d/.test(whole)) return null;
  return minorUnits(whole.replace(/\D/g, ""), isDecimal ? after : "");
}

/** Whole and fraction digits to hundredths, a third decimal rounding half up. */
function minorUnits(whole: string, fraction: string): number {
  const roundUp = fraction.charAt(2) >= "5" ? 1 : 0;
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0").slice(0, 2)) + roundUp;
}

function withinBounds(pence: number): Pence | null {
  return pence > 0 && pence <= MAX_PENCE ? pence : null;
}

function withinMinorUnits(units: number): number | null {
  return units > 0 && units <= MAX_MINOR_UNITS ? units : null;
}
