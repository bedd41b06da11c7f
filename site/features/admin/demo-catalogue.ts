/**
 * The admin's wording for removing the demo catalogue: the question asked before (what goes and
 * what stays, with counts) and the result after.
 */
import type { DemoCleared, DemoState } from "./admin-api.ts";

const counted = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString("en-GB")} ${count === 1 ? one : many}`;

/**
 * @example clearDemoQuestion({ demo: true, products: 480, keptProducts: 2, offers: 1410, vouchers: 8 })
 * // "Remove the demo catalogue?\n\nRemoves 478 demo products, 1,410 demo offers with their price history and 8 demo vouchers.\n\nKeeps 2 demo products you gave offers of your own (they become yours), ..."
 */
export function clearDemoQuestion(state: DemoState): string {
  const removed = state.products - state.keptProducts;
  const kept = state.keptProducts > 0 ? `${counted(state.keptProducts, "demo product")} you gave offers of your own (they become yours), ` : "";
  return [
    "Remove the demo catalogue?",
    `Removes ${counted(removed, "demo product")}, ${counted(state.offers, "demo offer")} with their price history and ${counted(state.vouchers, "demo voucher")}.`,
    `Keeps ${kept}your own products, retailers, categories, affiliate IDs and subscribers.`,
    "The public site is then rebuilt without the demo line. Only `npm run seed` brings a demo back.",
  ].join("\n\n");
}

/**
 * @example clearedDemoText({ products: 478, keptProducts: 2, offers: 1410, historyPoints: 5200, vouchers: 8 })
 * // "Removed 478 products, 1,410 offers and 8 vouchers; kept 2 products with your own offers. The public site is being rebuilt."
 */
export function clearedDemoText(cleared: DemoCleared): string {
  const kept = cleared.keptProducts > 0 ? `; kept ${counted(cleared.keptProducts, "product")} with your own offers` : "";
  return `Removed ${counted(cleared.products, "product")}, ${counted(cleared.offers, "offer")} and ${counted(cleared.vouchers, "voucher")}${kept}. The public site is being rebuilt.`;
}
