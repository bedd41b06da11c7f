/**
 * What a product's pack holds, as its unit price is worked out from: the net quantity read from
 * its name, except where the litres in a name are a capacity and not contents (an aquarium or a
 * vivarium is not sold by the litre).
 */
import { parsePackQuantity, type PackQuantity } from "./pack-size.ts";
import { unitPrice, type UnitPrice } from "./unit-price.ts";
import type { Pence } from "./money.ts";

/** The pack size the API and pages carry: total in base units (g, ml, items), unit-price unit, label. */
export type PackSize = Pick<PackQuantity, "amount" | "unit" | "label">;

/** Equipment whose name states a volume it holds, not a volume sold. */
const capacityWords = /\b(aquariums?|tanks?|vivariums?|terrariums?|kits?|ponds?)\b/i;

/**
 * The pack size in a product name, or null when none is stated (sizes like "Large", dimensions,
 * a tank's capacity).
 * @example packSizeOf("Royal Canin Medium Adult Dry Dog Food 15kg") // { amount: 15000, unit: "kg", label: "15kg" }
 * @example packSizeOf("Fluval Flex Aquarium Kit Black 57L") // null
 */
export function packSizeOf(name: string): PackSize | null {
  const quantity = parsePackQuantity(name);
  if (quantity === null || (quantity.measure === "volume" && capacityWords.test(name))) return null;
  return { amount: quantity.amount, unit: quantity.unit, label: quantity.label };
}

/**
 * The unit price of a price to the door for the pack, or null without a pack size.
 * @example unitPriceOf(6499, { amount: 12000, unit: "kg", label: "12kg" }) // { pence: 542, unit: "kg" }
 */
export function unitPriceOf(totalPence: Pence, pack: PackSize | null): UnitPrice | null {
  return pack === null ? null : unitPrice(totalPence, pack);
}

/**
 * The price per kg the per-kg sort orders by: the best price to the door per kilogram when the
 * pack is sold by weight, else null (per litre and per item do not compare with per kg; nothing
 * in stock has no best price).
 * @example pricePerKgOf(4599, packSizeOf("Dry Dog Food 12kg")) // 383 (383.25)
 * @example pricePerKgOf(2499, packSizeOf("Flea Drops 6 Pipettes")) // null
 */
export function pricePerKgOf(bestPricePence: Pence | null, pack: PackSize | null): Pence | null {
  if (bestPricePence === null || pack === null || pack.unit !== "kg") return null;
  return unitPrice(bestPricePence, pack)?.pence ?? null;
}
