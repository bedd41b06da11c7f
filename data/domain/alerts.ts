import type { Pence } from "./money.ts";

export type AlertStatus = "Waiting for drop" | "Price reached!";

/**
 * An alert's status as My Alerts shows it (SPEC.md section 4): reached when the best price is
 * at or below the target; waiting while it is above (or the product is out of stock everywhere).
 * @example alertStatus(999, 1000) // "Price reached!"
 * @example alertStatus(null, 1000) // "Waiting for drop"
 */
export function alertStatus(bestPricePence: Pence | null, targetPricePence: Pence): AlertStatus {
  return bestPricePence !== null && bestPricePence <= targetPricePence ? "Price reached!" : "Waiting for drop";
}
