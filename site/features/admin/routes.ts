/**
 * The admin app's routes: every /admin/... path maps to one screen. Pure (no DOM), so the
 * matching is unit-tested; router.ts does the navigation.
 */
export type AdminRoute =
  | { screen: "login" }
  | { screen: "dashboard" }
  | { screen: "products" }
  | { screen: "product-form"; id: number | null }
  | { screen: "categories" }
  | { screen: "category-form"; id: number | null }
  | { screen: "retailers" }
  | { screen: "retailer-form"; id: number | null }
  | { screen: "vouchers" }
  | { screen: "voucher-form"; id: number | null }
  | { screen: "affiliate-links" }
  | { screen: "email-subscribers" }
  | { screen: "analytics" }
  | { screen: "amazon-import" }
  | { screen: "price-review" }
  | { screen: "feeds" }
  | { screen: "feed-form"; id: number | null }
  | { screen: "machine-tokens" }
  | { screen: "privacy-requests" }
  | { screen: "not-found" };

export const adminPaths = {
  login: "/admin/login",
  dashboard: "/admin",
  products: "/admin/products",
  newProduct: "/admin/products/new",
  editProduct: (id: number) => `/admin/products/edit/${id}`,
  categories: "/admin/categories",
  newCategory: "/admin/categories/new",
  editCategory: (id: number) => `/admin/categories/edit/${id}`,
  retailers: "/admin/retailers",
  newRetailer: "/admin/retailers/new",
  editRetailer: (id: number) => `/admin/retailers/edit/${id}`,
  vouchers: "/admin/vouchers",
  newVoucher: "/admin/vouchers/new",
  editVoucher: (id: number) => `/admin/vouchers/edit/${id}`,
  affiliateLinks: "/admin/affiliate-links",
  emailSubscribers: "/admin/email-subscribers",
  analytics: "/admin/analytics",
  amazonImport: "/admin/amazon-import",
  priceReview: "/admin/price-review",
  feeds: "/admin/feeds",
  newFeed: "/admin/feeds/new",
  editFeed: (id: number) => `/admin/feeds/edit/${id}`,
  machineTokens: "/admin/machine-tokens",
  privacyRequests: "/admin/privacy-requests",
} as const;

/**
 * The product list's search and page as a query string ("?q=kibble&page=2"; "" for page 1 with
 * no search). The list carries it to the product form, so after a save, Cancel or Back the
 * admin is where they were.
 * @example productListQuery("kibble", 2) // "?q=kibble&page=2"
 * @example productListQuery("", 1) // ""
 */
export function productListQuery(q: string, page: number): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/**
 * The search and page of a product list address's query string: q trimmed, page a whole
 * number from 1 (anything else is page 1). Other parameters are ignored.
 * @example productListState("?q=%20kibble%20&page=3&x=1") // { q: "kibble", page: 3 }
 */
export function productListState(search: string): { q: string; page: number } {
  const params = new URLSearchParams(search);
  return { q: params.get("q")?.trim() ?? "", page: Math.max(1, Math.trunc(Number(params.get("page"))) || 1) };
}

/**
 * The product list to go back to from the product form, whose address carries the list's
 * search and page.
 * @example productListReturn("?q=kibble&page=2") // "/admin/products?q=kibble&page=2"
 */
export function productListReturn(formSearch: string): string {
  const { q, page } = productListState(formSearch);
  return adminPaths.products + productListQuery(q, page);
}

/** A positive whole-number id from a path segment, else null. */
function parseId(segment: string | undefined): number | null {
  return segment !== undefined && /^[1-9]\d{0,15}$/.test(segment) ? Number(segment) : null;
}

/** Each list with its create and edit paths: /new (products also /add), /edit/{id} (products also /{id}). */
const editable = {
  products: { list: "products", form: "product-form", extraNew: "add", bareId: true },
  categories: { list: "categories", form: "category-form", extraNew: null, bareId: false },
  retailers: { list: "retailers", form: "retailer-form", extraNew: null, bareId: false },
  vouchers: { list: "vouchers", form: "voucher-form", extraNew: null, bareId: false },
  feeds: { list: "feeds", form: "feed-form", extraNew: null, bareId: false },
} as const;

const single: Record<string, AdminRoute> = {
  login: { screen: "login" },
  "affiliate-links": { screen: "affiliate-links" },
  "email-subscribers": { screen: "email-subscribers" },
  analytics: { screen: "analytics" },
  "amazon-import": { screen: "amazon-import" },
  "price-review": { screen: "price-review" },
  "machine-tokens": { screen: "machine-tokens" },
  "privacy-requests": { screen: "privacy-requests" },
};

/**
 * The screen for a path. Trailing slashes and a trailing index.html are ignored.
 * @example matchAdminRoute("/admin/products/edit/12") // { screen: "product-form", id: 12 }
 * @example matchAdminRoute("/admin/products/add") // { screen: "product-form", id: null }
 * @example matchAdminRoute("/admin/nope") // { screen: "not-found" }
 */
export function matchAdminRoute(pathname: string): AdminRoute {
  const segments = pathname
    .replace(/\/index\.html$/, "")
    .split("/")
    .filter(Boolean);
  if (segments[0] !== "admin") return { screen: "not-found" };
  const [, section, second, third, ...rest] = segments;
  if (section === undefined) return { screen: "dashboard" };
  if (rest.length > 0) return { screen: "not-found" };
  const simple = single[section];
  if (simple) return second === undefined ? simple : { screen: "not-found" };
  if (!(section in editable)) return { screen: "not-found" };
  const entry = editable[section as keyof typeof editable];
  if (second === undefined) return { screen: entry.list };
  if (third === undefined && (second === "new" || second === entry.extraNew)) return { screen: entry.form, id: null };
  if (second === "edit") {
    const id = parseId(third);
    return id === null ? { screen: "not-found" } : { screen: entry.form, id };
  }
  if (entry.bareId && third === undefined) {
    const id = parseId(second);
    if (id !== null) return { screen: entry.form, id };
  }
  return { screen: "not-found" };
}
