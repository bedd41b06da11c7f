/**
 * The net quantity a pet product's name (or a feed's size field) states: how much is in the pack,
 * in the base unit its unit price is per. Weights count in grams and are priced per kg, volumes
 * count in millilitres and are priced per litre, everything else counts in items.
 *
 * Names carry numbers that are not the pack: the dog's weight ("20-40kg", "up to 10kg"), the
 * water a conditioner treats ("up to 500L"), a size ("Size 3", "Senior 7+"), a dimension
 * ("90 x 60cm"), a formula ("Omega 3", "4 in 1"). Only a number followed by a weight, volume or
 * counted unit is read, and of those a range or a limit is left out.
 */

/** The measure a unit price is per: kilograms, litres or items. */
export type QuantityUnit = "kg" | "l" | "item";

export interface PackQuantity {
  /** Total net quantity in base units: grams for weight, millilitres for volume, items for counts. */
  amount: number;
  measure: "weight" | "volume" | "count";
  /** weight -> "kg", volume -> "l", count -> "item". */
  unit: QuantityUnit;
  /**
   * How many pieces the pack holds: the multipack count ("48 x 85g" -> 48), the items of a plain
   * count ("40 pouches" -> 40), or 1 for a single weight or volume ("12kg").
   */
  count: number;
  /**
   * One piece in base units ("48 x 85g" -> 85, "7 x 10 sticks" -> 10 items), so amount is
   * count x each; null for a plain count, whose pieces are the items themselves.
   */
  each: number | null;
  /** A short label: "12kg", "2 x 6kg", "48 x 85g", "1.5L", "40 pouches", "Pack of 4", "3 x 48ml". */
  label: string;
}

/** Above these a number is a code or a typo, not a pack: 1000 kg, 1000 litres, 10,000 items. */
const MAX_GRAMS = 1_000_000;
const MAX_MILLILITRES = 1_000_000;
const MAX_ITEMS = 10_000;

interface MeasureUnit {
  measure: "weight" | "volume";
  /** Base units (g or ml) in one of this unit. */
  base: number;
  /** Set for pounds and ounces, which the label keeps as written ("5lb"). */
  imperial?: "lb" | "oz";
}

const kilograms: MeasureUnit = { measure: "weight", base: 1000 };
const grams: MeasureUnit = { measure: "weight", base: 1 };
const pounds: MeasureUnit = { measure: "weight", base: 453.59237, imperial: "lb" };
const ounces: MeasureUnit = { measure: "weight", base: 28.349523125, imperial: "oz" };
const litres: MeasureUnit = { measure: "volume", base: 1000 };
const millilitres: MeasureUnit = { measure: "volume", base: 1 };
const centilitres: MeasureUnit = { measure: "volume", base: 10 };

/** Unit words as written after a number, lower case. "mg" and "mcg" are doses, never net weight. */
const measureUnits: Readonly<Record<string, MeasureUnit>> = {
  kg: kilograms,
  kgs: kilograms,
  kilo: kilograms,
  kilos: kilograms,
  kilogram: kilograms,
  kilograms: kilograms,
  kilogramme: kilograms,
  kilogrammes: kilograms,
  g: grams,
  gm: grams,
  gms: grams,
  gr: grams,
  gram: grams,
  grams: grams,
  gramme: grams,
  grammes: grams,
  lb: pounds,
  lbs: pounds,
  oz: ounces,
  ounce: ounces,
  ounces: ounces,
  l: litres,
  ltr: litres,
  ltrs: litres,
  litre: litres,
  litres: litres,
  liter: litres,
  liters: litres,
  ml: millilitres,
  millilitre: millilitres,
  millilitres: millilitres,
  milliliter: millilitres,
  milliliters: millilitres,
  cl: centilitres,
  centilitre: centilitres,
  centilitres: centilitres,
};

/** Counted pieces, singular and plural; `dose` marks medicines, priced per dose whatever they weigh. */
interface CountNoun {
  one: string;
  many: string;
  dose: boolean;
}

const countNouns: readonly CountNoun[] = [
  ...["pipette", "tablet", "capsule", "collar", "treatment", "dose", "applicator"].map((one) => ({ one, many: `${one}s`, dose: true })),
  ...["sachet", "tin", "can", "tray", "pot", "chew", "stick", "treat", "bone", "piece", "wipe", "pad", "bag", "roll", "refill", "ball", "cartridge"].map(
    (one) => ({ one, many: `${one}s`, dose: false }),
  ),
  { one: "pouch", many: "pouches", dose: false },
];

