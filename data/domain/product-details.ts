/**
 * A product's details: text the admin types on the product form and the product page shows,
 * stored as it was typed (trimmed) in a column of its own. Each detail is declared once, here;
 * from this table come its column in every read and write of a product, its check in the
 * catalogue input, its field on the admin form, its column in the export (when it has one) and
 * its place on `Product`. A new detail is its column in data/db/schema.ts (with the migration
 * drizzle-kit writes), an entry here, and where the product page shows it.
 *
 * What else reads a detail is written where it reads it (search indexes the description).
 */

export interface ProductDetail {
  /** Its column in the products table (NOT NULL, empty text for none). */
  column: string;
  /** Its name on the admin form, in the export's heading and in the form's messages. */
  label: string;
  /** The most characters it may hold once trimmed. */
  maxLength: number;
  /** Lines the form's text box shows. */
  lines: number;
  /** The form's hint under the field, when it needs one. */
  hint?: string;
  /** Its column in the product export (a width in characters); absent: not exported. */
  exportWidth?: number;
}

export const productDetails = {
  description: { column: "description", label: "Description", maxLength: 10_000, lines: 5 },
} as const satisfies Record<string, ProductDetail>;

export type ProductDetailKey = keyof typeof productDetails;

/** A product's details by name; "" means none. */
export type ProductDetailValues = { [K in ProductDetailKey]: string };

/** The details' columns in the products table. */
export type ProductDetailColumn = (typeof productDetails)[ProductDetailKey]["column"];

/** Every detail with its name, in the table's order (the form's and the export's order). */
export const productDetailList: readonly (ProductDetail & { key: ProductDetailKey })[] = Object.entries(productDetails).map(([key, detail]) => ({
  key: key as ProductDetailKey,
  ...detail,
}));

/** The details of a product read from its row (by column). */
export function detailsFromRow(row: { [C in ProductDetailColumn]: string }): ProductDetailValues {
  const values = {} as Record<ProductDetailKey, string>;
  for (const detail of productDetailList) values[detail.key] = row[detail.column as ProductDetailColumn];
  return values;
}

/** Just the details of something that has them (an input, a loaded product), by name; one it lacks is empty. */
export function detailsOf(source: Partial<ProductDetailValues>): ProductDetailValues {
  const values = {} as Record<ProductDetailKey, string>;
  for (const detail of productDetailList) values[detail.key] = source[detail.key] ?? "";
  return values;
}

/**
 * The details as the form sends them: trimmed.
 * @example trimmedDetails({ description: "  Grain free.  " }) // { description: "Grain free." }
 */
export function trimmedDetails(fields: ProductDetailValues): ProductDetailValues {
  const values = {} as Record<ProductDetailKey, string>;
  for (const detail of productDetailList) values[detail.key] = fields[detail.key].trim();
  return values;
}
