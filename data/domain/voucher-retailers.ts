/**
 * The vouchers page's retailer filter: the retailers it offers, in this order, and how a chosen
 * retailer matches a voucher's retailer name.
 */

/**
 * The retailers the filter offers, in this order, whether or not they have a voucher today (an
 * empty choice says so). A voucher from any other retailer shows under "All retailers".
 */
export const voucherFilterRetailers = ["Amazon", "Pets at Home", "Jollyes", "Zooplus", "Viovet", "Fetch", "Petplanet"] as const;

/**
 * A retailer's name compared without case, spaces or punctuation, so the filter's "Petplanet"
 * finds vouchers entered as "Pet Planet" or "PetPlanet".
 * @example retailerNameKey("Pet Planet") // "petplanet"
 * @example retailerNameKey("Pets at Home") // "petsathome"
 */
export function retailerNameKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}