const countNounByWord = new Map<string, CountNoun>(countNouns.flatMap((noun) => [[noun.one, noun] as const, [noun.many, noun] as const]));
countNounByWord.set("pcs", countNouns.find((noun) => noun.one === "piece")!);

const alternation = (words: Iterable<string>) => [...words].sort((a, b) => b.length - a.length).join("|");
const unitWords = alternation(Object.keys(measureUnits));
const nounWords = alternation(countNounByWord.keys());

/** A number that starts a token: not inside a word ("K9"), nor after a decimal separator. */
const numberStart = String.raw`(?<![a-z0-9]|\d[.,])`;
const decimal = String.raw`\d+(?:[.,]\d+)?`;
const times = String.raw`\s*[x*]\s*`;
const unitEnd = String.raw`(?![a-z0-9])`;

/**
 * One pattern for weights and volumes, tried left to right at each position:
 * "12 x 400g" (also "12 pouches x 400g"), then "400g x 12", then "400g".
 */
const measurePattern = new RegExp(
  [
    String.raw`${numberStart}(\d+)\s*(?:(?:${nounWords})\s*)?${times}(${decimal})\s*(${unitWords})${unitEnd}`,
    String.raw`${numberStart}(${decimal})\s*(${unitWords})${times}(\d+)(?![\d.,a-z])`,
    String.raw`${numberStart}(${decimal})\s*(${unitWords})${unitEnd}`,
  ].join("|"),
  "g",
);
/** "7 x 10 sticks", then "40 pouches". */
const countPattern = new RegExp(
  [String.raw`${numberStart}(\d+)${times}(\d+)\s*(${nounWords})(?![a-z])`, String.raw`${numberStart}(\d+)\s*(${nounWords})(?![a-z])`].join("|"),
  "g",
);
/** "Pack of 4", "case of 12", "5 Pack", "10-pack", "6pk", "Twin Pack". */
const packOfPattern = new RegExp(
  String.raw`\b(?:pack|case|box|bundle|set|tray) of (\d+)(?![\d.,])|${numberStart}(\d+)\s*-?\s*(?:pack|pk)s?(?![a-z])|\b(twin|duo|triple|trio)\s*-?\s*pack\b`,
  "g",
);
const namedPackCounts: Readonly<Record<string, number>> = { twin: 2, duo: 2, triple: 3, trio: 3 };

/**
 * Text that makes the number after it a size, stage, formula or rate, not a quantity: "Size 3",
 * "Omega 3", "4 in 1", "per 100g", "£1.20/100g", "55p/100g", a minus sign ("-2kg").
 */
const notAQuantityBefore = /(?:\b(?:size|level|stage|step|age|aged|ages|model|omega|vitamin|no\.?|number|type|version|series|phase|grade|per)\s*|(?:[£$€]\s*\d+(?:[.,]\d+)?|\d+p)\s*\/\s*|\d\s*in\s*|(?:^|\s)-)$/;
/**
 * Text before a weight or volume that makes it a range or a limit (the animal's weight, the water
 * treated) rather than the pack: "20-40kg", "2kg - 10kg", "2 to 10kg", "up to 10kg", ">8kg".
 */
const limitBefore = new RegExp(
  String.raw`(?:\d\s*(?:(?:${unitWords})\s*)?(?:-|\bto)\s*|\b(?:up\s*to|upto|over|under|above|below|from|weighing|max|maximum|min|minimum)\s*|[<>≤≥]=?\s*)$`,
);
/** Text after a weight or volume that makes it a range or a limit: "40kg+", "10kg-25kg", "25kg and over" (but "12kg + 2kg" is a pack). */
const limitAfter = new RegExp(String.raw`^\s*(?:\+(?!\s*\d)|(?:-|to\b)\s*${decimal}\s*(?:${unitWords})${unitEnd}|and\s+(?:over|above|up)|or\s+(?:more|over|above))`);

/** A quantity the text states, before the name's other mentions are weighed against it. */
interface Mention {
  start: number;
  end: number;
  measure: PackQuantity["measure"];
  count: number;
  /** Base units of one piece; for counts, items per piece (null for a plain count). */
  each: number | null;
  /** One piece in pounds or ounces as written (5 lb), which the label keeps; null for metric pieces and counts. */
  imperial: { value: number; unit: MeasureUnit } | null;
  noun: CountNoun | null;
}

/**
 * A decimal as written: a point or a comma before one or two digits is a decimal separator
 * ("1,5" = 1.5); a comma before three digits separates thousands ("1,000" = 1000).
 */
function readDecimal(text: string): number | null {
  const comma = /^(\d+),(\d+)$/.exec(text);
  if (!comma) return Number(text);
  const [, whole, fraction] = comma;
  if (fraction!.length <= 2) return Number(`${whole}.${fraction}`);
  if (fraction!.length === 3) return Number(`${whole}${fraction}`);
  return null;
}

