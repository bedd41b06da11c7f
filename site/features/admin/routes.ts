/**
 * The admin app's addresses: each screen's, named for the links the screens make, and the
 * product list's search and page carried to the product form and back. The addresses
 * themselves are the screens' entries in screens.ts; matching an address to its screen is there.
 */
import { screenHref } from "./screens.ts";

/**
 * The screens' links, read when used: screens.ts imports the screens, which import these, so
 * nothing here may be worked out while the modules load.
 */
export const adminPaths = {
  get login() {
    return screenHref("login");
  },
  get dashboard() {
    return screenHref("dashboard");
  },
  get products() {
    return screenHref("products");
  },
  get newProduct() {
    return screenHref("product-form");
  },
  editProduct: (id: number) => screenHref("product-form", id),
  get categories() {
    return screenHref("categories");
  },
  get newCategory() {
    return screenHref("category-form");
  },
  editCategory: (id: number) => screenHref("category-form", id),
  get retailers() {
    return screenHref("retailers");
  },
  get newRetailer() {
    return screenHref("retailer-form");
  },
  editRetailer: (id: number) => screenHref("retailer-form", id),
  get vouchers() {
    return screenHref("vouchers");
  },
  get newVoucher() {
    return screenHref("voucher-form");
  },
  editVoucher: (id: number) => screenHref("voucher-form", id),
  get affiliateLinks() {
    return screenHref("affiliate-links");
  },
  get emailSubscribers() {
    return screenHref("email-subscribers");
  },
  get analytics() {
    return screenHref("analytics");
  },
  get amazonImport() {
    return screenHref("amazon-import");
  },
  get priceReview() {
    return screenHref("price-review");
  },
  get feeds() {
    return screenHref("feeds");
  },
  get newFeed() {
    return screenHref("feed-form");
  },
  editFeed: (id: number) => screenHref("feed-form", id),
  get machineTokens() {
    return screenHref("machine-tokens");
  },
  get privacyRequests() {
    return screenHref("privacy-requests");
  },
};

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
