/**
 * Unit prices as UK shelves must show them: per kilogram for goods sold by weight, per litre for
 * goods sold by volume, per item for goods sold by number, never per 100 g or 100 ml, and with VAT
 * (the shelf prices here already include it).
 */
import { formatPence, type Pence } from "./money.ts";
import type { PackQuantity, QuantityUnit } from "./pack-size.ts";

export interface UnitPrice {
  /** Integer pence per unit, rounded half up. */
  pence: Pence;
  unit: QuantityUnit;
}

/** Base units (grams, millilitres, items) in one unit of the unit price. */
const baseUnitsPer: Readonly<Record<QuantityUnit, number>> = { kg: 1000, l: 1000, item: 1 };

/**
 * The price of one kilogram, litre or item of a pack, in whole pence rounded half up; null when
 * the quantity is unknown or empty, or the price is not whole, non-negative pence (or so large,
 * over £450 million, that the integer arithmetic would lose digits). The arithmetic is on
 * integers (quantities to a hundredth of a gram or millilitre), so the one rounding is exact.
 * @example unitPrice(6499, parsePackQuantity("12kg")) // { pence: 542, unit: "kg" }
 * @example unitPrice(1799, parsePackQuantity("6 x 400g")) // { pence: 750, unit: "kg" } (749.58)
 * @example unitPrice(2499, parsePackQuantity("6 Pipettes")) // { pence: 417, unit: "item" }
 */
export function unitPrice(totalPence: Pence, quantity: Pick<PackQuantity, "amount" | "unit"> | null | undefined): UnitPrice | null {
  if (!quantity || !Number.isSafeInteger(totalPence) || totalPence < 0) return null;
  const hundredths = Math.round(quantity.amount * 100);
  if (!(hundredths > 0)) return null;
  // pence per unit = totalPence x base units per unit / amount, here with both sides in hundredths.
  const numerator = totalPence * baseUnitsPer[quantity.unit] * 100;
  if (!Number.isSafeInteger(2 * numerator + hundredths)) return null;
  return { pence: divideRoundingHalfUp(numerator, hundredths), unit: quantity.unit };
}

/** numerator / denominator for non-negative integers, a half rounded up, without float error. */
function divideRoundingHalfUp(numerator: number, denominator: number): number {
  const doubled = 2 * numerator + denominator;
  return (doubled - (doubled % (2 * denominator))) / (2 * denominator);
}

/** How a unit price names its unit: "per kg", "per litre", "per item". */
export const unitWords: Readonly<Record<QuantityUnit, string>> = { kg: "per kg", l: "per litre", item: "per item" };

/**
 * A unit price as the shelf label writes it: pounds and pence, then "per kg", "per litre" or
 * "per item" (pence below £1 still in pounds, as every other price on the site).
 * @example formatUnitPrice({ pence: 542, unit: "kg" }) // "£5.42 per kg"
 * @example formatUnitPrice({ pence: 666, unit: "l" }) // "£6.66 per litre"
 * @example formatUnitPrice({ pence: 83, unit: "item" }) // "£0.83 per item"
 */
export function formatUnitPrice(price: UnitPrice): string {
  return `${formatPence(price.pence)} ${unitWords[price.unit]}`;
}

const unitOrder: Readonly<Record<QuantityUnit, number>> = { kg: 0, l: 1, item: 2 };

/**
 * Orders unit prices for "Price per kg: Low to High": cheapest first within a unit, the units
 * apart (per kg, then per litre, then per item, since a kilogram and a litre do not compare),
 * products without a unit price last.
 * @example [perItem, null, perKg].sort(compareUnitPrices) // [perKg, perItem, null]
 */
export function compareUnitPrices(a: UnitPrice | null, b: UnitPrice | null): number {
  if (a === null || b === null) return (a === null ? 1 : 0) - (b === null ? 1 : 0);
  return unitOrder[a.unit] - unitOrder[b.unit] || a.pence - b.pence;
}
