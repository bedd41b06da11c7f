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
