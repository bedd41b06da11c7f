/**
 * Pack sizes of one product (a family: the same brand, line and recipe in several sizes). Each
 * size keeps its own page, offers and address; the product page lists the family's sizes, each
 * with its best price to the door and its unit price, and marks the best value per kg (or per
 * litre, or per item).
 */
import type { Pence } from "./money.ts";
import { foodPackGrams } from "./food.ts";
import { packSizeOf, unitPriceOf, type PackSize } from "./product-quantity.ts";
import { compareUnitPrices, type UnitPrice } from "./unit-price.ts";
import type { QuantityUnit } from "./pack-size.ts";

/** One product of a family as the database holds it. */
export interface FamilyMember {
  id: number;
  slug: string;
  name: string;
  /** Best price to the door, in pence; null when nothing is in stock. */
  bestPricePence: Pence | null;
  /** Its pack size when already read from its name (reading names is the costly part); else read here. */
  packSize?: PackSize | null;
  /** The retailer of its best price. */
  bestRetailer?: string | null;
  /** The delivery within its best price, in pence; null or absent when not stated (the item price is then the whole price). */
  bestDeliveryPence?: Pence | null;
}

/** One size as the product page and the API show it (prices in pounds, as the API speaks). */
export interface ProductSize {
  id: number;
  slug: string;
  /** "12kg", "2 x 7kg", "24 x 400g"; a size word ("Large") where the name states no quantity. */
  label: string;
  /** Best price to the door; null when nothing is in stock. */
  bestPricePence: Pence | null;
  /** The best price per kg, litre or item; null without a pack size or a best price. */
  unitPrice: UnitPrice | null;
  /**
   * The item price of the best offer (its price to the door less the delivery in it) and its unit
   * price: what "Show item prices only" shows. Null when nothing is in stock.
   */
  bestItemPricePence: Pence | null;
  itemUnitPrice: UnitPrice | null;
  /** The lowest unit price of the family (every size on it when tied); only where two or more sizes have one. */
  bestValue: boolean;
  /** The retailer of the best price; null when nothing is in stock or not known. */
  bestRetailer: string | null;
  /** Grams in the pack when it is sold by weight (what feeding costs are worked out from); else null. */
  packGrams: number | null;
}

interface Sized {
  member: FamilyMember;
  pack: PackSize | null;
  unit: UnitPrice | null;
}

/** Sizes by pack amount, smallest first; sizes without a stated quantity after them, cheapest first; then id. */
function bySize(a: Sized, b: Sized): number {
  if (a.pack !== null && b.pack !== null && a.pack.unit === b.pack.unit && a.pack.amount !== b.pack.amount) return a.pack.amount - b.pack.amount;
  if ((a.pack === null) !== (b.pack === null)) return a.pack === null ? 1 : -1;
  const priceA = a.member.bestPricePence ?? Number.MAX_SAFE_INTEGER;
  const priceB = b.member.bestPricePence ?? Number.MAX_SAFE_INTEGER;
  return priceA - priceB || a.member.id - b.member.id;
}

/** The words every name starts with (the family's name), so what is left is the size. */
function commonWordPrefix(names: readonly string[]): number {
  const split = names.map((name) => name.split(" "));
  const first = split[0] ?? [];
  let words = 0;
  while (words < first.length - 1 && split.every((parts) => parts.length - 1 > words && parts[words] === first[words])) words++;
  return words;
}

/**
 * A family's sizes, smallest pack first, each with its label, best price and unit price, the
 * lowest unit price marked as best value (ties: all of them). A family of one has no sizes to
 * choose between: [].
 * @example productSizes([{ id: 1, slug: "a-12kg", name: "A 12kg", bestPricePence: 4599 }, { id: 2, slug: "a-2kg", name: "A 2kg", bestPricePence: 1099 }]).map((s) => [s.label, s.bestValue]) // [["2kg", false], ["12kg", true]]
 */
export function productSizes(members: readonly FamilyMember[]): ProductSize[] {
  if (members.length < 2) return [];
  const sized: Sized[] = members.map((member) => {
    const pack = member.packSize === undefined ? packSizeOf(member.name) : member.packSize;
    return { member, pack, unit: member.bestPricePence === null ? null : unitPriceOf(member.bestPricePence, pack) };
  });
  sized.sort(bySize);
  const lowest = sized.map((size) => size.unit).sort(compareUnitPrices)[0] ?? null;
  const priced = sized.filter((size) => size.unit !== null && lowest !== null && size.unit.unit === lowest.unit).length;
  const prefixWords = commonWordPrefix(sized.map((size) => size.member.name));
  return sized.map(({ member, pack, unit }) => {
    const itemPence = member.bestPricePence === null ? null : member.bestPricePence - (member.bestDeliveryPence ?? 0);
    return {
      id: member.id,
      slug: member.slug,
      label: pack?.label ?? member.name.split(" ").slice(prefixWords).join(" "),
      bestPricePence: member.bestPricePence,
      unitPrice: unit,
      bestItemPricePence: itemPence,
      itemUnitPrice: itemPence === null ? null : unitPriceOf(itemPence, pack),
      bestValue: priced >= 2 && unit !== null && compareUnitPrices(unit, lowest) === 0,
      bestRetailer: member.bestPricePence === null ? null : (member.bestRetailer ?? null),
      packGrams: foodPackGrams(pack),
    };
  });
}

const bestValueWords: Readonly<Record<QuantityUnit, string>> = { kg: "Best value per kg", l: "Best value per litre", item: "Best value per item" };

/**
 * The mark on the best-value size.
 * @example bestValueLabel("kg") // "Best value per kg"
 */
export function bestValueLabel(unit: QuantityUnit): string {
  return bestValueWords[unit];
}