/** Base units to two decimals: pounds and ounces rarely make whole grams. */
const toHundredths = (value: number) => Math.round(value * 100) / 100;

function measureMention(start: number, end: number, count: number, valueText: string, unitWord: string): Mention | null {
  const unit = measureUnits[unitWord]!;
  const value = readDecimal(valueText);
  if (value === null) return null;
  const imperial = unit.imperial ? { value, unit } : null;
  return { start, end, measure: unit.measure, count, each: toHundredths(value * unit.base), imperial, noun: null };
}

function isQuantityStart(text: string, index: number): boolean {
  return !notAQuantityBefore.test(text.slice(Math.max(0, index - 12), index));
}

function isLimit(text: string, mention: Mention): boolean {
  return limitBefore.test(text.slice(Math.max(0, mention.start - 16), mention.start)) || limitAfter.test(text.slice(mention.end, mention.end + 24));
}

function findMeasures(text: string): Mention[] {
  const mentions: Mention[] = [];
  for (const match of text.matchAll(measurePattern)) {
    const [whole, count1, value1, unit1, value2, unit2, count2, value3, unit3] = match;
    const start = match.index;
    const end = start + whole.length;
    let mention: Mention | null;
    if (count1 !== undefined) {
      // "Omega 3 x 100g": the count is not one, but the weight still is.
      const unitStart = start + whole.lastIndexOf(value1!);
      mention = isQuantityStart(text, start) ? measureMention(start, end, Number(count1), value1!, unit1!) : measureMention(unitStart, end, 1, value1!, unit1!);
    } else if (count2 !== undefined) {
      mention = isQuantityStart(text, start) ? measureMention(start, end, Number(count2), value2!, unit2!) : null;
    } else {
      mention = isQuantityStart(text, start) ? measureMention(start, end, 1, value3!, unit3!) : null;
    }
    if (mention && !isLimit(text, mention)) mentions.push(mention);
  }
  return mentions;
}

function findCounts(text: string): Mention[] {
  const mentions: Mention[] = [];
  for (const match of text.matchAll(countPattern)) {
    const [whole, packs, perPack, noun1, items, noun2] = match;
    if (!isQuantityStart(text, match.index)) continue;
    const noun = countNounByWord.get((noun1 ?? noun2)!)!;
    const count = Number(packs ?? items);
    const each = perPack === undefined ? null : Number(perPack);
    mentions.push({ start: match.index, end: match.index + whole.length, measure: "count", count, each, imperial: null, noun });
  }
  return mentions;
}

/** The last "Pack of N" that is not part of another mention ("Pack of 12 x 400g" is one multipack). */
function findPackOf(text: string, taken: readonly Mention[]): number | null {
  let packOf: number | null = null;
  for (const match of text.matchAll(packOfPattern)) {
    const [whole, ofCount, countPack, named] = match;
    const start = match.index;
    const end = start + whole.length;
    if (taken.some((mention) => mention.start < end && start < mention.end)) continue;
    if (countPack !== undefined && !isQuantityStart(text, start)) continue;
    packOf = named !== undefined ? namedPackCounts[named]! : Number(ofCount ?? countPack);
  }
  return packOf;
}

/**
 * The weight or volume that stands for the pack: the last one stated, except that a free extra
 * ("12kg + 2kg Free") adds to the one before it, and a total restated after a multipack
 * ("2 x 6kg (12kg)") keeps the multipack.
 */
function chooseMeasure(text: string, measures: readonly Mention[]): Mention | null {
  const last = measures.at(-1);
  if (!last) return null;
  const previous = measures.at(-2);
  if (previous && previous.measure === last.measure) {
    const isFreeExtra = /\+\s*$/.test(text.slice(0, last.start)) && /^\s*(?:free|extra|bonus)\b/.test(text.slice(last.end));
    if (isFreeExtra) return withFreeExtra(previous, last);
  }
  if (last.count === 1) {
    const restated = measures.findLast((mention) => mention.count > 1 && mention.measure === last.measure && toHundredths(mention.count * mention.each!) === last.each);
    if (restated) return restated;
  }
  return last;
}

