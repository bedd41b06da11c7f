/**
 * A product's legal category as a veterinary medicine (the UK's distribution categories), and
 * the one rule every promoting surface asks: a prescription-only medicine (POM-V or POM-VPS) may
 * not be advertised to the public, so it is shown as a plain price list with "Prescription
 * needed" and never with deal badges, a was price or a saving, in a featured or hero slot, in
 * the newsletter, or with a price alert.
 * Pure: the API, the build, the feed reader and the admin island share it.
 */

/** Every category a product can carry; "none" is a product that is not a veterinary medicine. */
export const legalCategories = ["none", "POM-V", "POM-VPS", "NFA-VPS", "AVM-GSL"] as const;
export type LegalCategory = (typeof legalCategories)[number];

/** The categories that need a prescription. */
export const prescriptionOnlyCategories = ["POM-V", "POM-VPS"] as const satisfies readonly LegalCategory[];

/** Each category as the admin reads it in the product form. */
export const legalCategoryLabels: Readonly<Record<LegalCategory, string>> = {
  none: "None (not a veterinary medicine)",
  "POM-V": "POM-V: prescription from a vet",
  "POM-VPS": "POM-VPS: prescription from a vet, pharmacist or SQP",
  "NFA-VPS": "NFA-VPS: from a vet, pharmacist or SQP, no prescription",
  "AVM-GSL": "AVM-GSL: general sale",
};

/** What a shopper reads beside a prescription-only medicine's prices. */
export const prescriptionNeededText = "Prescription needed";

/**
 * Who may prescribe a prescription-only medicine, for its page; null for any other category.
 * @example prescriberText("POM-V") // "a prescription from a vet (POM-V)"
 */
export function prescriberText(category: string | null | undefined): string | null {
  if (category === "POM-V") return "a prescription from a vet (POM-V)";
  if (category === "POM-VPS") return "a prescription from a vet, pharmacist or SQP (POM-VPS)";
  return null;
}

/**
 * Whether a product of this category needs a prescription: POM-V or POM-VPS. Anything else
 * (none, NFA-VPS, AVM-GSL, a value not known) does not.
 * @example isPrescriptionOnly("POM-VPS") // true
 * @example isPrescriptionOnly("NFA-VPS") // false
 */
export function isPrescriptionOnly(category: string | null | undefined): boolean {
  return (prescriptionOnlyCategories as readonly string[]).includes(category ?? "");
}

export function isLegalCategory(value: unknown): value is LegalCategory {
  return (legalCategories as readonly unknown[]).includes(value);
}

/** Each category by its code with case, spaces, dots, hyphens, dashes and underscores removed ("pom v" -> POMV). */
const byCompactCode = new Map<string, LegalCategory>(legalCategories.map((category) => [compactCode(category), category]));

function compactCode(text: string): string {
  return text.toUpperCase().replace(/[\s._\-‐‑‒–—]/g, "");
}

/**
 * A feed's legal category cell: the category it names, however it is written ("POM-V", "pom v",
 * "POM_VPS", "POM–VPS"); undefined when the cell is empty (the feed does not say); null when it
 * names no category we know, which makes the row an error.
 * @example parseLegalCategory(" pom v ") // "POM-V"
 * @example parseLegalCategory("") // undefined
 * @example parseLegalCategory("GSL") // null
 */
export function parseLegalCategory(text: string | undefined): LegalCategory | null | undefined {
  const trimmed = text?.trim() ?? "";
  if (trimmed === "") return undefined;
  return byCompactCode.get(compactCode(trimmed)) ?? null;
}

/** A product as a newsletter issue could mention it. */
export interface NamedProduct {
  name: string;
  slug: string;
}

/**
 * The products among `medicines` (the catalogue's prescription-only ones) that an issue's text or
 * HTML promotes: it links to the product's page (/product/<slug>, whole slug) or names the product
 * in full (any case, any spacing). Each product once, in the order given.
 * @example promotedProducts("See https://pawprice.example/product/wormer-4-pack", [{ name: "Wormer 4 pack", slug: "wormer-4-pack" }]) // [that product]
 */
export function promotedProducts(issue: string, medicines: readonly NamedProduct[]): NamedProduct[] {
  const linked = new Set([...issue.matchAll(/\/product\/([a-z0-9]+(?:-[a-z0-9]+)*)(?![a-z0-9-])/g)].map((match) => match[1]!));
  const words = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();
  const text = words(issue);
  return medicines.filter((product) => linked.has(product.slug) || (words(product.name) !== "" && text.includes(words(product.name))));
}
