/**
 * Per-visitor limits, shared by the API's validation and the islands (this module has no
 * dependencies, so islands import it without bundling zod). Errors state them.
 */
export const favoriteLimit = 200;
export const activeAlertLimit = 50;
export const maxNotesLength = 500;
/** The highest alert target accepted, in pounds. */
export const maxTargetPounds = 100_000;
/** The longest e-mail address accepted (the longest a mail path may carry), after trimming. */
export const maxEmailLength = 254;

/**
 * The most characters the admin may type into the catalogue's text fields, after trimming: the
 * catalogue input refuses more, and the admin forms stop typing there.
 */
export const catalogueTextLimits = {
  productName: 200,
  categoryName: 100,
  categoryIcon: 50,
  categoryDescription: 2000,
  retailerName: 100,
  retailerDescription: 2000,
  voucherCode: 50,
  voucherDescription: 500,
  voucherRetailer: 100,
  voucherDiscount: 50,
  feedSourceName: 100,
  feedSchedule: 100,
} as const;

/**
 * A basket: at most this many different products, each at most this many times. The cheapest
 * split is exact up to 8 products over 8 retailers and found by a heuristic beyond.
 */
export const basketLimits = { products: 20, quantity: 99 } as const;
