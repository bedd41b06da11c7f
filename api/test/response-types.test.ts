/**
 * The named response bodies (api/http/responses.ts) against the server. Two halves:
 * - types: each route's declared body is what the server function behind it returns, so a change
 *   to the function's return type changes the name too (a drift fails `tsc`);
 * - bodies: for routes that build their answer, the real server's JSON has exactly the keys of
 *   the declared type, no more and no fewer (the key lists are checked against the types, so a
 *   field added to one side only fails here or in `tsc`).
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type * as Api from "../http/responses.ts";
import type { SiteBuilds } from "../context.ts";
import type { SiteRebuilder } from "../jobs/site-rebuild.ts";
import type { readAnalytics, dashboardCounts, listAdminProducts, listAllVouchers, getAdminProduct } from "../../data/db/admin-reads.ts";
import type { latestAudit } from "../../data/db/audit.ts";
import type { clearDemoCatalogue, demoCounts } from "../../data/db/demo.ts";
import type { createProduct } from "../../data/db/catalogue-writer/products.ts";
import type { ProductJson } from "../../data/domain/catalogue-json.ts";
import type { createVoucher } from "../../data/db/catalogue-writer/vouchers.ts";
import type { listCategories, getRetailerById } from "../../data/db/catalogue.ts";
import type { listSubscribersWithConsent } from "../../data/db/subscribers.ts";
import type { pendingHolds } from "../../data/db/price-review.ts";
import type { acceptHeldPrice, rejectHeldPrice } from "../../data/db/price-writer.ts";
import type { erasePersonalData } from "../../data/db/privacy.ts";
import type { listMachineTokens } from "../../data/db/machine-tokens.ts";
import type { searchCatalogue } from "../../data/db/product-search.ts";
import type { FeedImports } from "../feed-imports.ts";
import type { PricePipeline } from "../price-pipeline.ts";
import { recordPriceChecks } from "../../data/db/price-writer.ts";
import { startTestServer, type TestServer } from "./server.ts";

type Value<F extends (...args: never[]) => { value: unknown }> = ReturnType<F>["value"];

describe("declared response types follow the server functions", () => {
  it("reads answered as the function returns them", () => {
    expectTypeOf<Api.DemoState>().toEqualTypeOf<ReturnType<typeof demoCounts>>();
    expectTypeOf<Api.AdminVoucher[]>().toEqualTypeOf<ReturnType<typeof listAllVouchers>>();
    expectTypeOf<Api.EmailSubscriber[]>().toEqualTypeOf<ReturnType<typeof listSubscribersWithConsent>>();
    expectTypeOf<Api.CategoryList>().toEqualTypeOf<ReturnType<typeof listCategories>>();
    expectTypeOf<Api.RetailerResponse | null>().toEqualTypeOf<ReturnType<typeof getRetailerById>>();
    expectTypeOf<Api.AdminProduct | null>().toEqualTypeOf<ReturnType<typeof getAdminProduct>>();
    expectTypeOf<Api.MachineTokenList>().toEqualTypeOf<ReturnType<typeof listMachineTokens>>();
    expectTypeOf<Api.PersonalDataErasure>().toEqualTypeOf<ReturnType<typeof erasePersonalData>>();
    // Search answers the stored read's total with its products in the API's shape (money in pounds).
    expectTypeOf<Api.SearchResponse>().toEqualTypeOf<{
      products: ProductJson[];
      total: ReturnType<typeof searchCatalogue>["total"];
      suggestion: ReturnType<typeof searchCatalogue>["suggestion"];
    }>();
    expectTypeOf<Api.FeedSourceList["sources"]>().toEqualTypeOf<ReturnType<FeedImports["views"]>>();
  });

  it("writes answered with what the write commits", () => {
    expectTypeOf<Api.DemoCleared>().toEqualTypeOf<Value<typeof clearDemoCatalogue>>();
    expectTypeOf<Api.VoucherSaved>().toEqualTypeOf<Value<typeof createVoucher>>();
    expectTypeOf<Api.ProductSaved>().toEqualTypeOf<Value<typeof createProduct>>();
    expectTypeOf<Api.HoldDecided>().toEqualTypeOf<Value<typeof acceptHeldPrice>>();
    expectTypeOf<Api.HoldDecided>().toEqualTypeOf<Value<typeof rejectHeldPrice>>();
  });

  it("answers a route builds keep the function's parts", () => {
    expectTypeOf<Api.DashboardResponse["counts"]>().toEqualTypeOf<ReturnType<typeof dashboardCounts>>();
    expectTypeOf<ReturnType<typeof latestAudit>[number]>().toExtend<Api.DashboardChange>();
    expectTypeOf<Omit<Api.AdminProductPage, "page" | "pageSize">>().toEqualTypeOf<ReturnType<typeof listAdminProducts>>();
    expectTypeOf<Omit<Api.AnalyticsResponse, "health">>().toEqualTypeOf<ReturnType<typeof readAnalytics>>();
    expectTypeOf<Api.HoldFactor>().toEqualTypeOf<PricePipeline["holdPolicy"]>();
    // A held price keeps every field of the stored hold but its two prices, which it gives in pounds.
    type Hold = ReturnType<typeof pendingHolds>[number];
    expectTypeOf<Omit<Api.PriceHold, "publishedPrice" | "heldPrice">>().toEqualTypeOf<Omit<Hold, "publishedPricePence" | "heldPricePence">>();
  });

  it("the site build's status is what the rebuild job reports", () => {
    expectTypeOf<ReturnType<SiteRebuilder["status"]>>().toExtend<Api.BuildStatus>();
    expectTypeOf<ReturnType<SiteBuilds["status"]>>().toEqualTypeOf<Api.BuildStatus>();
    expectTypeOf<Api.BuildStatus["state"]>().toEqualTypeOf<"idle" | "scheduled" | "building">();
  });
});

/** Every key of T, listed once: `satisfies` fails to compile when a key is missing or unknown. */
type Keys<T> = Record<keyof T, true>;
const keys = (list: Record<string, true>) => Object.keys(list).sort();
const keysOf = (value: unknown) => Object.keys(value as object).sort();

