import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { adminPaths, productListQuery, productListReturn, productListState } from "./routes.ts";
import { matchAdminRoute, navSections, registry, screenEntry, screenHref, type ScreenName } from "./screens.ts";

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

describe("the screen registry", () => {
  /** Each screen's module, named here apart from the registry, so a wrong component there fails. */
  const modules: Record<ScreenName, () => Promise<{ default: unknown }>> = {
    login: () => import("./screens/Login.tsx"),
    dashboard: () => import("./screens/Dashboard.tsx"),
    products: () => import("./screens/ProductsList.tsx"),
    "product-form": () => import("./screens/ProductForm.tsx"),
    "price-review": () => import("./screens/PriceReview.tsx"),
    categories: () => import("./screens/CategoriesList.tsx"),
    "category-form": () => import("./screens/CategoryForm.tsx"),
    retailers: () => import("./screens/RetailersList.tsx"),
    "retailer-form": () => import("./screens/RetailerForm.tsx"),
    vouchers: () => import("./screens/VouchersList.tsx"),
    "voucher-form": () => import("./screens/VoucherForm.tsx"),
    "affiliate-links": () => import("./screens/AffiliateLinks.tsx"),
    "email-subscribers": () => import("./screens/EmailSubscribers.tsx"),
    "privacy-requests": () => import("./screens/PrivacyRequests.tsx"),
    analytics: () => import("./screens/Analytics.tsx"),
    "amazon-import": () => import("./screens/AmazonImport.tsx"),
    feeds: () => import("./screens/FeedsList.tsx"),
    "feed-form": () => import("./screens/FeedForm.tsx"),
    "machine-tokens": () => import("./screens/MachineTokens.tsx"),
  };

  it("gives every screen a name, an address and a component; every nav link a label and an icon", () => {
    expect(registry.map((entry) => entry.screen).sort()).toEqual(Object.keys(modules).sort());
    for (const entry of registry) {
      expect(entry.paths.length, entry.screen).toBeGreaterThan(0);
      for (const path of entry.paths) expect(path, entry.screen).toMatch(/^\/admin(\/([a-z-]+|:id))*$/);
      expect(typeof entry.component, entry.screen).toBe("function");
      if (entry.nav) {
        expect(entry.nav.label, entry.screen).not.toBe("");
        expect(entry.nav.icon, entry.screen).toBeTruthy();
      }
    }
  });

  it("lists the navigation in today's order, each link lighting its list and that list's form", () => {
    expect(navSections.map(({ label, href, screens }) => [label, href, screens])).toEqual([
      ["Dashboard", "/admin", ["dashboard"]],
      ["Products", "/admin/products", ["products", "product-form"]],
      ["Price Review", "/admin/price-review", ["price-review"]],
      ["Categories", "/admin/categories", ["categories", "category-form"]],
      ["Retailers", "/admin/retailers", ["retailers", "retailer-form"]],
      ["Vouchers", "/admin/vouchers", ["vouchers", "voucher-form"]],
      ["Affiliate IDs", "/admin/affiliate-links", ["affiliate-links"]],
      ["Subscribers", "/admin/email-subscribers", ["email-subscribers"]],
      ["Privacy requests", "/admin/privacy-requests", ["privacy-requests"]],
      ["Analytics", "/admin/analytics", ["analytics"]],
      ["Import", "/admin/amazon-import", ["amazon-import"]],
      ["Feeds", "/admin/feeds", ["feeds", "feed-form"]],
      ["Machine tokens", "/admin/machine-tokens", ["machine-tokens"]],
    ]);
    expect(new Set(navSections.map((section) => section.icon)).size).toBe(navSections.length);
    // The login screen and the forms have no link of their own.
    expect(registry.filter((entry) => !entry.nav).map((entry) => entry.screen)).toEqual(["login", "product-form", "category-form", "retailer-form", "voucher-form", "feed-form"]);
  });

  it("resolves every address in the registry to its own screen, drawn by that screen's module", async () => {
    for (const entry of registry) {
      const { default: component } = await modules[entry.screen]();
      const takesId = entry.paths.some((path) => path.includes(":id"));
      for (const path of entry.paths) {
        const id = path.includes(":id") ? 7 : null;
        const expected = takesId ? { screen: entry.screen, id } : { screen: entry.screen };
        for (const address of [path.replace(":id", "7"), `${path.replace(":id", "7")}/`]) {
          const route = matchAdminRoute(address);
          expect(route, address).toStrictEqual(expected);
          expect(screenEntry(route)?.component, address).toBe(component);
        }
        if (id !== null) expect(matchAdminRoute(path.replace(":id", "0")), path).toEqual({ screen: "not-found" });
      }
    }
    expect(screenEntry({ screen: "not-found" })).toBeUndefined();
  });

  it("builds each screen's links from its addresses and reads them back", () => {
    expect(screenHref("category-form")).toBe("/admin/categories/new");
    expect(screenHref("category-form", 5)).toBe("/admin/categories/edit/5");
    expect(screenHref("product-form", 9)).toBe("/admin/products/edit/9");
    expect(() => screenHref("categories", 5)).toThrow("The categories screen has no address with an id");
    for (const entry of registry) {
      expect(matchAdminRoute(screenHref(entry.screen)).screen, entry.screen).toBe(entry.screen);
      if (entry.paths.some((path) => path.includes(":id"))) expect(matchAdminRoute(screenHref(entry.screen, 12)), entry.screen).toEqual({ screen: entry.screen, id: 12 });
    }
  });

  // The registry imports the screens and the screens import their links: loading the modules in
  // either order must work, so no screen may read an address while its module loads.
  it.each(["./screens.ts", "./routes.ts", "./AdminApp.tsx"])("loads with %s first", async (first) => {
    vi.resetModules();
    await import(first);
    const { adminPaths: fresh } = await import("./routes.ts");
    expect(fresh.editCategory(4)).toBe("/admin/categories/edit/4");
  });
});

/** The relative modules a source loads at run time (type-only imports left out: they load nothing). */
function runtimeImports(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  const specs = [...source.matchAll(/^\s*(?:import|export)\s(?!type\s)[^;"'`]*?\sfrom\s*["'](\.[^"']+)["']/gm)].map((match) => match[1]!);
  return specs.map((spec) => path.resolve(path.dirname(file), spec));
}

describe("what the admin's API calls load", () => {
  it("never the screen registry: the screens use the calls when they load, so the calls must be loaded first", () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const seen = new Set<string>();
    const queue = [path.join(here, "admin-api.ts")];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file) || !fs.existsSync(file)) continue;
      seen.add(file);
      queue.push(...runtimeImports(file));
    }
    expect(seen.size).toBeGreaterThan(3);
    expect([...seen].map((file) => path.relative(here, file)).filter((file) => file === "screens.ts" || file.startsWith("screens/"))).toEqual([]);
  });
});
