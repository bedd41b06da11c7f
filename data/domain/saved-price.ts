/**
 * How a favourite's price moved since it was saved: both prices are best prices to the door, in
 * pounds as the API gives them; compared in whole pence.
 */
import { formatPence, toPence } from "./money.ts";

export type PriceMove =
  | { direction: "down" | "up"; pence: number; text: string }
  | { direction: "same"; pence: 0; text: string };

/**
 * The move from the price when saved to the price now, in words; null when either is unknown
 * (saved before prices were kept, or nothing in stock now or then).
 * @example priceMoveSinceSaved(25.99, 24.49)?.text // "Down £1.50 since you saved it"
 * @example priceMoveSinceSaved(25.99, 27)?.text // "Up £1.01 since you saved it"
 * @example priceMoveSinceSaved(25.99, 25.99)?.text // "Same price as when you saved it"
 * @example priceMoveSinceSaved(null, 25.99) // null
 */
export function priceMoveSinceSaved(savedPrice: number | null | undefined, currentPrice: number | null | undefined): PriceMove | null {
  const saved = toPence(savedPrice);
  const current = toPence(currentPrice);
  if (saved === null || current === null) return null;
  const difference = current - saved;
  if (difference === 0) return { direction: "same", pence: 0, text: "Same price as when you saved it" };
  const direction = difference < 0 ? "down" : "up";
  const pence = Math.abs(difference);
  return { direction, pence, text: `${direction === "down" ? "Down" : "Up"} ${formatPence(pence)} since you saved it` };
}