const dashboardKeys = { counts: true, recentChanges: true } satisfies Keys<Api.DashboardResponse>;
const changeKeys = { id: true, at: true, action: true, entity: true, entityId: true, summary: true } satisfies Keys<Api.DashboardChange>;
const buildStatusKeys = { state: true, lastBuild: true } satisfies Keys<Required<Pick<Api.BuildStatus, "state" | "lastBuild">>>;
const productPageKeys = { products: true, total: true, page: true, pageSize: true } satisfies Keys<Api.AdminProductPage>;
const productRowKeys = {
  id: true,
  name: true,
  slug: true,
  category: true,
  bestRetailer: true,
  bestPrice: true,
  rating: true,
  reviewCount: true,
  isFeatured: true,
  lastEditedAt: true,
  createdAt: true,
} satisfies Keys<Api.AdminProductRow>;
const analyticsKeys = { totals: true, distribution: true, clicks: true, health: true } satisfies Keys<Api.AnalyticsResponse>;
const healthKeys = {
  database: true,
  lastPriceRefresh: true,
  nextPriceRefresh: true,
  freshForHours: true,
  lastBuild: true,
  build: true,
  mail: true,
  lastBackup: true,
} satisfies Keys<Api.PlatformHealth>;
const holdsKeys = { holds: true, factor: true } satisfies Keys<Api.PriceHoldsResponse>;
const holdKeys = {
  id: true,
  product: true,
  retailer: true,
  publishedPrice: true,
  heldPrice: true,
  inStock: true,
  source: true,
  url: true,
  observedAt: true,
  newOffer: true,
  reason: true,
} satisfies Keys<Api.PriceHold>;
const voucherKeys = {
  id: true,
  code: true,
  description: true,
  retailer: true,
  url: true,
  discount: true,
  expiryDate: true,
  uses: true,
  isValid: true,
} satisfies Keys<Api.AdminVoucher>;
const subscriberKeys = { id: true, email: true, isActive: true, isConfirmed: true, subscribedAt: true, source: true } satisfies Keys<Api.EmailSubscriber>;
const demoKeys = { demo: true, products: true, keptProducts: true, offers: true, vouchers: true } satisfies Keys<Api.DemoState>;

