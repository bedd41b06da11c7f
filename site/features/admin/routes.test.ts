import { describe, expect, it } from "vitest";
import { adminPaths, matchAdminRoute, productListQuery, productListReturn, productListState } from "./routes.ts";

describe("matchAdminRoute", () => {
  it.each([
    ["/admin", { screen: "dashboard" }],
    ["/admin/", { screen: "dashboard" }],
    ["/admin/index.html", { screen: "dashboard" }],
    ["/admin/login", { screen: "login" }],
    ["/admin/products", { screen: "products" }],
    ["/admin/products/new", { screen: "product-form", id: null }],
    ["/admin/products/add", { screen: "product-form", id: null }],
    ["/admin/products/edit/12", { screen: "product-form", id: 12 }],
    ["/admin/products/12", { screen: "product-form", id: 12 }],
    ["/admin/categories/new", { screen: "category-form", id: null }],
    ["/admin/categories/edit/3/", { screen: "category-form", id: 3 }],
    ["/admin/retailers", { screen: "retailers" }],
    ["/admin/retailers/edit/7", { screen: "retailer-form", id: 7 }],
    ["/admin/vouchers/new", { screen: "voucher-form", id: null }],
    ["/admin/affiliate-links", { screen: "affiliate-links" }],
    ["/admin/email-subscribers", { screen: "email-subscribers" }],
    ["/admin/analytics", { screen: "analytics" }],
    ["/admin/amazon-import", { screen: "amazon-import" }],
    ["/admin/price-review", { screen: "price-review" }],
    ["/admin/price-review/", { screen: "price-review" }],
    ["/admin/machine-tokens", { screen: "machine-tokens" }],
    ["/admin/privacy-requests", { screen: "privacy-requests" }],
  ])("%s", (path, route) => {
    expect(matchAdminRoute(path)).toEqual(route);
  });

  it.each(["/admin/nope", "/admin/products/edit/0", "/admin/products/edit/abc", "/admin/categories/12", "/admin/categories/add", "/admin/login/x", "/admin/price-review/3", "/admin/machine-tokens/new", "/admin/privacy-requests/alice@example.com", "/admin/products/1/2", "/other"])(
    "%s is not an admin screen",
    (path) => {
      expect(matchAdminRoute(path)).toEqual({ screen: "not-found" });
    },
  );

  it("understands every path it builds", () => {
    expect(matchAdminRoute(adminPaths.editProduct(5))).toEqual({ screen: "product-form", id: 5 });
    expect(matchAdminRoute(adminPaths.editCategory(5))).toEqual({ screen: "category-form", id: 5 });
    expect(matchAdminRoute(adminPaths.editRetailer(5))).toEqual({ screen: "retailer-form", id: 5 });
    expect(matchAdminRoute(adminPaths.editVoucher(5))).toEqual({ screen: "voucher-form", id: 5 });
    expect(matchAdminRoute(adminPaths.feeds)).toEqual({ screen: "feeds" });
    expect(matchAdminRoute(adminPaths.newFeed)).toEqual({ screen: "feed-form", id: null });
    expect(matchAdminRoute(adminPaths.editFeed(5))).toEqual({ screen: "feed-form", id: 5 });
    expect(matchAdminRoute("/admin/feeds/edit/awin")).toEqual({ screen: "not-found" });
    expect(adminPaths.priceReview).toBe("/admin/price-review");
    expect(matchAdminRoute(adminPaths.priceReview)).toEqual({ screen: "price-review" });
    expect(matchAdminRoute(adminPaths.machineTokens)).toEqual({ screen: "machine-tokens" });
    expect(matchAdminRoute(adminPaths.privacyRequests)).toEqual({ screen: "privacy-requests" });
  });
});

describe("product list search and page, carried to the form and back", () => {
  it("puts only a search and a page past 1 in the query string", () => {
    expect(productListQuery("", 1)).toBe("");
    expect(productListQuery("kibble", 1)).toBe("?q=kibble");
    expect(productListQuery("", 2)).toBe("?page=2");
    expect(productListQuery("dog & cat", 3)).toBe("?q=dog+%26+cat&page=3");
  });

  it("reads them back, a bad page as page 1", () => {
    expect(productListState("?q=%20kibble%20&page=3&x=1")).toEqual({ q: "kibble", page: 3 });
    expect(productListState("")).toEqual({ q: "", page: 1 });
    for (const page of ["0", "-2", "abc", "1"]) expect(productListState(`?page=${page}`).page, page).toBe(1);
    expect(productListState("?page=2.7").page).toBe(2);
  });

  it("returns from the form to the list with its search and page", () => {
    expect(productListReturn(productListQuery("dog & cat", 3))).toBe("/admin/products?q=dog+%26+cat&page=3");
    expect(productListReturn("")).toBe("/admin/products");
    expect(productListReturn("?unrelated=1")).toBe("/admin/products");
  });
});
