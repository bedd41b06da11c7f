/**
 * Rules of the product import that the admin's import screen states. Pure, no zod: the admin
 * island imports it, and so does the import job (api/jobs/product-import.ts).
 */

/**
 * How many of the products one import run creates are featured: the first 6. A prescription-only
 * medicine (POM-V, POM-VPS) is never featured and does not use up a featured place.
 */
export const featuredPerImport = 6;