describe("the real server's bodies have exactly the declared keys", () => {
  let api: TestServer;

  beforeAll(async () => {
    api = await startTestServer({ products: 5 });
  });
  afterAll(() => api?.close());

  async function body(path: string): Promise<unknown> {
    const response = await api.admin("GET", path);
    expect(response.status, path).toBe(200);
    return response.json();
  }

  it("dashboard, with its recent changes", async () => {
    // A change to list (a voucher deleted): the dashboard's audit entries leave out their before and after.
    const [voucher] = (await body("/api/admin/vouchers")) as Api.AdminVoucher[];
    expect((await api.admin("DELETE", `/api/admin/vouchers/${voucher!.id}`)).status).toBe(204);
    const dashboard = (await body("/api/admin/dashboard")) as Api.DashboardResponse;
    expect(keysOf(dashboard)).toEqual(keys(dashboardKeys));
    expect(dashboard.recentChanges.length).toBeGreaterThan(0);
    for (const change of dashboard.recentChanges) expect(keysOf(change)).toEqual(keys(changeKeys));
  });

  it("build status when the server does not build", async () => {
    expect(keysOf(await body("/api/admin/build-status"))).toEqual(keys(buildStatusKeys));
  });

  it("admin products page and its rows", async () => {
    const page = (await body("/api/admin/products?page=1")) as Api.AdminProductPage;
    expect(keysOf(page)).toEqual(keys(productPageKeys));
    expect(page.products).toHaveLength(5);
    for (const row of page.products) expect(keysOf(row)).toEqual(keys(productRowKeys));
  });

  it("analytics and Platform Health", async () => {
    const analytics = (await body("/api/admin/analytics")) as Api.AnalyticsResponse;
    expect(keysOf(analytics)).toEqual(keys(analyticsKeys));
    expect(keysOf(analytics.health)).toEqual(keys(healthKeys));
  });

  it("price holds, with a held price", async () => {
    const offer = api.db.$client.prepare("SELECT product_id, retailer_id, price_pence FROM product_prices ORDER BY product_id, retailer_id LIMIT 1").get() as {
      product_id: number;
      retailer_id: number;
      price_pence: number;
    };
    recordPriceChecks(api.db, [{ productId: offer.product_id, retailerId: offer.retailer_id, pricePence: offer.price_pence * 3, inStock: true, source: "page" }]);
    const holds = (await body("/api/admin/price-holds")) as Api.PriceHoldsResponse;
    expect(keysOf(holds)).toEqual(keys(holdsKeys));
    expect(holds.holds).toHaveLength(1);
    expect(keysOf(holds.holds[0])).toEqual(keys(holdKeys));
  });

  it("vouchers, subscribers and the demo catalogue", async () => {
    const vouchers = (await body("/api/admin/vouchers")) as Api.AdminVoucher[];
    expect(vouchers.length).toBeGreaterThan(0);
    for (const voucher of vouchers) expect(keysOf(voucher)).toEqual(keys(voucherKeys));
    const subscribed = await fetch(`${api.baseUrl}/api/subscribers`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: api.baseUrl },
      body: JSON.stringify({ email: "keys@example.com", source: "footer" }),
    });
    expect(subscribed.status).toBeLessThan(300);
    const subscribers = (await body("/api/admin/email-subscribers")) as Api.EmailSubscriber[];
    expect(subscribers).toHaveLength(1);
    expect(keysOf(subscribers[0])).toEqual(keys(subscriberKeys));
    expect(keysOf(await body("/api/admin/demo"))).toEqual(keys(demoKeys));
  });
});
