/**
 * Every internal URL comes from here (STYLE.md rule 4), so a route changes in one place.
 */
import { searchQueryString } from "./search-query.ts";

export const homePath = "/";
export const vouchersPath = "/vouchers";
export const alertsPath = "/my-alerts";
export const favoritesPath = "/favorites";
export const basketPath = "/basket";
export const adminPath = "/admin";
export const privacyPath = "/privacy-policy";
export const cookiePath = "/cookie-policy";
/** Shows this browser's visitor id and clears this browser's data. */
export const browserDataPath = "/your-data";
export const searchBasePath = "/search";
/** The site's icon (site/public), linked from every page: the site's own and the API's. */
export const faviconPath = "/favicon.svg";

const apiPrefix = "/api";

/**
 * @example productPath("royal-canin-maxi-adult") // "/product/royal-canin-maxi-adult"
 */
export function productPath(slug: string): string {
  return `/product/${encodeURIComponent(slug)}`;
}

/**
 * @example categoryPath("dog-food") // "/category/dog-food"
 */
export function categoryPath(slug: string): string {
  return `/category/${encodeURIComponent(slug)}`;
}

/**
 * A pet's page: the categories of everything we compare for it.
 * @example petPath("dogs") // "/pets/dogs"
 */
export function petPath(slug: string): string {
  return `/pets/${encodeURIComponent(slug)}`;
}

export const compareBasePath = "/compare";

/**
 * The compare page for these products, in this order (the page's columns); plain /compare
 * (which shows the tray's products) for none. Ids are whole numbers, so the commas need no escaping.
 * @example comparePath([12, 3, 40]) // "/compare?ids=12,3,40"
 * @example comparePath([]) // "/compare"
 */
export function comparePath(ids: readonly number[]): string {
  return ids.length === 0 ? compareBasePath : `${compareBasePath}?ids=${ids.map((id) => String(Math.trunc(id))).join(",")}`;
}

/**
 * The search results page; plain /search (which shows nothing) when the text is blank.
 * Forms that must not navigate on blank text use searchQueryString, which returns null.
 * @example searchPath("dog food") // "/search?q=dog%20food"
 * @example searchPath("dog food", 2) // "/search?q=dog%20food&page=2"
 */
export function searchPath(q: string, page: number = 1): string {
  return searchQueryString(q, page) ?? searchBasePath;
}

export type ApiParams = Record<string, string | number | undefined | null>;

const hasValue = (value: string | number | undefined | null): value is string | number =>
  value !== undefined && value !== null && value !== "" && (typeof value !== "number" || Number.isFinite(value));

/**
 * A path of the site's API with its query string. The path may be given with or without the
 * /api prefix. Empty, null and undefined parameters are skipped.
 * @example apiPath("/products", { category: "dog-food", brand: undefined, offset: 0 }) // "/api/products?category=dog-food&offset=0"
 * @example apiPath("/api/search", { q: "dog food" }) // "/api/search?q=dog%20food"
 * @example apiPath("categories") // "/api/categories"
 */
export function apiPath(path: string, params: ApiParams = {}): string {
  const relative = path.startsWith("/") ? path : `/${path}`;
  const base = relative === apiPrefix || relative.startsWith(`${apiPrefix}/`) ? relative : `${apiPrefix}${relative}`;
  const query = Object.entries(params)
    .filter((entry): entry is [string, string | number] => hasValue(entry[1]))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join("&");
  return query ? `${base}?${query}` : base;
}

/**
 * The illustrative packshot of a product (an SVG drawn from its name, brand and category), shown
 * where a product has no image of its own.
 * @example packshotPath("burns-adult-original-12kg") // "/api/packshot/burns-adult-original-12kg.svg"
 */
export function packshotPath(slug: string): string {
  return `${apiPrefix}/packshot/${encodeURIComponent(slug)}.svg`;
}

/**
 * The image to show for a product: its own, else its packshot.
 * @example productImage({ image: "", slug: "kong-classic" }) // "/api/packshot/kong-classic.svg"
 */
export function productImage(product: { image: string; slug: string }): string {
  return product.image.trim() || packshotPath(product.slug);
}

/**
 * Where a product picture falls back to when it fails to load: its packshot, or none when the
 * picture is the packshot already.
 * @example imageFallback({ image: "https://images.example.co.uk/k.jpg", slug: "kong-classic" }) // "/api/packshot/kong-classic.svg"
 * @example imageFallback({ image: "", slug: "kong-classic" }) // undefined
 */
export function imageFallback(product: { image: string; slug: string }): string | undefined {
  const packshot = packshotPath(product.slug);
  return productImage(product) === packshot ? undefined : packshot;
}
