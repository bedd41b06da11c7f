/**
 * Slugs: the page addresses of products and categories, retailer keys and family keys. Pure, no
 * zod: the admin islands derive slugs with the same rule the server, the seed and the importers
 * use, and the API's schemas (catalogue-input.ts) check typed slugs against `slugPattern`.
 */

/** Lowercase letters, digits and single hyphens between them: the shape of every slug we serve. */
export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The longest slug accepted. */
export const maxSlugLength = 200;

/**
 * A slug from a name: accents are dropped ("Café" -> "cafe"), letters lower-cased, "&" is read
 * as "and", apostrophes vanish rather than split a word ("Hill's" -> "hills"), and every other
 * run of characters that are not a-z or 0-9 becomes one hyphen ("2.5kg" -> "2-5kg"), none
 * leading or trailing. The result always matches `slugPattern`, or is empty when the name has no
 * letter or digit.
 * @example slugify("Pets & Co") // "pets-and-co"
 * @example slugify("Hill's Science Plan Adult 2.5kg") // "hills-science-plan-adult-2-5kg"
 * @example slugify("£££") // ""
 */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’‘`´]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
