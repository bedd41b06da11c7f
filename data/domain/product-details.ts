/**
 * A product's details: text the admin types (or a value the admin chooses) on the product form
 * and the product page shows, stored as it was typed (trimmed) in a column of its own. Each
 * detail is declared once, here; from this table come its column in every read and write of a product, its check in the
 * catalogue input, its field on the admin form, its column in the export (when it has one) and
 * its place on `Product`. A new detail is its column in data/db/schema.ts (with the migration
 * drizzle-kit writes), an entry here, and where the product page shows it.
 *
 * What else reads a detail is written where it reads it (search indexes the description).
 */
import {
  foodLifeStageLabels,
  foodLifeStages,
  foodTypeLabels,
  foodTypes,
  mainProteinLabels,
  mainProteins,
  specialDietLabels,
  specialDiets,
} from "./food-facts.ts";

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
  /**
   * The values it may take, with their names on the form (a choice, not text; "" stays "not
   * stated"); with `multiple`, any of them at once, stored comma-separated in this order.
   */
  choices?: readonly { value: string; label: string }[];
  multiple?: boolean;
}

const choicesOf = <T extends string>(values: readonly T[], labels: Readonly<Record<T, string>>) =>
  values.map((value) => ({ value, label: labels[value] }));

/** "Read from the name when not stated": what a blank food fact means on the form. */
const fromName = "Left blank, it is read from the product's name. Food only.";

export const productDetails = {
  description: { column: "description", label: "Description", maxLength: 10_000, lines: 5 },
  lifeStage: {
    column: "life_stage",
    label: "Life stage",
    maxLength: 20,
    lines: 1,
    hint: fromName,
    choices: choicesOf(foodLifeStages, foodLifeStageLabels),
  },
  foodType: { column: "food_type", label: "Food type", maxLength: 20, lines: 1, hint: fromName, choices: choicesOf(foodTypes, foodTypeLabels) },
  mainProtein: {
    column: "main_protein",
    label: "Main protein",
    maxLength: 20,
    lines: 1,
    hint: fromName,
    choices: choicesOf(mainProteins, mainProteinLabels),
  },
  specialDiets: {
    column: "special_diets",
    label: "Special diets",
    maxLength: 100,
    lines: 1,
    hint: "None ticked: read from the product's name. Food only.",
    choices: choicesOf(specialDiets, specialDietLabels),
    multiple: true,
  },
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

/**
 * A detail's value as stored: trimmed text; for a choice, one of its values (several, for a
 * `multiple` one: comma-separated, each once, in the choices' order); "" for none. Null when a
 * choice names something it does not offer.
 * @example canonicalDetail(productDetails.specialDiets, " sensitive, grain-free ") // "grain-free,sensitive"
 * @example canonicalDetail(productDetails.foodType, "kibble") // null
 */
export function canonicalDetail(detail: ProductDetail, value: string): string | null {
  const trimmed = value.trim();
  if (!detail.choices || trimmed === "") return trimmed;
  const named = detail.multiple ? trimmed.split(",").map((item) => item.trim()) : [trimmed];
  const offered = detail.choices.map((choice) => choice.value);
  if (!named.every((item) => offered.includes(item))) return null;
  return offered.filter((choice) => named.includes(choice)).join(",");
}
