import { describe, expect, it } from "vitest";
import { adminPaths, matchAdminRoute } from "./routes.ts";

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