/** The pack and its free extra as one: more of the same pieces, else one piece of the total. */
function withFreeExtra(pack: Mention, extra: Mention): Mention {
  if (pack.each === extra.each) return { ...pack, end: extra.end, count: pack.count + extra.count };
  if (pack.imperial && pack.imperial.unit === extra.imperial?.unit) {
    const value = pack.count * pack.imperial.value + extra.count * extra.imperial.value;
    return { ...pack, end: extra.end, count: 1, each: toHundredths(value * pack.imperial.unit.base), imperial: { value, unit: pack.imperial.unit } };
  }
  return { ...pack, end: extra.end, count: 1, each: toHundredths(pack.count * pack.each! + extra.count * extra.each!), imperial: null };
}

/**
 * 2500 g -> "2.5kg", 400 g -> "400g", 1500 ml -> "1.5L", 48 ml -> "48ml"; kilograms and litres
 * to the gram or millilitre (4 lb + 500 g free, 2314.37 g, is "2.314kg").
 */
function metricLabel(base: number, measure: "weight" | "volume"): string {
  const [small, large] = measure === "weight" ? ["g", "kg"] : ["ml", "L"];
  return base >= 1000 ? `${Math.round(base) / 1000}${large}` : `${base}${small}`;
}

function labelOf(mention: Mention): string {
  const { count, each } = mention;
  if (mention.measure === "count") {
    const noun = mention.noun;
    if (!noun) return `Pack of ${count}`;
    if (each === null) return `${count} ${count === 1 ? noun.one : noun.many}`;
    return `${count} x ${each} ${each === 1 ? noun.one : noun.many}`;
  }
  const piece = mention.imperial ? `${mention.imperial.value}${mention.imperial.unit.imperial}` : metricLabel(each!, mention.measure);
  return count === 1 ? piece : `${count} x ${piece}`;
}

const unitOfMeasure: Readonly<Record<PackQuantity["measure"], QuantityUnit>> = { weight: "kg", volume: "l", count: "item" };
const maxAmount: Readonly<Record<PackQuantity["measure"], number>> = { weight: MAX_GRAMS, volume: MAX_MILLILITRES, count: MAX_ITEMS };

/**
 * The net quantity a product name or size field states, or null when it states none (a size such
 * as "Large" or "Size 3", a dimension, only the animal's weight) or an absurd one (zero, over
 * 1000 kg or 1000 litres, over 10,000 items).
 *
 * A weight or volume wins over a count of items ("7 Sticks 270g" is 270 g), except for medicines
 * counted in doses ("Spot On 4kg 3 Pipettes" is 3 pipettes for a 4 kg cat). When several are
 * stated the last is the pack; "Pack of N" anywhere multiplies it. Case, spaces, "x"/"×" and a
 * decimal comma do not matter; pounds and ounces become grams to 0.01 g, centilitres millilitres.
 * @example parsePackQuantity("Royal Canin Medium Adult 15kg (Pack of 2)") // { amount: 30000, measure: "weight", unit: "kg", count: 2, each: 15000, label: "2 x 15kg" }
 * @example parsePackQuantity("Whiskas 1+ Pouches 48 x 85g")?.amount // 4080
 * @example parsePackQuantity("Tetra AquaSafe 1,5 L")?.label // "1.5L"
 * @example parsePackQuantity("Frontline Spot On Large Dog 20-40kg 6 Pipettes")?.label // "6 pipettes"
 * @example parsePackQuantity("Kong Classic Large") // null
 */
export function parsePackQuantity(text: string | null | undefined): PackQuantity | null {
  if (!text) return null;
  const folded = text.normalize("NFKC").toLowerCase().replace(/[×✕✖]/g, "x").replace(/[‐‑‒–—−]/g, "-");
  const measures = findMeasures(folded);
  const counts = findCounts(folded);
  const packOf = findPackOf(folded, [...measures, ...counts]);

  const countsWin = counts.some((mention) => mention.noun!.dose);
  const chosen = countsWin ? counts.at(-1) : (chooseMeasure(folded, measures) ?? counts.at(-1));
  if (!chosen) return packOf === null ? null : quantityOf({ start: 0, end: 0, measure: "count", count: packOf, each: null, imperial: null, noun: null });
  if (packOf === null) return quantityOf(chosen);
  // "Pack of N" multiplies the pieces; a plain count becomes N pieces of it ("28 Sticks (Pack of 4)" is 4 x 28 sticks).
  return chosen.each === null ? quantityOf({ ...chosen, count: packOf, each: chosen.count }) : quantityOf({ ...chosen, count: chosen.count * packOf });
}

function quantityOf(mention: Mention): PackQuantity | null {
  const { count, each, measure } = mention;
  const amount = each === null ? count : toHundredths(count * each);
  if (!(count >= 1) || !(amount > 0) || amount > maxAmount[measure] || count > MAX_ITEMS) return null;
  return { amount, measure, unit: unitOfMeasure[measure], count, each, label: labelOf(mention) };
}
