/**
 * Every route in the route table, through the real server on a port over a real SQLite file:
 * one request with good input whose answer is checked against the database (and, for writes,
 * where the write landed), and requests with bad input that must answer a 4xx `{ "error" }`
 * saying what is wrong while the database stays exactly as it was. A route added to the table
 * without both fails the first test.
 */
import crypto from "node:crypto";
import ExcelJS from "exceljs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../app.ts";
import type { SiteBuilds } from "../context.ts";
import type { CatalogueChange } from "../../data/db/catalogue-writer/transaction.ts";
import type { Retailer } from "../../data/domain/catalogue.ts";
import { signToken } from "../lib/tokens.ts";
import { claimDueConfirmations, requestConfirmation } from "../../data/db/email-consent.ts";
import { startTestServer, testAdminPassword, type TestServer } from "./server.ts";
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import { allowLoopbackForTests } from "../lib/guarded-fetch.ts";
import { createPageReader } from "../lib/page-price.ts";
import { readFeed } from "../../data/feeds/awin-feed.ts";
import { recordPriceChecks } from "../../data/db/price-writer.ts";
import { retailerHosts } from "../../data/domain/retailers.ts";
import { createFeedSource } from "../../data/db/feed-sources.ts";
import type { BasketQuoteResponse } from "../http/responses.ts";
import type { FeedRun } from "../../data/domain/feed-sources.ts";
import { createMachineToken } from "../../data/db/machine-tokens.ts";
import * as tar from "tar";
import { writeFiles } from "./files.ts";

let api: TestServer;
/** The admin's session cookie for the whole file. */
let session: string;
/** Stands in for the site rebuild job: records what the change signal asked it to build. */
const builds: CatalogueChange[] = [];
/** The folder the stand-in site serves as its current release (null: none built yet). */
let releaseRoot: string | null = null;
const site: SiteBuilds = { request: (change) => builds.push(change), status: () => ({ state: "idle", lastBuild: null }), currentRoot: () => releaseRoot };
const alice = "user_aliceroutesaaaaaaaaaaaa0";
const bob = "user_bobroutesbbbbbbbbbbbbbb0";

interface Fixture {
  product: { id: number; slug: string; name: string; category_id: number };
  category: { id: number; name: string; slug: string; icon: string; description: string };
  retailer: Retailer;
  voucherId: number;
  favoriteId: number;
  alertId: number;
  subscriberId: number;
  /** A URL feed source (its URL holds a secret) and a file source with no file yet. */
  urlSourceId: number;
  fileSourceId: number;
  /** Machine tokens: one with every scope, one that may only download releases. */
  machineToken: string;
  releaseToken: string;
}
let f: Fixture;
/**
 * A retailer site on loopback for the extract-price route: /page has a price, /euro is priced in
 * euros, /none has none, /sizes lists three pack sizes nothing picks, and /nested, /deep and
 * /offers are hostile (20,000 nested arrays in JSON-LD, 1.9 MB of unclosed divs, 100,000 offers).
 */
let shop: Server;
let shopOrigin: string;

const feedHeader =
  "aw_deep_link,product_name,aw_product_id,merchant_product_id,merchant_image_url,description,merchant_category,search_price,merchant_name,merchant_id,category_name,category_id,aw_image_url,currency,store_price,delivery_cost,merchant_deep_link,language,last_updated,display_price,data_feed_id,brand_name,ean";
const feedLine = (name: string, price: string, ean: string) =>
  `https://www.awin1.com/pclick.php?p=1&a=1&m=1,${name},1,B0TEST,https://m.media-amazon.com/images/I/x.jpg,Tasty.,Pets,${price},Amazon UK,1,Dog Food,1,,GBP,${price},0.00,https://www.amazon.co.uk/dp/B0TEST${ean.slice(-4)},en,2026-11-20 03:00:00,GBP${price},1,Routefeed,${ean}`;

/** A feed download link as networks issue them: the API key in its path. It must never come back whole. */
const secretFeedUrl = "https://productdata.awin.com/datafeed/download/apikey/routes0secret0key0abcdef/fid/1/format/csv";
const feedCsv = () => [feedHeader, feedLine("Routefeed Salmon Kibble 2kg", "8.49", "5012345000022")].join("\n") + "\n";

beforeAll(async () => {
  shop = createServer((request, response) => {
    const ld = (price: string, currency: string) =>
      `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Test","offers":{"@type":"Offer","price":"${price}","priceCurrency":"${currency}","availability":"https://schema.org/OutOfStock"}}</script>`;
    const sizes = (["14", "27.5", "53"] as const).map((price) => ({ "@type": "Offer", price, priceCurrency: "GBP" }));
    const pages: Record<string, string> = {
      "/page": ld("12.49", "GBP"),
      "/euro": ld("12.49", "EUR"),
      "/none": "<p>Sorry, this page has moved.</p>",
      "/sizes": `<script type="application/ld+json">${JSON.stringify({ "@type": "Product", offers: sizes })}</script>`,
      "/nested": `<script type="application/ld+json">${"[".repeat(20_000)}</script>`,
      "/deep": "<div>".repeat(380_000),
      "/offers": `<script type="application/ld+json">{"@type":"Product","offers":[${Array.from({ length: 100_000 }, () => '{"price":"1"}').join(",")}]}</script>`,
    };
    const page = pages[request.url ?? ""];
    if (page === undefined) response.writeHead(404).end("not found");
    else response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><html><head>${page}</head><body></body></html>`);
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as { port: number }).port}`;
  const feedFile = path.join(fs.mkdtempSync(path.join((await import("node:os")).tmpdir(), "pawprice-routes-feed-")), "feed.csv");
  fs.writeFileSync(feedFile, [feedHeader, feedLine("Routefeed Chicken Kibble 2kg", "9.99", "5012345000015"), feedLine("Routefeed Chicken Kibble 2kg", "9.99", "5012345000015")].join("\n") + "\n");
  api = await startTestServer({
    products: 40,
    site,
    pageReader: createPageReader({ allowance: allowLoopbackForTests(), timeoutMs: 2000 }),
    sources: new Map([
      ["sample", { kind: "feed", name: "sample", label: "Route test feed", createProducts: true, refresh: false, open: async () => readFeed(feedFile) }],
    ]),
  });
  session = await api.login();
  process.env.SECRETS_DIR = path.join(api.dir, "secrets");
  const sqlite = api.db.$client;
  const product = sqlite.prepare("SELECT id, slug, name, category_id FROM products WHERE best_price_pence IS NOT NULL ORDER BY rank LIMIT 1").get() as Fixture["product"];
  // Every visitor table holds rows of two visitors, so a read or write that ignores the owner shows.
  const favorite = (userId: string, productId: number) =>
    (sqlite.prepare("INSERT INTO favorites (user_id, product_id, notes) VALUES (?, ?, 'a note') RETURNING id").get(userId, productId) as { id: number }).id;
  const alert = (userId: string, productId: number) =>
    (sqlite.prepare("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence) VALUES (?, ?, 'owner@example.com', 100) RETURNING id").get(userId, productId) as { id: number }).id;
  const favoriteId = favorite(alice, product.id);
  favorite(bob, product.id);
  const alertId = alert(alice, product.id);
  alert(bob, product.id);
  for (const userId of [alice, bob]) sqlite.prepare("INSERT INTO recently_viewed (user_id, product_id) VALUES (?, ?)").run(userId, product.id);
  const subscriberId = (sqlite.prepare("INSERT INTO email_subscribers (email) VALUES ('reader@example.com') RETURNING id").get() as { id: number }).id;
  sqlite.prepare("INSERT INTO email_subscribers (email) VALUES ('other@example.com')").run();
  f = {
    product,
    category: sqlite.prepare("SELECT id, name, slug, icon, description FROM categories WHERE id = ?").get(product.category_id) as Fixture["category"],
    retailer: {
      ...(sqlite
        .prepare("SELECT id, key, name, logo, website, description, delivery_pence / 100.0 AS deliveryCharge, free_delivery_from_pence / 100.0 AS freeDeliveryFrom FROM retailers ORDER BY id LIMIT 1")
        .get() as Omit<Fixture["retailer"], "comparesPrices" | "hosts" | "offerHosts" | "feedNames">),
      comparesPrices: true,
      hosts: [],
      // The first retailer is Amazon: its offers may only link to amazon.co.uk.
      offerHosts: ["amazon.co.uk"],
      feedNames: [],
    },
    voucherId: (sqlite.prepare("SELECT id FROM vouchers ORDER BY id LIMIT 1").get() as { id: number }).id,
    favoriteId,
    alertId,
    subscriberId,
    urlSourceId: createFeedSource(api.db, { name: "Route URL feed", kind: "url", url: secretFeedUrl }, new Date()).id,
    fileSourceId: createFeedSource(api.db, { name: "Route file feed", kind: "file" }, new Date()).id,
    machineToken: createMachineToken(api.db, { name: "Route CI", scopes: ["nightly:run", "releases:read"] }, new Date()).token,
    releaseToken: createMachineToken(api.db, { name: "Route downloads", scopes: ["releases:read"] }, new Date()).token,
  };
});

afterAll(async () => {
  await api.close();
  shop.closeAllConnections();
  await new Promise((resolve) => shop.close(resolve));
  delete process.env.SECRETS_DIR;
});

const rows = <T>(sql: string, ...params: unknown[]) => api.db.$client.prepare(sql).all(...params) as T[];
const row = <T>(sql: string, ...params: unknown[]) => api.db.$client.prepare(sql).get(...params) as T;

/** A digest of every row of every table: equal digests, unchanged database. */
function databaseDigest(): string {
  const hash = crypto.createHash("sha256");
  for (const { name } of rows<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
    hash.update(name);
    hash.update(JSON.stringify(api.db.$client.prepare(`SELECT * FROM "${name}"`).raw().all()));
  }
  return hash.digest("hex");
}

function request(method: string, pathAndQuery: string, body?: unknown, contentType = "application/json", extraHeaders: Record<string, string> = {}): Promise<Response> {
  const init: RequestInit = { method, headers: extraHeaders };
  if (body !== undefined) {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    // An empty content type sends the body with none (as bytes: fetch labels a string text/plain).
    init.body = contentType ? text : new TextEncoder().encode(text);
    init.headers = contentType ? { ...extraHeaders, "content-type": contentType } : extraHeaders;
  }
  return fetch(api.baseUrl + pathAndQuery, init);
}

interface BadCase {
  method?: string;
  path: string;
  body?: unknown;
  contentType?: string;
  status: number;
  /** The exact message, or a part of it given as a RegExp. */
  error: string | RegExp;
  /** Sent with the admin's session cookie (an admin route's input is checked only for the admin). */
  admin?: boolean;
  headers?: Record<string, string>;
}

const oneClick = "List-Unsubscribe=One-Click";
const form = "application/x-www-form-urlencoded";
const anyId = 999_999;

// ---------------------------------------------------------------------------------------------
// Admin routes and catalogue writes

const anonymous = (method: string, path: string, body?: unknown): BadCase => ({ method, path, body, status: 401, error: "Sign in to the admin area" });
const crossSite = (method: string, path: string, body: unknown, headers: Record<string, string>): BadCase => ({
  method,
  path,
  body,
  admin: true,
  headers,
  status: 403,
  error: "Requests from other sites are refused",
});
const evilOrigin = { origin: "https://evil.example" };

/** A product body the admin form would send: two offers at compared retailers. */
function productBody(overrides: Record<string, unknown> = {}) {
  const [first, second] = rows<{ id: number; website: string }>("SELECT id, website FROM retailers WHERE compares_prices = 1 ORDER BY id LIMIT 2");
  return {
    name: "Test Kibble Adult 2kg",
    description: "Crunchy.",
    image: "",
    brand: "Acme",
    categoryId: f.category.id,
    rating: 4.2,
    reviewCount: 12,
    isFeatured: false,
    retailerLinks: [
      { retailerId: first!.id, affiliateUrl: `${first!.website}/a`, price: 12.99, originalPrice: 15, inStock: true, priceOverride: false, manualPrice: null, freeDelivery: true },
      { retailerId: second!.id, affiliateUrl: `${second!.website}/b`, price: 11.5, originalPrice: null, inStock: true, priceOverride: false, manualPrice: null, freeDelivery: false },
    ],
    ...overrides,
  };
}

const categoryBody = (overrides: Record<string, unknown> = {}) => ({ name: "Tortoise", slug: "tortoise", icon: "house", description: "Shells and salad.", ...overrides });
const retailerBody = (overrides: Record<string, unknown> = {}) => ({
  name: "Paws Direct",
  logo: "https://cdn.example.com/paws.svg",
  website: "https://www.pawsdirect.example",
  description: "A test shop.",
  comparesPrices: true,
  ...overrides,
});
const voucherBody = (overrides: Record<string, unknown> = {}) => ({
  code: "WOOF10",
  description: "10% off dog food",
  retailer: "Pets at Home",
  url: "https://www.petsathome.com/",
  discount: "10%",
  expiryDate: "2027-03-31",
  ...overrides,
});
const affiliateBody = (overrides: Record<string, unknown> = {}) => ({ AMAZON: "paw-21", PETS_AT_HOME: "pah1", JOLLYES: "jol1", ZOOPLUS: "zoo1", EBAY: "5338000000", ...overrides });

/**
 * A person for the data-rights routes: an address at example.com with a newsletter sign-up, and a
 * visitor id that confirmed it for an alert and saved a favourite.
 */
function privacyPerson(name: string): { email: string; userId: string } {
  const email = `${name}-routes@example.com`;
  const userId = `user_${`${name}routes`.padEnd(24, "0")}`;
  api.db.$client.prepare("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence) VALUES (?, ?, ?, 100)").run(userId, f.product.id, email);
  api.db.$client.prepare("INSERT INTO email_consents (email, user_id, confirmed_at) VALUES (?, ?, ?)").run(email, userId, new Date().toISOString());
  api.db.$client.prepare("INSERT INTO email_subscribers (email) VALUES (?)").run(email);
  api.db.$client.prepare("INSERT INTO favorites (user_id, product_id) VALUES (?, ?)").run(userId, f.product.id);
  return { email, userId };
}

/** A category no product uses, made for a test that deletes or clashes with it. */
const spareCategory = (slug: string) => row<{ id: number }>("INSERT INTO categories (name, slug, icon) VALUES (?, ?, 'PawPrint') RETURNING id", slug, slug).id;
const auditRows = () => rows<{ action: string; entity: string; entity_id: number | null; summary: string }>("SELECT action, entity, entity_id, summary FROM audit_log ORDER BY id");

const adminBadInput: Record<string, () => BadCase[]> = {
  "POST /api/admin/login": () => [
    { method: "POST", path: "/api/admin/login", body: {}, status: 400, error: "Password is required" },
    { method: "POST", path: "/api/admin/login", body: { password: "" }, status: 400, error: "Password is required" },
    { method: "POST", path: "/api/admin/login", body: { password: `${testAdminPassword}x` }, status: 401, error: "Invalid password" },
    { method: "POST", path: "/api/admin/login", body: { password: testAdminPassword }, headers: evilOrigin, status: 403, error: "Requests from other sites are refused" },
    { method: "GET", path: "/api/admin/login", status: 405, error: "GET is not allowed here; use POST" },
  ],
  "POST /api/admin/logout": () => [
    { method: "POST", path: "/api/admin/logout", admin: true, headers: { "sec-fetch-site": "cross-site" }, status: 403, error: "Requests from other sites are refused" },
    { method: "DELETE", path: "/api/admin/logout", admin: true, status: 405, error: "DELETE is not allowed here; use POST" },
  ],
  "GET /api/admin/session": () => [
    anonymous("GET", "/api/admin/session"),
    { path: "/api/admin/session", headers: { cookie: "pawprice_admin=forged-session-id" }, status: 401, error: "Sign in to the admin area" },
  ],
  "GET /api/admin/dashboard": () => [anonymous("GET", "/api/admin/dashboard"), { method: "POST", path: "/api/admin/dashboard", admin: true, status: 405, error: "POST is not allowed here; use GET or HEAD" }],
  "GET /api/admin/products": () => [
    anonymous("GET", "/api/admin/products"),
    { path: "/api/admin/products?page=0", admin: true, status: 400, error: "page must be a whole number from 1" },
    { path: "/api/admin/products?q=a&q=b", admin: true, status: 400, error: "q must be given once" },
  ],
  "GET /api/admin/products/:id": () => [
    anonymous("GET", `/api/admin/products/${f.product.id}`),
    { path: "/api/admin/products/abc", admin: true, status: 400, error: "id must be a whole number" },
    { path: `/api/admin/products/${anyId}`, admin: true, status: 404, error: "Product not found" },
  ],
  "POST /api/products": () => [
    anonymous("POST", "/api/products", productBody()),
    crossSite("POST", "/api/products", productBody(), evilOrigin),
    crossSite("POST", "/api/products", productBody(), { "sec-fetch-site": "cross-site" }),
    { method: "POST", path: "/api/products", admin: true, body: "name=x", contentType: form, status: 415, error: "Send a JSON body (Content-Type: application/json)" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ name: undefined }), status: 400, error: "name is required" },
    // An offer's URL must be on its retailer's hosts: the first retailer is Amazon.
    ...["http://169.254.169.254/latest/meta-data", "https://www.amazon.co.uk.evil.example/dp/B0"].map((url) => ({
      method: "POST",
      path: "/api/products",
      admin: true,
      body: productBody({ retailerLinks: [{ ...(productBody().retailerLinks[0] as object), affiliateUrl: url }] }),
      status: 400,
      error: `retailerLinks.0.affiliateUrl: the URL's host ${new URL(url).hostname} is not Amazon's (amazon.co.uk)`,
    })),
    { method: "POST", path: "/api/products", admin: true, body: productBody({ name: "  " }), status: 400, error: "name is required" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ categoryId: anyId }), status: 400, error: "categoryId: unknown category" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ slug: f.product.slug }), status: 409, error: `A product with the slug "${f.product.slug}" already exists` },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ name: "!!!" }), status: 400, error: "name must contain a letter or digit (the page address is made from it)" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ slug: "Bad Slug" }), status: 400, error: "slug must use only a-z, 0-9 and single hyphens between them" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ familyKey: "-royal-canin" }), status: 400, error: "familyKey must use only a-z, 0-9 and single hyphens between them" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ rating: 5.1 }), status: 400, error: "rating must be from 0 to 5" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ rating: -0.1 }), status: 400, error: "rating must be from 0 to 5" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ rating: 4.25 }), status: 400, error: "rating must have at most one decimal" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ rating: null }), status: 400, error: "rating is required when reviewCount is above 0" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ reviewCount: -1 }), status: 400, error: "reviewCount must be a whole number of at least 0" },
    {
      method: "POST",
      path: "/api/products",
      admin: true,
      body: productBody({ retailerLinks: [{ ...productBody().retailerLinks[0], price: 1.999 }] }),
      status: 400,
      error: "retailerLinks.0.price: price must be an amount of at least 0 with at most two decimals",
    },
    {
      method: "POST",
      path: "/api/products",
      admin: true,
      body: productBody({ retailerLinks: [{ ...productBody().retailerLinks[0], price: -1 }] }),
      status: 400,
      error: "retailerLinks.0.price: price must be an amount of at least 0 with at most two decimals",
    },
    {
      method: "POST",
      path: "/api/products",
      admin: true,
      body: productBody({ retailerLinks: [{ ...productBody().retailerLinks[0], affiliateUrl: "javascript:alert(1)" }] }),
      status: 400,
      error: "retailerLinks.0.affiliateUrl: affiliateUrl must be an http or https URL",
    },
    {
      method: "POST",
      path: "/api/products",
      admin: true,
      body: productBody({ retailerLinks: [{ ...productBody().retailerLinks[0], retailerId: anyId }] }),
      status: 400,
      error: "retailerLinks.0.retailerId: unknown retailer",
    },
    {
      method: "POST",
      path: "/api/products",
      admin: true,
      body: productBody({ retailerLinks: [productBody().retailerLinks[0], productBody().retailerLinks[0]] }),
      status: 400,
      error: "retailerLinks.1.retailerId: each retailer may appear once per product",
    },
    {
      method: "POST",
      path: "/api/products",
      admin: true,
      body: productBody({ retailerLinks: [{ ...productBody().retailerLinks[0], priceOverride: true, manualPrice: null }] }),
      status: 400,
      error: "retailerLinks.0.manualPrice: manualPrice is required when priceOverride is on",
    },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ image: "javascript:alert(1)" }), status: 400, error: "image must be an http or https URL or a path on this site" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ legalCategory: "POM" }), status: 400, error: "legalCategory must be one of none, POM-V, POM-VPS, NFA-VPS, AVM-GSL" },
    { method: "POST", path: "/api/products", admin: true, body: productBody({ legalCategory: "pom-v" }), status: 400, error: "legalCategory must be one of none, POM-V, POM-VPS, NFA-VPS, AVM-GSL" },
    {
      method: "POST",
      path: "/api/products",
      admin: true,
      body: productBody({ legalCategory: "POM-VPS", isFeatured: true }),
      status: 400,
      error: "isFeatured: a prescription-only medicine (POM-V or POM-VPS) cannot be featured",
    },
    // Product writes take up to 256 KiB (fifty offers), so a 100 KiB body reaches validation.
    { method: "POST", path: "/api/products", admin: true, body: productBody({ description: "d".repeat(100 * 1024) }), status: 400, error: "description must be at most 10000 characters" },
  ],
  "PUT /api/products/:id": () => [
    anonymous("PUT", `/api/products/${f.product.id}`, productBody()),
    crossSite("PUT", `/api/products/${f.product.id}`, productBody(), evilOrigin),
    { method: "PUT", path: `/api/products/${anyId}`, admin: true, body: productBody(), status: 404, error: "Product not found" },
    { method: "PUT", path: "/api/products/abc", admin: true, body: productBody(), status: 400, error: "id must be a whole number" },
    {
      method: "PUT",
      path: `/api/products/${row<{ id: number }>("SELECT id FROM products WHERE id <> ? ORDER BY id LIMIT 1", f.product.id).id}`,
      admin: true,
      body: productBody({ slug: f.product.slug }),
      status: 409,
      error: `A product with the slug "${f.product.slug}" already exists`,
    },
    { method: "PUT", path: `/api/products/${f.product.id}`, admin: true, body: productBody({ isFeatured: "yes" }), status: 400, error: "isFeatured must be true or false" },
    { method: "PUT", path: `/api/products/${f.product.id}`, admin: true, body: productBody({ familyKey: "Royal Canin Maxi" }), status: 400, error: "familyKey must use only a-z, 0-9 and single hyphens between them" },
    { method: "PUT", path: `/api/products/${f.product.id}`, admin: true, body: productBody({ familyKey: 42 }), status: 400, error: "familyKey must use only a-z, 0-9 and single hyphens between them" },
    { method: "PUT", path: `/api/products/${f.product.id}`, admin: true, body: productBody({ legalCategory: null }), status: 400, error: "legalCategory must be one of none, POM-V, POM-VPS, NFA-VPS, AVM-GSL" },
    {
      method: "PUT",
      path: `/api/products/${f.product.id}`,
      admin: true,
      body: productBody({ legalCategory: "POM-V", isFeatured: true }),
      status: 400,
      error: "isFeatured: a prescription-only medicine (POM-V or POM-VPS) cannot be featured",
    },
  ],
  "DELETE /api/products/:id": () => [
    anonymous("DELETE", `/api/products/${f.product.id}`),
    crossSite("DELETE", `/api/products/${f.product.id}`, undefined, evilOrigin),
    { method: "DELETE", path: `/api/products/${anyId}`, admin: true, status: 404, error: "Product not found" },
  ],
  "POST /api/categories": () => [
    anonymous("POST", "/api/categories", categoryBody()),
    crossSite("POST", "/api/categories", categoryBody(), evilOrigin),
    { method: "POST", path: "/api/categories", admin: true, body: categoryBody({ name: "" }), status: 400, error: "name is required" },
    { method: "POST", path: "/api/categories", admin: true, body: categoryBody({ slug: f.category.slug }), status: 409, error: `A category with the slug "${f.category.slug}" already exists` },
    ...["<svg>", "Turtle", "bones", "shield dogs"].map((icon) => ({
      method: "POST",
      path: "/api/categories",
      admin: true,
      body: categoryBody({ icon }),
      status: 400,
      error: "icon must be one of paw-print, bone, fish, baseball, house, shield-dog, scissors, whistle, rabbit, bird, heart, toy, bed",
    })),
    // Over the default 16 KiB body limit.
    { method: "POST", path: "/api/categories", admin: true, body: categoryBody({ description: "d".repeat(17 * 1024) }), status: 413, error: "Request body size exceeds the limit of 16384 bytes" },
  ],
  "PUT /api/categories/:id": () => [
    anonymous("PUT", `/api/categories/${f.category.id}`, categoryBody()),
    { method: "PUT", path: `/api/categories/${anyId}`, admin: true, body: categoryBody(), status: 404, error: "Category not found" },
    {
      method: "PUT",
      path: `/api/categories/${f.category.id}`,
      admin: true,
      body: categoryBody({ slug: row<{ slug: string }>("SELECT slug FROM categories WHERE id <> ? ORDER BY id LIMIT 1", f.category.id).slug }),
      status: 409,
      error: /^A category with the slug "[a-z-]+" already exists$/,
    },
  ],
  "DELETE /api/categories/:id": () => [
    anonymous("DELETE", `/api/categories/${f.category.id}`),
    {
      method: "DELETE",
      path: `/api/categories/${f.category.id}`,
      admin: true,
      status: 409,
      error: `Category "${f.category.name}" still has ${row<{ n: number }>("SELECT count(*) AS n FROM products WHERE category_id = ?", f.category.id).n} products; move or delete them first`,
    },
    { method: "DELETE", path: `/api/categories/${anyId}`, admin: true, status: 404, error: "Category not found" },
  ],
  "POST /api/retailers": () => [
    anonymous("POST", "/api/retailers", retailerBody()),
    { method: "POST", path: "/api/retailers", admin: true, body: retailerBody({ website: "ftp://files.example" }), status: 400, error: "website must be an http or https URL" },
    { method: "POST", path: "/api/retailers", admin: true, body: retailerBody({ logo: "" }), status: 400, error: "logo is required" },
    { method: "POST", path: "/api/retailers", admin: true, body: retailerBody({ deliveryCharge: -1 }), status: 400, error: "deliveryCharge must be an amount of at least 0 with at most two decimals" },
    { method: "POST", path: "/api/retailers", admin: true, body: retailerBody({ deliveryCharge: "3.999" }), status: 400, error: "deliveryCharge must be an amount of at least 0 with at most two decimals" },
    { method: "POST", path: "/api/retailers", admin: true, body: retailerBody({ freeDeliveryFrom: true }), status: 400, error: "freeDeliveryFrom must be an amount in pounds" },
    { method: "POST", path: "/api/retailers", admin: true, body: retailerBody({ name: f.retailer.name.toUpperCase(), key: "amazon-two" }), status: 409, error: `A retailer named "${f.retailer.name.toUpperCase()}" already exists` },
    { method: "POST", path: "/api/retailers", admin: true, body: retailerBody({ key: f.retailer.key }), status: 409, error: `A retailer with the key "${f.retailer.key}" already exists` },
  ],
  "PUT /api/retailers/:id": () => [
    anonymous("PUT", `/api/retailers/${f.retailer.id}`, retailerBody()),
    { method: "PUT", path: `/api/retailers/${anyId}`, admin: true, body: retailerBody(), status: 404, error: "Retailer not found" },
    { method: "PUT", path: `/api/retailers/${f.retailer.id}`, admin: true, body: retailerBody({ name: f.retailer.name, hosts: ["shop.co.uk", "169.254.169.254"] }), status: 400, error: 'hosts.1: "169.254.169.254" is not a host name (like shop.co.uk)' },
    { method: "PUT", path: `/api/retailers/${f.retailer.id}`, admin: true, body: retailerBody({ name: f.retailer.name, hosts: "shop.co.uk" }), status: 400, error: "hosts must be a list of host names" },
    { method: "PUT", path: `/api/retailers/${f.retailer.id}`, admin: true, body: retailerBody({ name: f.retailer.name, feedNames: ["  "] }), status: 400, error: "feedNames.0: a feed name cannot be empty" },
    {
      method: "PUT",
      path: `/api/retailers/${f.retailer.id}`,
      admin: true,
      body: retailerBody({ name: f.retailer.name, comparesPrices: false }),
      status: 409,
      error: /^Amazon still has \d+ offers; remove them before turning off price comparison$/,
    },
  ],
  "DELETE /api/retailers/:id": () => [
    anonymous("DELETE", `/api/retailers/${f.retailer.id}`),
    { method: "DELETE", path: `/api/retailers/${f.retailer.id}`, admin: true, status: 409, error: /^Retailer "Amazon" still has \d+ offers; remove them first$/ },
    { method: "DELETE", path: `/api/retailers/${anyId}`, admin: true, status: 404, error: "Retailer not found" },
  ],
  "GET /api/admin/vouchers": () => [anonymous("GET", "/api/admin/vouchers")],
  "POST /api/admin/vouchers": () => [
    anonymous("POST", "/api/admin/vouchers", voucherBody()),
    { method: "POST", path: "/api/admin/vouchers", admin: true, body: voucherBody({ expiryDate: "2027-02-30" }), status: 400, error: "expiryDate must be a real calendar date" },
    { method: "POST", path: "/api/admin/vouchers", admin: true, body: voucherBody({ expiryDate: "31/03/2027" }), status: 400, error: "expiryDate must be a date (YYYY-MM-DD)" },
    { method: "POST", path: "/api/admin/vouchers", admin: true, body: voucherBody({ url: "data:text/html,hi" }), status: 400, error: "url must be an http or https URL" },
    {
      method: "POST",
      path: "/api/admin/vouchers",
      admin: true,
      body: (() => {
        const { code, retailer } = row<{ code: string; retailer: string }>("SELECT code, retailer FROM vouchers WHERE id = ?", f.voucherId);
        return voucherBody({ code, retailer });
      })(),
      status: 409,
      error: /^.+ already has the voucher code ".+"$/,
    },
  ],
  "PUT /api/admin/vouchers/:id": () => [
    anonymous("PUT", `/api/admin/vouchers/${f.voucherId}`, voucherBody()),
    { method: "PUT", path: `/api/admin/vouchers/${anyId}`, admin: true, body: voucherBody(), status: 404, error: "Voucher not found" },
    { method: "PUT", path: `/api/admin/vouchers/${f.voucherId}`, admin: true, body: voucherBody({ code: "" }), status: 400, error: "code is required" },
  ],
  "DELETE /api/admin/vouchers/:id": () => [
    anonymous("DELETE", `/api/admin/vouchers/${f.voucherId}`),
    { method: "DELETE", path: `/api/admin/vouchers/${anyId}`, admin: true, status: 404, error: "Voucher not found" },
  ],
  "GET /api/admin/affiliate-ids": () => [anonymous("GET", "/api/admin/affiliate-ids")],
  "PUT /api/admin/affiliate-ids": () => [
    anonymous("PUT", "/api/admin/affiliate-ids", affiliateBody()),
    { method: "PUT", path: "/api/admin/affiliate-ids", admin: true, body: affiliateBody({ AMAZON: undefined }), status: 400, error: "Amazon affiliate ID is required" },
    { method: "PUT", path: "/api/admin/affiliate-ids", admin: true, body: affiliateBody({ PETS_AT_HOME: " " }), status: 400, error: "Pets at Home affiliate ID is required" },
    { method: "PUT", path: "/api/admin/affiliate-ids", admin: true, body: affiliateBody({ JOLLYES: "" }), status: 400, error: "Jollyes affiliate ID is required" },
    { method: "PUT", path: "/api/admin/affiliate-ids", admin: true, body: affiliateBody({ ZOOPLUS: "" }), status: 400, error: "Zooplus affiliate ID is required" },
    { method: "PUT", path: "/api/admin/affiliate-ids", admin: true, body: affiliateBody({ EBAY: "" }), status: 400, error: "eBay affiliate ID is required" },
    { method: "PUT", path: "/api/admin/affiliate-ids", admin: true, body: affiliateBody({ AMAZON: "tag&evil=1" }), status: 400, error: "AMAZON may use only letters, digits and . _ ~ -" },
  ],
  "GET /api/admin/email-subscribers": () => [anonymous("GET", "/api/admin/email-subscribers")],
  "DELETE /api/admin/email-subscribers/:id": () => [
    anonymous("DELETE", `/api/admin/email-subscribers/${f.subscriberId}`),
    { method: "DELETE", path: `/api/admin/email-subscribers/${anyId}`, admin: true, status: 404, error: "Subscriber not found" },
  ],
  "GET /api/admin/analytics": () => [anonymous("GET", "/api/admin/analytics")],
  "GET /api/admin/export-products": () => [
    anonymous("GET", "/api/admin/export-products"),
    { method: "POST", path: "/api/admin/export-products", admin: true, status: 405, error: "POST is not allowed here; use GET or HEAD" },
  ],
  "POST /api/admin/rebuild": () => [anonymous("POST", "/api/admin/rebuild"), crossSite("POST", "/api/admin/rebuild", undefined, { "sec-fetch-site": "cross-site" })],
  "GET /api/admin/build-status": () => [anonymous("GET", "/api/admin/build-status")],
  "POST /api/extract-price": () => [
    anonymous("POST", "/api/extract-price", { url: "https://www.amazon.co.uk/dp/B0TEST" }),
    { method: "POST", path: "/api/extract-price", admin: true, body: {}, status: 400, error: "url is required" },
    { method: "POST", path: "/api/extract-price", admin: true, body: { url: "ftp://example.com/x" }, status: 400, error: "url must be an http or https URL" },
    { method: "POST", path: "/api/extract-price", admin: true, body: { url: "not a url" }, status: 400, error: "url must be an http or https URL" },
    { method: "POST", path: "/api/extract-price", admin: true, body: { url: `https://example.com/${"a".repeat(2000)}` }, status: 400, error: "url must be at most 2000 characters" },
    // The server never reads addresses inside private networks or the cloud metadata service.
    { method: "POST", path: "/api/extract-price", admin: true, body: { url: "http://169.254.169.254/latest/meta-data/" }, status: 400, error: /is not a public address/ },
    { method: "POST", path: "/api/extract-price", admin: true, body: { url: "http://10.0.0.1/" }, status: 400, error: /is not a public address/ },
    // A page that cannot be read: 502 with the reason.
    { method: "POST", path: "/api/extract-price", admin: true, body: { url: `${shopOrigin}/missing` }, status: 502, error: /404/ },
    crossSite("POST", "/api/extract-price", { url: "https://www.amazon.co.uk/dp/B0TEST" }, evilOrigin),
  ],
  "POST /api/admin/import-amazon-products": () => [
    anonymous("POST", "/api/admin/import-amazon-products", {}),
    crossSite("POST", "/api/admin/import-amazon-products", {}, { "sec-fetch-site": "cross-site" }),
  ],
  "GET /api/admin/price-holds": () => [anonymous("GET", "/api/admin/price-holds")],
  "GET /api/admin/feed-sources": () => [anonymous("GET", "/api/admin/feed-sources")],
  "POST /api/admin/feed-sources": () => {
    const post = (body: unknown, status: number, error: string | RegExp): BadCase => ({ method: "POST", path: "/api/admin/feed-sources", admin: true, body, status, error });
    return [
      anonymous("POST", "/api/admin/feed-sources", { name: "X", kind: "file" }),
      post({}, 400, "name is required"),
      post({ name: "  ", kind: "file" }, 400, "name is required"),
      post({ name: "X", kind: "ftp" }, 400, "kind must be url or file"),
      post({ name: "X", kind: "url" }, 400, "url is required for a url source"),
      post({ name: "X", kind: "url", url: "ftp://example.com/feed.csv" }, 400, "url must be an http or https URL without a user name or password"),
      post({ name: "X", kind: "url", url: "https://user:pass@example.com/feed.csv" }, 400, "url must be an http or https URL without a user name or password"),
      post({ name: "X", kind: "file", url: "https://example.com/feed.csv" }, 400, "url must be left out for a file source (upload its file instead)"),
      post({ name: "X", kind: "file", layout: "excel" }, 400, /^layout must be one of auto, awin-publisher/),
      post({ name: "X", kind: "file", layout: "mapped" }, 400, "mapping must name a column for name, price, link (the mapped layout needs them)"),
      post({ name: "X", kind: "file", layout: "mapped", mapping: { name: "title", price: "cost" } }, 400, "mapping must name a column for link (the mapped layout needs them)"),
      post({ name: "X", kind: "file", mapping: { colour: "c" } }, 400, /mapping may only name the fields name, price, link/),
      post({ name: "X", kind: "file", schedule: "every night" }, 400, /schedule must be a cron pattern of five fields/),
      post({ name: "X", kind: "file", schedule: "61 3 * * *" }, 400, /schedule is not a valid cron pattern/),
      post({ name: "X", kind: "file", schedule: "*/5 * * * *" }, 400, "schedule must not run more often than every 15 minutes"),
      post({ name: "X", kind: "file", retailerKey: "nope" }, 400, 'retailerKey "nope" is not a known retailer'),
      post({ name: "X", kind: "file", retailerKey: "Not A Key" }, 400, /retailerKey must be a retailer's key/),
      post({ name: "X", kind: "file", createProducts: "yes" }, 400, "createProducts must be true or false"),
      post({ name: "X", kind: "file", extra: 1 }, 400, /extra/),
      post({ name: "route url feed", kind: "file" }, 409, 'A feed source called "route url feed" exists already'),
      { method: "POST", path: "/api/admin/feed-sources", admin: true, body: "name=X&kind=file", contentType: form, status: 415, error: "Send a JSON body (Content-Type: application/json)" },
      crossSite("POST", "/api/admin/feed-sources", { name: "X", kind: "file" }, evilOrigin),
      crossSite("POST", "/api/admin/feed-sources", { name: "X", kind: "file" }, { "sec-fetch-site": "cross-site" }),
    ];
  },
  "GET /api/admin/feed-sources/:id": () => [
    anonymous("GET", `/api/admin/feed-sources/${f.urlSourceId}`),
    { path: "/api/admin/feed-sources/abc", admin: true, status: 400, error: 'id must be a feed source\'s number or "awin"' },
    { path: `/api/admin/feed-sources/${anyId}`, admin: true, status: 404, error: "Feed source not found" },
    // No AWIN_FEED_URL in this server: there is no configured feed.
    { path: "/api/admin/feed-sources/awin", admin: true, status: 404, error: "Feed source not found" },
  ],
  "PUT /api/admin/feed-sources/:id": () => {
    const put = (id: number | string, body: unknown, status: number, error: string | RegExp): BadCase => ({ method: "PUT", path: `/api/admin/feed-sources/${id}`, admin: true, body, status, error });
    return [
      anonymous("PUT", `/api/admin/feed-sources/${f.urlSourceId}`, { name: "Y" }),
      put(anyId, { name: "Y" }, 404, "Feed source not found"),
      put("awin", { name: "Y" }, 409, "This source is configured by AWIN_FEED_URL / AWIN_FEED_FILE; change it in the server's environment"),
      put(f.urlSourceId, { name: "Route file feed" }, 409, 'A feed source called "Route file feed" exists already'),
      put(f.urlSourceId, { url: "javascript:alert(1)" }, 400, "url must be an http or https URL without a user name or password"),
      put(f.fileSourceId, { url: "https://example.com/feed.csv" }, 400, "url must be left out for a file source (upload its file instead)"),
      put(f.urlSourceId, { layout: "mapped" }, 400, "mapping must name a column for name, price, link (the mapped layout needs them)"),
      put(f.urlSourceId, { schedule: "* * * * *" }, 400, "schedule must not run more often than every 15 minutes"),
      put(f.urlSourceId, { kind: "file" }, 400, /kind/),
      put(f.urlSourceId, { enabled: "no" }, 400, "enabled must be true or false"),
      crossSite("PUT", `/api/admin/feed-sources/${f.urlSourceId}`, { name: "Y" }, evilOrigin),
    ];
  },
  "DELETE /api/admin/feed-sources/:id": () => [
    anonymous("DELETE", `/api/admin/feed-sources/${f.urlSourceId}`),
    { method: "DELETE", path: `/api/admin/feed-sources/${anyId}`, admin: true, status: 404, error: "Feed source not found" },
    { method: "DELETE", path: "/api/admin/feed-sources/0", admin: true, status: 400, error: /id must be/ },
    { method: "DELETE", path: "/api/admin/feed-sources/awin", admin: true, status: 409, error: /configured by AWIN_FEED_URL/ },
    crossSite("DELETE", `/api/admin/feed-sources/${f.urlSourceId}`, undefined, { "sec-fetch-site": "cross-site" }),
  ],
  "PUT /api/admin/feed-sources/:id/file": () => {
    const upload = (path: string, body: unknown, status: number, error: string | RegExp, contentType = "text/csv", headers?: Record<string, string>): BadCase => ({
      method: "PUT",
      path,
      admin: true,
      body,
      contentType,
      status,
      error,
      headers,
    });
    const file = `/api/admin/feed-sources/${f.fileSourceId}/file?name=feed.csv`;
    return [
      { ...anonymous("PUT", file, feedCsv()), contentType: "text/csv" },
      // A form (another site's page could send one) or JSON is not a file upload.
      upload(file, "a=b", 415, /^Send the file as the body with Content-Type application\/octet-stream, text\/csv/, form),
      upload(file, feedCsv(), 415, /^Send the file as the body/, "text/plain"),
      upload(file, { a: 1 }, 415, /^Send the file as the body/, "application/json"),
      upload(`/api/admin/feed-sources/${f.fileSourceId}/file`, feedCsv(), 400, "name (the file's name) is required"),
      upload(`/api/admin/feed-sources/${f.fileSourceId}/file?name=..%2Fetc%2Fpasswd`, feedCsv(), 400, "name must be a file name without folders or control characters"),
      upload(`/api/admin/feed-sources/${f.urlSourceId}/file?name=feed.csv`, feedCsv(), 409, `"Route URL feed" downloads its feed from a URL; it takes no upload`),
      upload(`/api/admin/feed-sources/${anyId}/file?name=feed.csv`, feedCsv(), 404, "Feed source not found"),
      upload(file, "", 400, "The file is empty"),
      // Over the upload limit (1 MiB in the tests): refused, nothing kept.
      upload(file, "x".repeat(1024 * 1024 + 1), 413, "The file is larger than the upload limit of 1,048,576 bytes"),
      upload(file, "<html><body>Service unavailable</body></html>", 422, /not a product feed/i),
      { ...crossSite("PUT", file, feedCsv(), evilOrigin), contentType: "text/csv" },
    ];
  },
  "POST /api/admin/feed-sources/:id/detect": () => [
    anonymous("POST", `/api/admin/feed-sources/${f.fileSourceId}/detect`, {}),
    { method: "POST", path: `/api/admin/feed-sources/${f.fileSourceId}/detect`, admin: true, body: {}, status: 409, error: 'Upload a feed file for "Route file feed" first' },
    { method: "POST", path: `/api/admin/feed-sources/${anyId}/detect`, admin: true, body: {}, status: 404, error: "Feed source not found" },
    crossSite("POST", `/api/admin/feed-sources/${f.fileSourceId}/detect`, {}, evilOrigin),
  ],
  "POST /api/admin/feed-sources/:id/runs": () => [
    anonymous("POST", `/api/admin/feed-sources/${f.fileSourceId}/runs`, {}),
    { method: "POST", path: `/api/admin/feed-sources/${f.fileSourceId}/runs`, admin: true, body: {}, status: 409, error: 'Upload a feed file for "Route file feed" before running it' },
    { method: "POST", path: `/api/admin/feed-sources/${anyId}/runs`, admin: true, body: {}, status: 404, error: "Feed source not found" },
    // No AWIN_FEED_URL in this server: there is no configured feed.
    { method: "POST", path: "/api/admin/feed-sources/awin/runs", admin: true, body: {}, status: 404, error: "Feed source not found" },
    crossSite("POST", `/api/admin/feed-sources/${f.fileSourceId}/runs`, {}, { "sec-fetch-site": "cross-site" }),
  ],
  "GET /api/admin/feed-sources/:id/runs": () => [
    anonymous("GET", `/api/admin/feed-sources/${f.fileSourceId}/runs`),
    { path: `/api/admin/feed-sources/${anyId}/runs`, admin: true, status: 404, error: "Feed source not found" },
    { path: "/api/admin/feed-sources/awin/runs", admin: true, status: 404, error: "Feed source not found" },
  ],
  "GET /api/admin/feed-runs/:id": () => [
    anonymous("GET", "/api/admin/feed-runs/1"),
    { path: `/api/admin/feed-runs/${anyId}`, admin: true, status: 404, error: "Import run not found" },
    { path: "/api/admin/feed-runs/x", admin: true, status: 400, error: /id/ },
  ],
  "POST /api/admin/price-holds/:id/accept": () => [
    anonymous("POST", "/api/admin/price-holds/1/accept", {}),
    { method: "POST", path: `/api/admin/price-holds/${anyId}/accept`, admin: true, body: {}, status: 404, error: "Held price not found" },
    { method: "POST", path: "/api/admin/price-holds/abc/accept", admin: true, body: {}, status: 400, error: /id/ },
  ],
  "POST /api/admin/price-holds/:id/reject": () => [
    anonymous("POST", "/api/admin/price-holds/1/reject", {}),
    { method: "POST", path: `/api/admin/price-holds/${anyId}/reject`, admin: true, body: {}, status: 404, error: "Held price not found" },
    { method: "POST", path: "/api/admin/price-holds/0/reject", admin: true, body: {}, status: 400, error: /id/ },
  ],
  "GET /api/admin/demo": () => [anonymous("GET", "/api/admin/demo"), { method: "DELETE", path: "/api/admin/demo", admin: true, status: 405, error: "DELETE is not allowed here; use GET or HEAD" }],
  "POST /api/admin/demo/clear": () => [
    anonymous("POST", "/api/admin/demo/clear", {}),
    crossSite("POST", "/api/admin/demo/clear", {}, evilOrigin),
    { method: "GET", path: "/api/admin/demo/clear", admin: true, status: 405, error: "GET is not allowed here; use POST" },
    { method: "POST", path: "/api/admin/demo/clear", admin: true, body: "{}", contentType: "text/plain", status: 415, error: /JSON/ },
  ],
  "GET /api/admin/machine-tokens": () => [
    anonymous("GET", "/api/admin/machine-tokens"),
    { path: "/api/admin/machine-tokens", headers: { authorization: `Bearer ${f.machineToken}` }, status: 401, error: "Sign in to the admin area" },
  ],
  "POST /api/admin/machine-tokens": () => [
    anonymous("POST", "/api/admin/machine-tokens", { name: "CI", scopes: ["nightly:run"] }),
    { method: "POST", path: "/api/admin/machine-tokens", admin: true, body: { scopes: ["nightly:run"] }, status: 400, error: "name is required" },
    { method: "POST", path: "/api/admin/machine-tokens", admin: true, body: { name: "x".repeat(81), scopes: ["nightly:run"] }, status: 400, error: "name must be at most 80 characters" },
    { method: "POST", path: "/api/admin/machine-tokens", admin: true, body: { name: "CI", scopes: [] }, status: 400, error: "scopes must be a list of one or more of nightly:run, releases:read" },
    { method: "POST", path: "/api/admin/machine-tokens", admin: true, body: { name: "CI", scopes: ["admin"] }, status: 400, error: /scopes must be a list of one or more of nightly:run, releases:read/ },
    crossSite("POST", "/api/admin/machine-tokens", { name: "CI", scopes: ["nightly:run"] }, evilOrigin),
  ],
  "DELETE /api/admin/machine-tokens/:id": () => [
    anonymous("DELETE", "/api/admin/machine-tokens/1"),
    { method: "DELETE", path: `/api/admin/machine-tokens/${anyId}`, admin: true, status: 404, error: "Machine token not found" },
    { method: "DELETE", path: "/api/admin/machine-tokens/x", admin: true, status: 400, error: /id/ },
    crossSite("DELETE", "/api/admin/machine-tokens/1", undefined, { "sec-fetch-site": "cross-site" }),
  ],
  "GET /api/admin/nightly-runs": () => [
    anonymous("GET", "/api/admin/nightly-runs"),
    { path: "/api/admin/nightly-runs", headers: { authorization: `Bearer ${f.machineToken}` }, status: 401, error: "Sign in to the admin area" },
  ],
  ...Object.fromEntries(
    ["lookup", "export", "erase"].map((action): [string, () => BadCase[]] => {
      const path = `/api/admin/privacy/${action}`;
      const bad = (body: unknown, error: string | RegExp): BadCase => ({ method: "POST", path, admin: true, body, status: 400, error });
      return [
        `POST ${path}`,
        () => [
          anonymous("POST", path, { email: "owner@example.com" }),
          crossSite("POST", path, { email: "owner@example.com" }, evilOrigin),
          bad({}, "Give an e-mail address (email) or a visitor id (userId)"),
          bad({ email: "owner@example.com", userId: alice }, "Give an e-mail address or a visitor id, not both"),
          bad({ email: "owner(at)example.com" }, "email: Please enter a valid email address"),
          bad({ userId: `${alice}0` }, /^userId must be an anonymous visitor id/),
          { method: "POST", path, admin: true, body: "email=owner@example.com", contentType: form, status: 415, error: "Send a JSON body (Content-Type: application/json)" },
          { method: "GET", path, admin: true, status: 405, error: "GET is not allowed here; use POST" },
        ],
      ];
    }),
  ),
  // Machine routes: a machine token with the route's scope, never the admin's session.
  "POST /api/machine/nightly": () => [
    { method: "POST", path: "/api/machine/nightly", status: 401, error: "Send a machine token: Authorization: Bearer <token>" },
    { method: "POST", path: "/api/machine/nightly", admin: true, status: 401, error: "Send a machine token: Authorization: Bearer <token>" },
    { method: "POST", path: "/api/machine/nightly", headers: { authorization: "Bearer not-a-token" }, status: 401, error: "The machine token is malformed" },
    { method: "POST", path: "/api/machine/nightly", headers: { authorization: `Bearer ${f.releaseToken}` }, status: 403, error: "This token may not do this: it needs the scope nightly:run" },
    { method: "GET", path: "/api/machine/nightly", headers: { authorization: `Bearer ${f.machineToken}` }, status: 405, error: "GET is not allowed here; use POST" },
  ],
  "GET /api/machine/nightly/:id": () => [
    { path: "/api/machine/nightly/1", admin: true, status: 401, error: "Send a machine token: Authorization: Bearer <token>" },
    { path: `/api/machine/nightly/${anyId}`, headers: { authorization: `Bearer ${f.machineToken}` }, status: 404, error: "Nightly run not found" },
    { path: "/api/machine/nightly/x", headers: { authorization: `Bearer ${f.machineToken}` }, status: 400, error: /id/ },
    { path: "/api/machine/nightly/1", headers: { authorization: `Bearer ${f.releaseToken}` }, status: 403, error: "This token may not do this: it needs the scope nightly:run" },
  ],
  "GET /api/machine/releases/current.tar.gz": () => [
    { path: "/api/machine/releases/current.tar.gz", admin: true, status: 401, error: "Send a machine token: Authorization: Bearer <token>" },
    { path: "/api/machine/releases/current.tar.gz", headers: { authorization: `Bearer ${f.releaseToken}` }, status: 404, error: "No release is built yet" },
  ],
};

const adminGoodInput: Record<string, () => Promise<void>> = {
  "POST /api/admin/login": async () => {
    const sessions = () => row<{ n: number }>("SELECT count(*) AS n FROM admin_sessions").n;
    const before = sessions();
    const response = await request("POST", "/api/admin/login", { password: testAdminPassword }, undefined, { origin: api.baseUrl });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^pawprice_admin=[A-Za-z0-9_-]{22};/);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).not.toMatch(/; Secure/i);
    expect(sessions()).toBe(before + 1);
    // Only a digest of the session id is stored.
    const token = /^pawprice_admin=([^;]+)/.exec(cookie)![1]!;
    expect(rows("SELECT token_hash FROM admin_sessions WHERE token_hash = ?", token)).toEqual([]);
    expect(rows("SELECT 1 FROM admin_sessions WHERE token_hash = ?", crypto.createHash("sha256").update(token).digest("hex"))).toHaveLength(1);
  },
  "POST /api/admin/logout": async () => {
    const cookie = await api.login();
    expect((await request("GET", "/api/admin/session", undefined, undefined, { cookie })).status).toBe(200);
    const response = await request("POST", "/api/admin/logout", undefined, undefined, { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toMatch(/^pawprice_admin=;.*Max-Age=0/i);
    expect((await request("GET", "/api/admin/session", undefined, undefined, { cookie })).status).toBe(401);
    // The file's own session is untouched.
    expect((await request("GET", "/api/admin/session", undefined, undefined, { cookie: session })).status).toBe(200);
  },
  "GET /api/admin/session": async () => {
    expect(await adminOk("GET", "/api/admin/session")).toEqual({ authenticated: true });
  },
  "GET /api/admin/dashboard": async () => {
    const insert = api.db.$client.prepare("INSERT INTO audit_log (at, action, entity, entity_id, summary) VALUES (?, 'update', 'product', 1, ?)");
    for (let i = 0; i < 21; i++) insert.run(`2026-01-01T00:00:${String(i).padStart(2, "0")}.000Z`, `change ${i}`);
    const body = (await adminOk("GET", "/api/admin/dashboard")) as { counts: unknown; recentChanges: { summary: string }[] };
    expect(body.counts).toEqual(row("SELECT (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM categories) AS categories, (SELECT count(*) FROM retailers) AS retailers"));
    const newest = rows<{ summary: string }>("SELECT summary FROM audit_log ORDER BY at DESC, id DESC LIMIT 20").map((r) => r.summary);
    expect(body.recentChanges.map((c) => c.summary)).toEqual(newest);
    expect(body.recentChanges).toHaveLength(20);
  },
  "GET /api/admin/products": async () => {
    const body = (await adminOk("GET", "/api/admin/products?page=1")) as {
      products: { id: number; createdAt: string; lastEditedAt: string | null }[];
      total: number;
      page: number;
      pageSize: number;
    };
    expect(body.products.map((p) => p.id)).toEqual(rows<{ id: number }>("SELECT id FROM products ORDER BY rank, id LIMIT 100").map((r) => r.id));
    // When each was created and last edited: the list shows a product never edited by its creation.
    const [first] = body.products;
    expect({ createdAt: first!.createdAt, lastEditedAt: first!.lastEditedAt }).toEqual(
      row("SELECT created_at AS createdAt, last_edited_at AS lastEditedAt FROM products WHERE id = ?", first!.id),
    );
    expect(body).toMatchObject({ total: row<{ n: number }>("SELECT count(*) AS n FROM products").n, page: 1, pageSize: 100 });
    const page2 = (await adminOk("GET", "/api/admin/products?page=2")) as { products: unknown[] };
    expect(page2.products).toEqual([]);
    const found = (await adminOk("GET", `/api/admin/products?q=${encodeURIComponent(f.product.name)}`)) as { products: { id: number }[] };
    expect(found.products[0]?.id).toBe(f.product.id);
  },
  "GET /api/admin/products/:id": async () => {
    const body = (await adminOk("GET", `/api/admin/products/${f.product.id}`)) as { slug: string; retailerLinks: { retailerId: number; affiliateUrl: string; price: number }[] };
    expect(body.slug).toBe(f.product.slug);
    const offers = rows<{ retailer_id: number; url: string; price_pence: number }>("SELECT retailer_id, url, price_pence FROM product_prices WHERE product_id = ? ORDER BY retailer_id", f.product.id);
    expect(body.retailerLinks.map((l) => [l.retailerId, l.affiliateUrl, l.price])).toEqual(offers.map((o) => [o.retailer_id, o.url, o.price_pence / 100]));
  },
  "POST /api/products": async () => {
    builds.length = 0;
    const body = productBody();
    const created = (await adminOk("POST", "/api/products", body, 201)) as { id: number; slug: string };
    expect(created.slug).toBe("test-kibble-adult-2kg");
    // Best price: the lowest in-stock total to the door. The second retailer's 11.50 carries its
    // standard delivery (11.50 + 3.99 = 15.49, below its free-delivery threshold); the first's 12.99
    // is delivered free, so it wins; its claimed was-price (15.00) has no price history behind it, so
    // the product shows none.
    const secondRule = row<{ delivery_pence: number }>("SELECT delivery_pence FROM retailers WHERE id = ?", body.retailerLinks[1]!.retailerId);
    expect(secondRule.delivery_pence).toBeGreaterThan(149);
    expect(row("SELECT name, category_id, best_price_pence, best_retailer_id, original_price_pence, best_delivery_pence, last_edited_at FROM products WHERE id = ?", created.id)).toEqual({
      name: body.name,
      category_id: f.category.id,
      best_price_pence: 1299,
      best_retailer_id: body.retailerLinks[0]!.retailerId,
      original_price_pence: null,
      best_delivery_pence: 0,
      last_edited_at: null,
    });
    expect(rows("SELECT retailer_id, price_pence FROM price_history WHERE product_id = ? ORDER BY retailer_id", created.id)).toEqual(
      body.retailerLinks.map((l) => ({ retailer_id: l.retailerId, price_pence: Math.round(l.price * 100) })),
    );
    expect(auditRows().at(-1)).toEqual({ action: "create", entity: "product", entity_id: created.id, summary: `Created product "${body.name}" with 2 offers` });
    expect(builds).toEqual([{ productIds: [created.id], categoryIds: [f.category.id], siteWide: false }]);
    // The public API shows it at once: the change signal dropped the cached answers.
    expect(await ok("GET", `/api/products/${created.slug}`)).toMatchObject({ id: created.id, bestPrice: 12.99, bestDelivery: 0 });
  },
  "PUT /api/products/:id": async () => {
    const id = row<{ id: number }>("SELECT id FROM products WHERE slug = 'test-kibble-adult-2kg'").id;
    await ok("GET", `/api/products/test-kibble-adult-2kg`);
    builds.length = 0;
    const body = productBody();
    const first = body.retailerLinks[0]!;
    // The first retailer drops to 10.00 (below the other's 11.50): it becomes the best; 12.99 was
    // charged for minutes, not the 28 days a was-price needs.
    const edited = { ...body, isFeatured: true, retailerLinks: [{ ...first, price: 10 }, body.retailerLinks[1]!] };
    expect(await adminOk("PUT", `/api/products/${id}`, edited)).toEqual({ id, slug: "test-kibble-adult-2kg" });
    expect(row("SELECT best_price_pence, best_retailer_id, original_price_pence, is_featured FROM products WHERE id = ?", id)).toEqual({
      best_price_pence: 1000,
      best_retailer_id: first.retailerId,
      original_price_pence: null,
      is_featured: 1,
    });
    expect(row<{ last_edited_at: string | null }>("SELECT last_edited_at FROM products WHERE id = ?", id).last_edited_at).not.toBeNull();
    // History grows by one point, for the retailer whose price moved.
    expect(rows("SELECT retailer_id, price_pence FROM price_history WHERE product_id = ? ORDER BY id", id)).toEqual([
      { retailer_id: first.retailerId, price_pence: 1299 },
      { retailer_id: body.retailerLinks[1]!.retailerId, price_pence: 1150 },
      { retailer_id: first.retailerId, price_pence: 1000 },
    ]);
    expect(auditRows().at(-1)?.summary).toBe(`Updated product "${body.name}": price at ${f.retailer.name} £12.99 -> £10.00, isFeatured`);
    expect(builds).toEqual([{ productIds: [id], categoryIds: [f.category.id], siteWide: false }]);
    expect(await ok("GET", `/api/products/test-kibble-adult-2kg`)).toMatchObject({ bestPrice: 10 });
    // Saving the same again changes nothing: no history point, no audit entry, no rebuild.
    const audits = auditRows().length;
    await adminOk("PUT", `/api/products/${id}`, edited);
    expect(row<{ n: number }>("SELECT count(*) AS n FROM price_history WHERE product_id = ?", id).n).toBe(3);
    expect(auditRows()).toHaveLength(audits);
    expect(builds).toHaveLength(1);
  },
  "DELETE /api/products/:id": async () => {
    const id = row<{ id: number }>("SELECT id FROM products WHERE slug = 'test-kibble-adult-2kg'").id;
    const others = rows("SELECT id FROM products WHERE id <> ? ORDER BY id", id);
    builds.length = 0;
    await adminOk("DELETE", `/api/products/${id}`, undefined, 204);
    expect(rows("SELECT id FROM products ORDER BY id")).toEqual(others);
    expect(rows("SELECT id FROM product_prices WHERE product_id = ?", id)).toEqual([]);
    expect(auditRows().at(-1)).toEqual({ action: "delete", entity: "product", entity_id: id, summary: `Deleted product "Test Kibble Adult 2kg"` });
    expect(builds).toEqual([{ productIds: [id], categoryIds: [f.category.id], siteWide: true }]);
    expect((await request("GET", "/api/products/test-kibble-adult-2kg")).status).toBe(404);
  },
  "POST /api/categories": async () => {
    builds.length = 0;
    // An icon name in any case is stored by its own name.
    const created = (await adminOk("POST", "/api/categories", categoryBody({ icon: "Bone" }), 201)) as { id: number; icon: string };
    expect(created.icon).toBe("bone");
    expect(row("SELECT name, slug, icon, description FROM categories WHERE id = ?", created.id)).toEqual(categoryBody({ icon: "bone" }));
    expect(auditRows().at(-1)).toEqual({ action: "create", entity: "category", entity_id: created.id, summary: 'Created category "Tortoise"' });
    expect(builds).toEqual([{ productIds: [], categoryIds: [], siteWide: true }]);
    expect(((await ok("GET", "/api/categories")) as { slug: string }[]).map((c) => c.slug)).toContain("tortoise");
  },
  "PUT /api/categories/:id": async () => {
    const id = row<{ id: number }>("SELECT id FROM categories WHERE slug = 'tortoise'").id;
    // Icon names in any style ("ShieldDog", "PawPrint") are stored as the tile's names ("shield-dog").
    const updated = await adminOk("PUT", `/api/categories/${id}`, categoryBody({ name: "Tortoises", icon: "ShieldDog", description: "" }));
    expect(updated).toEqual({ id, ...categoryBody({ name: "Tortoises", icon: "shield-dog", description: "" }) });
    expect(row("SELECT name, icon, description FROM categories WHERE id = ?", id)).toEqual({ name: "Tortoises", icon: "shield-dog", description: "" });
    expect(auditRows().at(-1)?.summary).toBe('Updated category "Tortoises": name, icon, description');
  },
  "DELETE /api/categories/:id": async () => {
    const id = spareCategory("spare-category");
    await adminOk("DELETE", `/api/categories/${id}`, undefined, 204);
    expect(rows("SELECT id FROM categories WHERE id = ?", id)).toEqual([]);
    expect(auditRows().at(-1)).toEqual({ action: "delete", entity: "category", entity_id: id, summary: 'Deleted category "spare-category"' });
  },
  "POST /api/retailers": async () => {
    const created = (await adminOk("POST", "/api/retailers", retailerBody({ deliveryCharge: 2.5, freeDeliveryFrom: "30" }), 201)) as { id: number; key: string };
    expect(created.key).toBe("paws-direct");
    expect(created).toMatchObject({ deliveryCharge: 2.5, freeDeliveryFrom: 30 });
    expect(row("SELECT delivery_pence, free_delivery_from_pence FROM retailers WHERE id = ?", created.id)).toEqual({ delivery_pence: 250, free_delivery_from_pence: 3000 });
    expect(auditRows().at(-1)).toEqual({ action: "create", entity: "retailer", entity_id: created.id, summary: 'Created retailer "Paws Direct"' });
    expect(row("SELECT key, name, website, description, compares_prices FROM retailers WHERE id = ?", created.id)).toEqual({
      key: "paws-direct",
      name: "Paws Direct",
      website: "https://www.pawsdirect.example",
      description: "A test shop.",
      compares_prices: 1,
    });
  },
  "PUT /api/retailers/:id": async () => {
    const id = row<{ id: number }>("SELECT id FROM retailers WHERE key = 'paws-direct'").id;
    // A new name keeps the key: affiliate rules and feeds still find the retailer.
    // Delivery left out of the body: the stored rule is kept.
    await adminOk("PUT", `/api/retailers/${id}`, retailerBody({ name: "Paws Direct UK", comparesPrices: false }));
    expect(row("SELECT key, name, compares_prices, delivery_pence, free_delivery_from_pence FROM retailers WHERE id = ?", id)).toEqual({
      key: "paws-direct",
      name: "Paws Direct UK",
      compares_prices: 0,
      delivery_pence: 250,
      free_delivery_from_pence: 3000,
    });
    // null clears a part of the rule.
    expect(await adminOk("PUT", `/api/retailers/${id}`, retailerBody({ name: "Paws Direct UK", comparesPrices: false, freeDeliveryFrom: null }))).toMatchObject({
      deliveryCharge: 2.5,
      freeDeliveryFrom: null,
    });
    // Hosts typed as a person types them are stored canonical (no scheme, no www., no repeats); feed names as given.
    const withHosts = await adminOk(
      "PUT",
      `/api/retailers/${id}`,
      retailerBody({ name: "Paws Direct UK", comparesPrices: false, hosts: ["https://www.pawsdirect-shop.co.uk/p", "PAWSDIRECT-SHOP.CO.UK", "m.paws.example"], feedNames: ["Paws Direct Ltd"] }),
    );
    expect(withHosts).toMatchObject({ hosts: ["pawsdirect-shop.co.uk", "m.paws.example"], feedNames: ["Paws Direct Ltd"] });
    expect(row("SELECT hosts, feed_names FROM retailers WHERE id = ?", id)).toEqual({ hosts: '["pawsdirect-shop.co.uk","m.paws.example"]', feed_names: '["Paws Direct Ltd"]' });
    // Left out of an update: kept.
    await adminOk("PUT", `/api/retailers/${id}`, retailerBody({ name: "Paws Direct UK", comparesPrices: false }));
    expect(row("SELECT hosts FROM retailers WHERE id = ?", id)).toEqual({ hosts: '["pawsdirect-shop.co.uk","m.paws.example"]' });
    const read = (await adminOk("GET", `/api/retailers/${id}`)) as { offerHosts: string[] };
    expect(read.offerHosts).toEqual(["m.paws.example", "pawsdirect-shop.co.uk", "pawsdirect.example"]);
  },
  "DELETE /api/retailers/:id": async () => {
    const id = row<{ id: number }>("SELECT id FROM retailers WHERE key = 'paws-direct'").id;
    await adminOk("DELETE", `/api/retailers/${id}`, undefined, 204);
    expect(rows("SELECT id FROM retailers WHERE id = ?", id)).toEqual([]);
  },
  "GET /api/admin/vouchers": async () => {
    const body = (await adminOk("GET", "/api/admin/vouchers")) as { id: number }[];
    expect(body.map((v) => v.id)).toEqual(rows<{ id: number }>("SELECT id FROM vouchers ORDER BY expiry_date, id").map((r) => r.id));
  },
  "POST /api/admin/vouchers": async () => {
    const created = (await adminOk("POST", "/api/admin/vouchers", voucherBody(), 201)) as { id: number };
    expect(row("SELECT code, description, retailer, url, discount, expiry_date AS expiryDate FROM vouchers WHERE id = ?", created.id)).toEqual(voucherBody());
    expect(auditRows().at(-1)).toEqual({ action: "create", entity: "voucher", entity_id: created.id, summary: "Created voucher WOOF10 (Pets at Home)" });
  },
  "PUT /api/admin/vouchers/:id": async () => {
    const id = row<{ id: number }>("SELECT id FROM vouchers WHERE code = 'WOOF10'").id;
    await adminOk("PUT", `/api/admin/vouchers/${id}`, voucherBody({ discount: "15%" }));
    expect(row("SELECT discount FROM vouchers WHERE id = ?", id)).toEqual({ discount: "15%" });
  },
  "DELETE /api/admin/vouchers/:id": async () => {
    const id = row<{ id: number }>("SELECT id FROM vouchers WHERE code = 'WOOF10'").id;
    await adminOk("DELETE", `/api/admin/vouchers/${id}`, undefined, 204);
    expect(rows("SELECT id FROM vouchers WHERE id = ?", id)).toEqual([]);
  },
  "GET /api/admin/affiliate-ids": async () => {
    const stored = Object.fromEntries(rows<{ key: string; value: string }>("SELECT key, value FROM affiliate_settings").map((r) => [r.key, r.value]));
    expect(await adminOk("GET", "/api/admin/affiliate-ids")).toEqual({ AMAZON: "", PETS_AT_HOME: "", JOLLYES: "", ZOOPLUS: "", EBAY: "", ...stored });
  },
  "PUT /api/admin/affiliate-ids": async () => {
    builds.length = 0;
    const stored = Object.fromEntries(rows<{ key: string; value: string }>("SELECT key, value FROM affiliate_settings").map((r) => [r.key, r.value]));
    const changed = Object.entries(affiliateBody()).filter(([key, value]) => (stored[key] ?? "") !== value).map(([key]) => key);
    expect(changed.length).toBeGreaterThan(1);
    expect(await adminOk("PUT", "/api/admin/affiliate-ids", affiliateBody({ AMAZON: " paw-21 " }))).toEqual(affiliateBody());
    expect(Object.fromEntries(rows<{ key: string; value: string }>("SELECT key, value FROM affiliate_settings").map((r) => [r.key, r.value]))).toEqual(affiliateBody());
    expect(builds).toEqual([{ productIds: [], categoryIds: [], siteWide: true }]);
    expect(auditRows().at(-1)).toEqual({ action: "update", entity: "affiliate-ids", entity_id: null, summary: `Updated affiliate IDs: ${changed.join(", ")}` });
    // The same IDs again: nothing to record, nothing to rebuild.
    const audits = auditRows().length;
    await adminOk("PUT", "/api/admin/affiliate-ids", affiliateBody());
    expect(auditRows()).toHaveLength(audits);
    expect(builds).toHaveLength(1);
  },
  "GET /api/admin/email-subscribers": async () => {
    const body = (await adminOk("GET", "/api/admin/email-subscribers")) as { id: number; email: string; isActive: boolean }[];
    expect(body.map((s) => s.id)).toEqual(rows<{ id: number }>("SELECT id FROM email_subscribers ORDER BY subscribed_at DESC, id DESC").map((r) => r.id));
    expect(body.find((s) => s.id === f.subscriberId)).toMatchObject({ email: "reader@example.com", isActive: true, source: "website" });
  },
  "DELETE /api/admin/email-subscribers/:id": async () => {
    const id = row<{ id: number }>("INSERT INTO email_subscribers (email) VALUES ('gone@example.com') RETURNING id").id;
    const others = rows("SELECT id FROM email_subscribers WHERE id <> ? ORDER BY id", id);
    await adminOk("DELETE", `/api/admin/email-subscribers/${id}`, undefined, 204);
    expect(rows("SELECT id FROM email_subscribers ORDER BY id")).toEqual(others);
    expect(auditRows().at(-1)).toEqual({ action: "delete", entity: "subscriber", entity_id: id, summary: "Removed subscriber gone@example.com" });
  },
  "GET /api/admin/analytics": async () => {
    const body = (await adminOk("GET", "/api/admin/analytics")) as {
      totals: Record<string, number>;
      distribution: { categoryId: number; products: number; percent: number }[];
      clicks: { byRetailer: { retailer: string; clicks: number }[] };
      health: { database: { ok: boolean; sizeBytes: number }; mail: { transport: string }; build: { state: string }; nextPriceRefresh: string | null; freshForHours: number };
    };
    expect(body.totals.products).toBe(row<{ n: number }>("SELECT count(*) AS n FROM products").n);
    expect(body.totals.featuredProducts).toBe(row<{ n: number }>("SELECT count(*) AS n FROM products WHERE is_featured = 1").n);
    const total = body.totals.products!;
    for (const entry of body.distribution) {
      expect(entry.products).toBe(row<{ n: number }>("SELECT count(*) AS n FROM products WHERE category_id = ?", entry.categoryId).n);
      expect(entry.percent).toBe(Math.round((entry.products * 100) / total));
    }
    expect(body.distribution.map((d) => d.products)).toEqual([...body.distribution.map((d) => d.products)].sort((a, b) => b - a));
    expect(body.health).toMatchObject({ database: { ok: true }, mail: { transport: "outbox" }, build: { state: "idle" } });
    // The size counts the write-ahead log, where recent writes wait for a checkpoint.
    const file = api.db.$client.name;
    const wal = fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0;
    expect(wal).toBeGreaterThan(0);
    expect(body.health.database.sizeBytes).toBe(fs.statSync(file).size + wal);
    // The test server schedules no page read; prices count as current for the default 24 hours.
    expect(body.health).toMatchObject({ nextPriceRefresh: null, freshForHours: 24 });
  },
  "GET /api/admin/export-products": async () => {
    const response = await request("GET", "/api/admin/export-products", undefined, undefined, { cookie: session });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="pawprice-products-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    // One row per offer, plus one for each product without offers, under the header.
    const expected = row<{ n: number }>(
      "SELECT (SELECT count(*) FROM product_prices) + (SELECT count(*) FROM products p WHERE NOT EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id)) AS n",
    ).n;
    expect(sheet.actualRowCount).toBe(expected + 1);
    expect(sheet.getRow(1).getCell(1).value).toBe("Product ID");
  },
  "POST /api/admin/rebuild": async () => {
    builds.length = 0;
    expect(await adminOk("POST", "/api/admin/rebuild", undefined, 202)).toEqual({ state: "idle", lastBuild: null });
    expect(builds).toEqual([{ productIds: [], categoryIds: [], siteWide: true }]);
    expect(auditRows().at(-1)).toMatchObject({ action: "rebuild", entity: "site" });
  },
  "GET /api/admin/build-status": async () => {
    expect(await adminOk("GET", "/api/admin/build-status")).toEqual({ state: "idle", lastBuild: null });
  },
  "POST /api/extract-price": async () => {
    const evidence = { source: "json-ld", rule: "Product json-ld[0]", snippet: "json-ld[0] offers" };
    expect(await adminOk("POST", "/api/extract-price", { url: `${shopOrigin}/page` })).toEqual({ price: 12.49, currency: "GBP", inStock: false, source: "json-ld", evidence, confidence: "high" });
    // Priced in euros: reported, never as pounds.
    expect(await adminOk("POST", "/api/extract-price", { url: `${shopOrigin}/euro` })).toEqual({ price: null, currency: "EUR", inStock: false, source: "json-ld", evidence, confidence: "high" });
    const nothing = { price: null, currency: null, inStock: null, source: null, evidence: null, confidence: null };
    expect(await adminOk("POST", "/api/extract-price", { url: `${shopOrigin}/none` })).toEqual({ ...nothing, reason: "no price found on the page" });
    // Three pack sizes and nothing on the page picks one: the candidates, no guess.
    expect(await adminOk("POST", "/api/extract-price", { url: `${shopOrigin}/sizes` })).toEqual({
      ...nothing,
      source: "json-ld",
      reason: expect.stringContaining("3 offers at 3 different prices"),
      candidates: [
        { price: 14, currency: "GBP", inStock: null, label: "json-ld[0] offers[0]" },
        { price: 27.5, currency: "GBP", inStock: null, label: "json-ld[0] offers[1]" },
        { price: 53, currency: "GBP", inStock: null, label: "json-ld[0] offers[2]" },
      ],
    });
    // Hostile pages answer 200 with no price, never a 500.
    for (const hostile of ["/nested", "/deep", "/offers"]) {
      expect(await adminOk("POST", "/api/extract-price", { url: `${shopOrigin}${hostile}` })).toMatchObject({ ...nothing, reason: expect.stringContaining("no price found") });
    }
  },
  "POST /api/admin/import-amazon-products": async () => {
    builds.length = 0;
    const products = row<{ n: number }>("SELECT count(*) AS n FROM products").n;
    // Answered at once with the queued run; the run then goes on in the background.
    const started = (await adminOk("POST", "/api/admin/import-amazon-products", {}, 202)) as { runId: number; run: FeedRun };
    expect(started.run).toMatchObject({ id: started.runId, status: "queued", trigger: "admin", sourceKey: "sample", sourceLabel: "Route test feed" });
    const result = await finishedRun(started.runId);
    expect(result).toMatchObject({
      status: "succeeded",
      rowsRead: 2,
      created: 1,
      matched: 1,
      messages: ['Skipped "Routefeed Chicken Kibble 2kg": it already exists'],
      totalMessages: 1,
      error: null,
    });
    const created = row<{ id: number; is_featured: number; gtin: string }>("SELECT id, is_featured, gtin FROM products WHERE name = 'Routefeed Chicken Kibble 2kg'");
    expect(created).toMatchObject({ is_featured: 1, gtin: "5012345000015" });
    expect(row<{ n: number }>("SELECT count(*) AS n FROM products").n).toBe(products + 1);
    // One change signal, at the end of the run.
    expect(builds).toEqual([{ productIds: [created.id], categoryIds: [expect.any(Number)], siteWide: false }]);
    // The same import again: nothing new.
    const again = await finishedRun(((await adminOk("POST", "/api/admin/import-amazon-products", {}, 202)) as { runId: number }).runId);
    expect(again).toMatchObject({ status: "succeeded", created: 0, matched: 2, totalMessages: 2 });
    expect(row<{ n: number }>("SELECT count(*) AS n FROM products").n).toBe(products + 1);
  },
  "GET /api/admin/feed-sources": async () => {
    const { sources } = (await adminOk("GET", "/api/admin/feed-sources")) as { sources: Record<string, unknown>[] };
    expect(sources.find((source) => source.id === f.urlSourceId)).toMatchObject({
      name: "Route URL feed",
      kind: "url",
      maskedUrl: "https://productdata.awin.com/••••••/csv",
      layout: "auto",
      readOnly: false,
    });
    expect(JSON.stringify(sources)).not.toContain("routes0secret0key");
    // The stored file's place inside the server is not sent either.
    expect(JSON.stringify(sources)).not.toContain("storedFile");
  },
  "POST /api/admin/feed-sources": async () => {
    const url = "https://feeds.example.com/export?key=post0secret0value0wxyz";
    const created = (await adminOk("POST", "/api/admin/feed-sources", { name: "Posted feed", kind: "url", url, layout: "awin-merchant", retailerKey: f.retailer.key, createProducts: true, schedule: "15 3 * * *" }, 201)) as Record<string, unknown>;
    expect(created).toMatchObject({ name: "Posted feed", kind: "url", maskedUrl: "https://feeds.example.com/••••••wxyz", layout: "awin-merchant", retailerKey: f.retailer.key, createProducts: true, schedule: "15 3 * * *", enabled: true, lastRun: null });
    expect(JSON.stringify(created)).not.toContain("post0secret");
    // Planned: the next run is at 03:15 UK time.
    expect(new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", hour: "2-digit", minute: "2-digit" }).format(new Date(created.nextRunAt as string))).toBe("03:15");
    expect(row("SELECT url, create_products FROM feed_sources WHERE id = ?", created.id)).toEqual({ url, create_products: 1 });
  },
  "GET /api/admin/feed-sources/:id": async () => {
    const source = (await adminOk("GET", `/api/admin/feed-sources/${f.urlSourceId}`)) as Record<string, unknown>;
    expect(source).toMatchObject({ id: f.urlSourceId, name: "Route URL feed", maskedUrl: "https://productdata.awin.com/••••••/csv" });
    expect(JSON.stringify(source)).not.toContain("secret");
  },
  "PUT /api/admin/feed-sources/:id": async () => {
    const id = row<{ id: number }>("INSERT INTO feed_sources (name, kind, url) VALUES ('Put feed', 'url', 'https://feeds.example.com/put?key=put0secret0value0abcd') RETURNING id").id;
    const changed = (await adminOk("PUT", `/api/admin/feed-sources/${id}`, { name: "Put feed renamed", schedule: "0 4 * * 1", enabled: false, layout: "mapped", mapping: { name: "title", price: "cost", link: "url" } })) as Record<string, unknown>;
    expect(changed).toMatchObject({ name: "Put feed renamed", schedule: "0 4 * * 1", enabled: false, layout: "mapped", mapping: { name: "title", price: "cost", link: "url" }, maskedUrl: "https://feeds.example.com/••••••abcd", nextRunAt: null });
    // The URL, left out, is kept as it was.
    expect(row("SELECT name, url, enabled FROM feed_sources WHERE id = ?", id)).toEqual({ name: "Put feed renamed", url: "https://feeds.example.com/put?key=put0secret0value0abcd", enabled: 0 });
    const replaced = (await adminOk("PUT", `/api/admin/feed-sources/${id}`, { url: "https://feeds.example.com/new?key=new0secret0value0efgh", schedule: null })) as Record<string, unknown>;
    expect(replaced).toMatchObject({ maskedUrl: "https://feeds.example.com/••••••efgh", schedule: null });
    expect(row("SELECT url FROM feed_sources WHERE id = ?", id)).toEqual({ url: "https://feeds.example.com/new?key=new0secret0value0efgh" });
  },
  "DELETE /api/admin/feed-sources/:id": async () => {
    const id = row<{ id: number }>("INSERT INTO feed_sources (name, kind) VALUES ('Doomed feed', 'file') RETURNING id").id;
    await ok("PUT", `/api/admin/feed-sources/${id}/file?name=doomed.csv`, feedCsv(), 200, "text/csv", { cookie: session });
    const stored = row<{ stored_file: string }>("SELECT stored_file FROM feed_sources WHERE id = ?", id).stored_file;
    expect(fs.existsSync(path.join(api.dir, "uploads", stored))).toBe(true);
    await adminOk("DELETE", `/api/admin/feed-sources/${id}`, undefined, 204);
    expect(rows("SELECT id FROM feed_sources WHERE id = ?", id)).toEqual([]);
    expect(fs.existsSync(path.join(api.dir, "uploads", stored))).toBe(false);
  },
  "PUT /api/admin/feed-sources/:id/file": async () => {
    const id = row<{ id: number }>("INSERT INTO feed_sources (name, kind) VALUES ('Uploaded feed', 'file') RETURNING id").id;
    const csv = feedCsv();
    const result = (await ok("PUT", `/api/admin/feed-sources/${id}/file?name=${encodeURIComponent("My feed (May).csv")}`, csv, 200, "text/csv", { cookie: session })) as {
      source: Record<string, unknown>;
      detected: { format: string; layout: string | null; columns: string[] };
    };
    expect(result.source).toMatchObject({ id, fileName: "My feed (May).csv", fileBytes: Buffer.byteLength(csv) });
    expect(result.detected).toMatchObject({ format: "csv", layout: "awin-publisher" });
    expect(result.detected.columns).toContain("product_name");
    const stored = row<{ stored_file: string }>("SELECT stored_file FROM feed_sources WHERE id = ?", id).stored_file;
    expect(fs.readFileSync(path.join(api.dir, "uploads", stored), "utf8")).toBe(csv);
    // A new upload replaces the old file, which is deleted.
    await ok("PUT", `/api/admin/feed-sources/${id}/file?name=again.csv`, csv, 200, "application/octet-stream", { cookie: session });
    expect(fs.existsSync(path.join(api.dir, "uploads", stored))).toBe(false);
  },
  "POST /api/admin/feed-sources/:id/detect": async () => {
    const id = row<{ id: number }>("INSERT INTO feed_sources (name, kind) VALUES ('Detected feed', 'file') RETURNING id").id;
    await ok("PUT", `/api/admin/feed-sources/${id}/file?name=feed.csv`, feedCsv(), 200, "text/csv", { cookie: session });
    const detected = (await adminOk("POST", `/api/admin/feed-sources/${id}/detect`, {})) as { layout: string; columns: string[]; sample: Record<string, string>[] };
    expect(detected.layout).toBe("awin-publisher");
    expect(detected.sample[0]).toMatchObject({ product_name: "Routefeed Salmon Kibble 2kg", search_price: "8.49" });
  },
  "POST /api/admin/feed-sources/:id/runs": async () => {
    const id = row<{ id: number }>("INSERT INTO feed_sources (name, kind, create_products) VALUES ('Run feed', 'file', 1) RETURNING id").id;
    await ok("PUT", `/api/admin/feed-sources/${id}/file?name=feed.csv`, feedCsv(), 200, "text/csv", { cookie: session });
    builds.length = 0;
    const started = (await adminOk("POST", `/api/admin/feed-sources/${id}/runs`, {}, 202)) as { runId: number; run: FeedRun };
    expect(started.run).toMatchObject({ sourceId: id, sourceKey: `source:${id}`, status: "queued", trigger: "admin" });
    const run = await finishedRun(started.runId);
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 1, created: 1, refused: {} });
    const created = row<{ id: number }>("SELECT id FROM products WHERE name = 'Routefeed Salmon Kibble 2kg'");
    expect(builds).toEqual([{ productIds: [created.id], categoryIds: [expect.any(Number)], siteWide: false }]);
    // Its offer carries the source's name.
    expect(row("SELECT source FROM product_prices WHERE product_id = ?", created.id)).toEqual({ source: "feed:Run feed" });
  },
  "GET /api/admin/feed-sources/:id/runs": async () => {
    const id = row<{ id: number }>("INSERT INTO feed_sources (name, kind) VALUES ('Listed runs feed', 'file') RETURNING id").id;
    for (const status of ["failed", "succeeded"]) {
      api.db.$client.prepare("INSERT INTO feed_import_runs (source_id, source_key, source_label, trigger, status) VALUES (?, ?, 'Listed runs feed', 'cli', ?)").run(id, `source:${id}`, status);
    }
    const { runs } = (await adminOk("GET", `/api/admin/feed-sources/${id}/runs`)) as { runs: FeedRun[] };
    expect(runs.map((run) => run.status)).toEqual(["succeeded", "failed"]);
  },
  "GET /api/admin/feed-runs/:id": async () => {
    const id = row<{ id: number }>(
      "INSERT INTO feed_import_runs (source_key, source_label, trigger, status, rows_read, refused, messages, total_messages) VALUES ('sample', 'Sample', 'schedule', 'running', 7, '{\"malformed\":2}', '[\"line 3: bad\"]', 1) RETURNING id",
    ).id;
    expect(await adminOk("GET", `/api/admin/feed-runs/${id}`)).toMatchObject({ id, status: "running", rowsRead: 7, refused: { malformed: 2 }, messages: ["line 3: bad"], totalMessages: 1, trigger: "schedule" });
  },
  "GET /api/admin/price-holds": async () => {
    const hold = holdFixture(2.6);
    const { holds, factor } = (await adminOk("GET", "/api/admin/price-holds")) as { holds: { id: number }[]; factor: unknown };
    expect(factor).toEqual({ below: 0.4, above: 2.5 });
    expect(holds.find((item) => item.id === hold.id)).toEqual({
      id: hold.id,
      product: { id: f.product.id, name: f.product.name, slug: f.product.slug },
      retailer: { id: hold.retailerId, name: expect.any(String) },
      publishedPrice: hold.published / 100,
      heldPrice: hold.held / 100,
      inStock: true,
      source: "page",
      url: expect.stringMatching(/^https?:/),
      observedAt: expect.any(String),
      newOffer: false,
      reason: null,
    });
  },
  "POST /api/admin/price-holds/:id/accept": async () => {
    const hold = holdFixture(3);
    builds.length = 0;
    expect(await adminOk("POST", `/api/admin/price-holds/${hold.id}/accept`, {})).toEqual({ id: hold.id, status: "accepted" });
    expect(row<{ price_pence: number }>("SELECT price_pence FROM product_prices WHERE product_id = ? AND retailer_id = ?", f.product.id, hold.retailerId).price_pence).toBe(hold.held);
    expect(builds).toEqual([{ productIds: [f.product.id], categoryIds: [f.product.category_id], siteWide: false }]);
    const again = await request("POST", `/api/admin/price-holds/${hold.id}/accept`, {}, undefined, { cookie: session, origin: api.baseUrl });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "This price was already reviewed" });
  },
  "POST /api/admin/price-holds/:id/reject": async () => {
    const hold = holdFixture(0.1);
    builds.length = 0;
    expect(await adminOk("POST", `/api/admin/price-holds/${hold.id}/reject`, {})).toEqual({ id: hold.id, status: "rejected" });
    expect(row<{ price_pence: number }>("SELECT price_pence FROM product_prices WHERE product_id = ? AND retailer_id = ?", f.product.id, hold.retailerId).price_pence).toBe(hold.published);
    expect(builds).toEqual([]);
  },
  "GET /api/admin/demo": async () => {
    const count = (sql: string) => row<{ n: number }>(sql).n;
    expect(await adminOk("GET", "/api/admin/demo")).toEqual({
      demo: true,
      products: count("SELECT count(*) AS n FROM products WHERE demo = 1"),
      keptProducts: count("SELECT count(*) AS n FROM products p WHERE demo = 1 AND EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id AND pp.source <> 'demo')"),
      offers: count("SELECT count(*) AS n FROM product_prices WHERE source = 'demo'"),
      vouchers: count("SELECT count(*) AS n FROM vouchers WHERE demo = 1"),
    });
  },
  "POST /api/admin/demo/clear": async () => {
    // Clearing would empty the catalogue every other route's test reads: a server of its own.
    const changes: CatalogueChange[] = [];
    const own = await startTestServer({ products: 5, site: { request: (change) => changes.push(change), status: () => ({ state: "idle", lastBuild: null }) } });
    try {
      const offers = (own.db.$client.prepare("SELECT count(*) FROM product_prices").pluck().get() as number);
      const points = (own.db.$client.prepare("SELECT count(*) FROM price_history").pluck().get() as number);
      const cookie = await own.login();
      const demo = async () => (await own.admin("GET", "/api/admin/demo", undefined, cookie)).json();
      expect(await demo()).toEqual({ demo: true, products: 5, keptProducts: 0, offers, vouchers: 8 });
      expect(await own.json("/api/products/count")).toMatchObject({ count: 5 });

      const cleared = await own.admin("POST", "/api/admin/demo/clear", {}, cookie);
      expect(cleared.status).toBe(200);
      expect(await cleared.json()).toEqual({ products: 5, keptProducts: 0, offers, historyPoints: points, vouchers: 8 });
      expect(changes).toEqual([{ productIds: [], categoryIds: [], siteWide: true }]);
      expect(await demo()).toEqual({ demo: false, products: 0, keptProducts: 0, offers: 0, vouchers: 0 });
      // The cached answer went with the change.
      expect(await own.json("/api/products/count")).toMatchObject({ count: 0 });

      const again = await own.admin("POST", "/api/admin/demo/clear", {}, cookie);
      expect(await again.json()).toEqual({ products: 0, keptProducts: 0, offers: 0, historyPoints: 0, vouchers: 0 });
      expect(changes).toHaveLength(1);
    } finally {
      await own.close();
    }
  },
  "GET /api/admin/machine-tokens": async () => {
    const tokens = (await adminOk("GET", "/api/admin/machine-tokens")) as { name: string; prefix: string; scopes: string[] }[];
    expect(tokens.map(({ name, prefix, scopes }) => ({ name, prefix, scopes }))).toEqual(
      rows<{ name: string; prefix: string; scopes: string }>("SELECT name, prefix, scopes FROM machine_tokens ORDER BY id DESC").map((t) => ({ ...t, scopes: JSON.parse(t.scopes) })),
    );
    expect(JSON.stringify(tokens)).not.toContain(f.machineToken);
  },
  "POST /api/admin/machine-tokens": async () => {
    const created = (await adminOk("POST", "/api/admin/machine-tokens", { name: "  Route made  ", scopes: ["releases:read"] }, 201)) as { id: number; token: string; name: string; prefix: string };
    expect(created).toMatchObject({ name: "Route made", prefix: created.token.slice(0, 12), scopes: ["releases:read"] });
    expect(row<{ token_hash: string }>("SELECT token_hash FROM machine_tokens WHERE id = ?", created.id).token_hash).toBe(crypto.createHash("sha256").update(created.token).digest("hex"));
    expect(auditRows().at(-1)).toEqual({ action: "create", entity: "machine-token", entity_id: created.id, summary: 'Created machine token "Route made" (releases:read)' });
  },
  "DELETE /api/admin/machine-tokens/:id": async () => {
    const { id, token } = createMachineToken(api.db, { name: "Route revoked", scopes: ["nightly:run"] }, new Date());
    const revoked = (await adminOk("DELETE", `/api/admin/machine-tokens/${id}`)) as { revokedAt: string | null };
    expect(revoked.revokedAt).toEqual(row<{ revoked_at: string }>("SELECT revoked_at FROM machine_tokens WHERE id = ?", id).revoked_at);
    expect(auditRows().at(-1)).toEqual({ action: "revoke", entity: "machine-token", entity_id: id, summary: 'Revoked machine token "Route revoked"' });
    expect((await request("GET", "/api/machine/nightly/1", undefined, undefined, { authorization: `Bearer ${token}` })).status).toBe(401);
  },
  "GET /api/admin/nightly-runs": async () => {
    const id = row<{ id: number }>("INSERT INTO nightly_runs (trigger, status, finished_at, error) VALUES ('schedule', 'failed', ?, 'feeds: 1 of 1 failed (X)') RETURNING id", new Date().toISOString()).id;
    const runs = (await adminOk("GET", "/api/admin/nightly-runs")) as { id: number; status: string; error: string | null; summary: unknown }[];
    expect(runs[0]).toMatchObject({ id, trigger: "schedule", status: "failed", error: "feeds: 1 of 1 failed (X)", summary: {} });
  },
  "POST /api/admin/privacy/lookup": async () => {
    const [carol, dave] = [privacyPerson("carol"), privacyPerson("dave")];
    const report = (await adminOk("POST", "/api/admin/privacy/lookup", { email: carol.email.toUpperCase() })) as {
      counts: Record<string, number>;
      data: Record<string, { id: number; visitorId?: string }[]>;
    };
    expect(report.counts).toMatchObject({ priceAlerts: 1, newsletter: 1, emailConsents: 1, favorites: 1, recentlyViewed: 0 });
    expect(report.data.favorites!.map((r) => [r.id, r.visitorId])).toEqual(rows<{ id: number; user_id: string }>("SELECT id, user_id FROM favorites WHERE user_id = ?", carol.userId).map((r) => [r.id, r.user_id]));
    expect(JSON.stringify(report)).not.toContain(dave.userId);
    expect(auditRows().at(-1)).toEqual({ action: "lookup", entity: "privacy-request", entity_id: null, summary: "Privacy lookup (e-mail address): 4 rows of 4 kinds" });
  },
  "POST /api/admin/privacy/export": async () => {
    const erin = privacyPerson("erin");
    const response = await request("POST", "/api/admin/privacy/export", { userId: erin.userId }, undefined, { cookie: session });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="pawprice-personal-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const file = (await response.json()) as { request: unknown; data: Record<string, { visitorId: string }[]> };
    expect(file.request).toEqual({ kind: "visitor", value: erin.userId });
    expect(file.data.priceAlerts!.map((r) => r.visitorId)).toEqual([erin.userId]);
    expect(file.data.favorites).toHaveLength(1);
    expect(auditRows().at(-1)).toEqual({ action: "export", entity: "privacy-request", entity_id: null, summary: "Privacy export (visitor id): 3 rows of 3 kinds" });
  },
  "POST /api/admin/privacy/erase": async () => {
    const [frank, grace] = [privacyPerson("frank"), privacyPerson("grace")];
    const graceRows = () => [rows("SELECT * FROM price_alerts WHERE user_id = ?", grace.userId), rows("SELECT * FROM favorites WHERE user_id = ?", grace.userId), rows("SELECT * FROM email_subscribers WHERE email = ?", grace.email)];
    const before = graceRows();
    const result = (await adminOk("POST", "/api/admin/privacy/erase", { email: frank.email })) as { counts: Record<string, number>; total: number };
    expect(result).toMatchObject({ counts: { priceAlerts: 1, newsletter: 1, emailConsents: 1, favorites: 1 }, total: 4 });
    expect(rows("SELECT id FROM price_alerts WHERE email = ? OR user_id = ?", frank.email, frank.userId)).toEqual([]);
    expect(rows("SELECT id FROM favorites WHERE user_id = ?", frank.userId)).toEqual([]);
    expect(rows("SELECT id FROM email_subscribers WHERE email = ?", frank.email)).toEqual([]);
    expect(rows("SELECT user_id FROM email_consents WHERE email = ?", frank.email)).toEqual([]);
    expect(graceRows()).toEqual(before);
    expect(auditRows().at(-1)).toEqual({ action: "erase", entity: "privacy-request", entity_id: null, summary: "Privacy erasure (e-mail address): 4 rows deleted" });
  },
  "POST /api/machine/nightly": async () => {
    // A run under way is answered, not a second one started (one at a time).
    const running = row<{ id: number }>("INSERT INTO nightly_runs (trigger, status) VALUES ('schedule', 'running') RETURNING id").id;
    const count = () => row<{ n: number }>("SELECT count(*) AS n FROM nightly_runs").n;
    const before = count();
    expect(await ok("POST", "/api/machine/nightly", undefined, 202, undefined, { authorization: `Bearer ${f.machineToken}` })).toEqual({ id: running, status: "running" });
    expect(count()).toBe(before);
    api.db.$client.prepare("UPDATE nightly_runs SET status = 'failed' WHERE id = ?").run(running);
  },
  "GET /api/machine/nightly/:id": async () => {
    const id = row<{ id: number }>("INSERT INTO nightly_runs (trigger, status, step, summary, release_id) VALUES ('token:1', 'succeeded', 'build', '{\"build\":{\"durationMs\":1}}', 'r9') RETURNING id").id;
    const run = await ok("GET", `/api/machine/nightly/${id}`, undefined, 200, undefined, { authorization: `Bearer ${f.machineToken}` });
    expect(run).toEqual({ id, status: "succeeded", step: "build", summary: { build: { durationMs: 1 } }, error: null, releaseId: "r9", queuedAt: expect.any(String), startedAt: null, finishedAt: null });
  },
  "GET /api/machine/releases/current.tar.gz": async () => {
    releaseRoot = path.join(api.dir, "route-release");
    writeFiles(releaseRoot, { "index.html": "<h1>home</h1>" });
    try {
      const response = await request("GET", "/api/machine/releases/current.tar.gz", undefined, undefined, { authorization: `Bearer ${f.releaseToken}` });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/gzip");
      expect(response.headers.get("content-disposition")).toBe('attachment; filename="pawprice-site-route-release.tar.gz"');
      const file = path.join(api.dir, "route-release.tar.gz");
      fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
      const listed: string[] = [];
      await tar.t({ file, onReadEntry: (entry) => listed.push(entry.path) });
      expect(listed).toContain("./index.html");
    } finally {
      releaseRoot = null;
    }
  },
};

/** Holds a price `factor` times the fixture product's first offer, as a page check would. */
function holdFixture(factor: number): { id: number; retailerId: number; published: number; held: number } {
  const offer = row<{ retailer_id: number; price_pence: number }>("SELECT retailer_id, price_pence FROM product_prices WHERE product_id = ? ORDER BY retailer_id LIMIT 1", f.product.id);
  const held = Math.round(offer.price_pence * factor);
  recordPriceChecks(api.db, [{ productId: f.product.id, retailerId: offer.retailer_id, pricePence: held, inStock: true, source: "page" }]);
  const hold = row<{ id: number }>("SELECT id FROM price_holds WHERE product_id = ? AND status = 'pending' ORDER BY id DESC LIMIT 1", f.product.id);
  return { id: hold.id, retailerId: offer.retailer_id, published: offer.price_pence, held };
}

/** Bad input for each route, keyed "METHOD /path" as in the route table. */
const badInput: Record<string, () => BadCase[]> = {
  "GET /api/health": () => [{ method: "DELETE", path: "/api/health", status: 405, error: "DELETE is not allowed here; use GET or HEAD" }],
  "GET /api/openapi.json": () => [
    { method: "POST", path: "/api/openapi.json", body: {}, status: 405, error: "POST is not allowed here; use GET or HEAD" },
    { path: "/api/openapi.json?format=yaml", status: 400, error: 'Unknown query parameter "format": this endpoint takes no query parameters' },
  ],
  "GET /api/products": () => [
    { path: "/api/products?sort=cheapest", status: 400, error: "sort must be one of rank_asc, price_asc, price_desc, rating_desc, savings_desc, price_per_kg_asc, cost_per_day" },
    {
      path: "/api/products?category=dog-toys&sort=price_per_kg_asc",
      status: 400,
      error: "sort price_per_kg_asc needs a category sold by weight (dog-food, cat-food, dog-treats, cat-litter, small-animal, bird-food)",
    },
    { path: "/api/products?category=dog-food&sort=cost_per_day", status: 400, error: "sort=cost_per_day needs the pet's species, weightKg, lifeStage, activity, neutered" },
    { path: "/api/products?limit=101", status: 400, error: "limit must be between 1 and 100" },
    { path: "/api/products?minPrice=50&maxPrice=10", status: 400, error: "minPrice must not be above maxPrice" },
    { method: "PATCH", path: "/api/products", body: { name: "x" }, status: 405, error: "PATCH is not allowed here; use GET or POST or HEAD" },
  ],
  "GET /api/products/count": () => [{ path: "/api/products/count?maxPrice=1.999", status: 400, error: "maxPrice must be an amount in pounds, like 12.99" }],
  "GET /api/products/featured": () => [{ path: "/api/products/featured?limit=0", status: 400, error: "limit must be between 1 and 100" }],
  "GET /api/products/by-id/:id": () => [
    { path: "/api/products/by-id/abc", status: 400, error: "id must be a whole number" },
    { path: `/api/products/by-id/${anyId}`, status: 404, error: "Product not found" },
  ],
  "GET /api/products/:slug": () => [
    { path: "/api/products/Not_A_Slug", status: 400, error: "slug must be a slug (a-z, 0-9 and hyphens)" },
    { path: "/api/products/no-such-product", status: 404, error: "Product not found" },
    { method: "PATCH", path: `/api/products/${f.product.slug}`, status: 405, error: "PATCH is not allowed here; use GET or PUT or DELETE or HEAD" },
  ],
  "GET /api/products/:slug/alternatives": () => [
    { path: "/api/products/Not_A_Slug/alternatives", status: 400, error: "slug must be a slug (a-z, 0-9 and hyphens)" },
    { path: "/api/products/no-such-product/alternatives", status: 404, error: "Product not found" },
    { path: `/api/products/${f.product.slug}/alternatives?species=dog`, status: 400, error: "species needs the pet's weightKg, lifeStage, activity, neutered" },
    { path: `/api/products/${f.product.slug}/alternatives?sort=price`, status: 400, error: 'Unknown query parameter "sort": this endpoint takes species, weightKg, lifeStage, activity, neutered' },
  ],
  "POST /api/basket/quote": () => [
    { method: "POST", path: "/api/basket/quote", body: {}, status: 400, error: "lines is required" },
    { method: "POST", path: "/api/basket/quote", body: { lines: [] }, status: 400, error: "lines must not be empty" },
    { method: "POST", path: "/api/basket/quote", body: { lines: "all" }, status: 400, error: "lines must be a list of products" },
    {
      method: "POST",
      path: "/api/basket/quote",
      body: { lines: Array.from({ length: 21 }, (_, index) => ({ productId: index + 1, quantity: 1 })) },
      status: 400,
      error: "lines: at most 20 different products",
    },
    { method: "POST", path: "/api/basket/quote", body: { lines: [{ productId: f.product.id, quantity: 0 }] }, status: 400, error: "lines.0.quantity: quantity must be a whole number from 1 to 99" },
    { method: "POST", path: "/api/basket/quote", body: { lines: [{ productId: f.product.id, quantity: 100 }] }, status: 400, error: "lines.0.quantity: quantity must be a whole number from 1 to 99" },
    { method: "POST", path: "/api/basket/quote", body: { lines: [{ productId: f.product.id, quantity: 1.5 }] }, status: 400, error: "lines.0.quantity: quantity must be a whole number from 1 to 99" },
    { method: "POST", path: "/api/basket/quote", body: { lines: [{ productId: f.product.id }] }, status: 400, error: "lines.0.quantity: quantity must be a whole number from 1 to 99" },
    { method: "POST", path: "/api/basket/quote", body: { lines: [{ productId: "12", quantity: 1 }] }, status: 400, error: "lines.0.productId: productId must be a product id" },
    { method: "POST", path: "/api/basket/quote", body: { lines: [{ productId: f.product.id, quantity: 1, repeat: "yes" }] }, status: 400, error: "lines.0.repeat: repeat must be true or false" },
    {
      method: "POST",
      path: "/api/basket/quote",
      body: { lines: [{ productId: f.product.id, quantity: 1 }, { productId: f.product.id, quantity: 2 }] },
      status: 400,
      error: "lines: each product at most once (give it a quantity instead)",
    },
    { method: "POST", path: "/api/basket/quote", body: "not json", contentType: "text/plain", status: 415, error: /JSON/ },
    crossSite("POST", "/api/basket/quote", { lines: [{ productId: f.product.id, quantity: 1 }] }, evilOrigin),
    { method: "GET", path: "/api/basket/quote", status: 405, error: "GET is not allowed here; use POST" },
  ],
  "GET /api/search": () => [
    { path: `/api/search?q=${"a".repeat(201)}`, status: 400, error: "q must be at most 200 characters" },
    { path: "/api/search?q=a&q=b", status: 400, error: "q must be given once" },
  ],
  "GET /api/compare": () => [
    { path: "/api/compare", status: 400, error: "ids is required" },
    { path: "/api/compare?ids=1,2,3,4,5", status: 400, error: "ids: at most 4 products can be compared" },
    { path: "/api/compare?ids=3,3", status: 400, error: "ids must not repeat (3 is given twice)" },
    { path: "/api/compare?ids=0", status: 400, error: "ids must be positive whole numbers (0 is not)" },
    { path: "/api/compare?ids=abc", status: 400, error: "ids must be 1 to 4 product ids separated by commas, like 12,34" },
    { path: "/api/compare?ids=1&ids=2", status: 400, error: "ids must be given once" },
  ],
  "GET /api/categories": () => [{ method: "PATCH", path: "/api/categories", body: { name: "New" }, status: 405, error: "PATCH is not allowed here; use GET or POST or HEAD" }],
  "GET /api/categories/slug/:slug": () => [
    { path: "/api/categories/slug/Dog%20Food", status: 400, error: "slug must be a slug (a-z, 0-9 and hyphens)" },
    { path: "/api/categories/slug/no-such-category", status: 404, error: "Category not found" },
  ],
  "GET /api/categories/:id": () => [
    { path: "/api/categories/0", status: 400, error: `id must be between 1 and ${Number.MAX_SAFE_INTEGER}` },
    { path: `/api/categories/${anyId}`, status: 404, error: "Category not found" },
  ],
  "GET /api/retailers": () => [{ method: "PUT", path: "/api/retailers", body: [], status: 405, error: "PUT is not allowed here; use GET or POST or HEAD" }],
  "GET /api/retailers/:id": () => [
    { path: "/api/retailers/1.5", status: 400, error: "id must be a whole number" },
    { path: `/api/retailers/${anyId}`, status: 404, error: "Retailer not found" },
  ],
  "GET /api/brands": () => [
    { method: "DELETE", path: "/api/brands", status: 405, error: "DELETE is not allowed here; use GET or HEAD" },
    { path: "/api/brands?category=dog-food", status: 400, error: 'Unknown query parameter "category": this endpoint takes no query parameters' },
  ],
  "GET /api/brands/counts": () => [
    { method: "DELETE", path: "/api/brands/counts", status: 405, error: "DELETE is not allowed here; use GET or HEAD" },
    { path: "/api/brands/counts?category=no-such-category", status: 404, error: "Category not found" },
    { path: "/api/brands/counts?brand=Whiskas", status: 400, error: 'Unknown query parameter "brand": this endpoint takes q, category, retailer, minPrice, maxPrice' },
  ],
  "GET /api/vouchers": () => [
    { path: "/api/vouchers?status=expired", status: 400, error: "status must be all or active" },
    { path: "/api/vouchers?sort=newest", status: 400, error: "sort must be expiry or popular" },
  ],
  "POST /api/vouchers/:id/uses": () => [
    { method: "POST", path: "/api/vouchers/abc/uses", body: { userId: alice }, status: 400, error: "id must be a whole number" },
    { method: "POST", path: `/api/vouchers/${anyId}/uses`, body: { userId: alice }, status: 404, error: "Voucher not found" },
    { method: "POST", path: `/api/vouchers/${f.voucherId}/uses`, body: {}, status: 400, error: "userId is required" },
    { method: "POST", path: `/api/vouchers/${f.voucherId}/uses`, body: { userId: "user_aaaaaaaa" }, status: 400, error: "userId must be an anonymous visitor id (user_ followed by 24 lower-case letters or digits)" },
    { method: "GET", path: `/api/vouchers/${f.voucherId}/uses`, status: 405, error: "GET is not allowed here; use POST" },
  ],
  "GET /api/affiliate-links": () => [
    { path: "/api/affiliate-links", status: 400, error: "productId is required" },
    { path: "/api/affiliate-links?productId=-1", status: 400, error: "productId must be a whole number" },
    { path: `/api/affiliate-links?productId=${anyId}`, status: 404, error: "Product not found" },
  ],
  "GET /api/placeholder/:width/:height": () => [
    { path: "/api/placeholder/wide/100", status: 400, error: "width must be a whole number of pixels" },
    { path: `/api/placeholder/100/100?text=${"t".repeat(61)}`, status: 400, error: "text must be at most 60 characters" },
  ],
  "GET /api/packshot/:file": () => [
    { path: `/api/packshot/${f.product.slug}.png`, status: 400, error: "A packshot is asked for as {slug}.svg" },
    { path: "/api/packshot/Not_A_Slug.svg", status: 400, error: "slug must be a slug (a-z, 0-9 and hyphens)" },
    { path: `/api/packshot/${f.product.slug}.svg?v=2`, status: 400, error: "This endpoint takes no query parameters" },
    { path: "/api/packshot/no-such-product.svg", status: 404, error: "Product not found" },
  ],
  "POST /api/subscribers": () => [
    { method: "POST", path: "/api/subscribers", body: { email: "not-an-email" }, status: 400, error: "email: Please enter a valid email address" },
    { method: "POST", path: "/api/subscribers", body: {}, status: 400, error: "email is required" },
    { method: "POST", path: "/api/subscribers", body: "email=a@b.co", contentType: form, status: 415, error: "Send a JSON body (Content-Type: application/json)" },
    { method: "POST", path: "/api/subscribers", body: "{", status: 400, error: "Request body is not valid JSON" },
    { method: "POST", path: "/api/subscribers", body: '{"email":"a@b.co"}', contentType: "", status: 415, error: "Send a JSON body (Content-Type: application/json)" },
  ],
  "POST /api/clicks": () => [
    { method: "POST", path: "/api/clicks", body: { userId: alice, events: [] }, status: 400, error: "events must not be empty" },
    {
      method: "POST",
      path: "/api/clicks",
      body: { userId: alice, events: [{ retailer: "Amazon", productName: "x", productId: anyId, price: 1, timestamp: new Date().toISOString() }] },
      status: 400,
      error: "productId: unknown product",
    },
    { method: "POST", path: "/api/clicks", body: { events: [] }, status: 400, error: "userId is required" },
    {
      method: "POST",
      path: "/api/clicks",
      body: { userId: alice, events: [{ retailer: "Amazon", productName: "x", price: -1, timestamp: new Date().toISOString() }] },
      status: 400,
      error: "events.0.price: Too small: expected number to be >=0",
    },
  ],
  "GET /api/recently-viewed": () => [
    { path: "/api/recently-viewed", status: 400, error: "userId is required" },
    { path: "/api/recently-viewed?userId=admin", status: 400, error: /^userId must be an anonymous visitor id/ },
  ],
  "POST /api/recently-viewed": () => [
    { method: "POST", path: "/api/recently-viewed", body: { userId: alice, productId: 0 }, status: 400, error: "productId must be a product id" },
    { method: "POST", path: "/api/recently-viewed", body: { userId: alice, productId: anyId }, status: 400, error: "productId: unknown product" },
  ],
  "GET /api/favorites": () => [{ path: "/api/favorites?userId=", status: 400, error: /^userId must be an anonymous visitor id/ }],
  "POST /api/favorites": () => [
    { method: "POST", path: "/api/favorites", body: { userId: alice, productId: "1" }, status: 400, error: "productId must be a product id" },
    { method: "POST", path: "/api/favorites", body: { userId: alice, productId: f.product.id, notes: "n".repeat(501) }, status: 400, error: "notes must be at most 500 characters" },
  ],
  "DELETE /api/favorites/:id": () => [
    { method: "DELETE", path: `/api/favorites/${f.favoriteId}`, status: 400, error: "userId is required" },
    { method: "DELETE", path: `/api/favorites/${f.favoriteId}?userId=${bob}`, status: 404, error: "Favorite not found" },
  ],
  "PATCH /api/favorites/:id": () => [
    { method: "PATCH", path: `/api/favorites/${f.favoriteId}?userId=${alice}`, body: { notes: 5 }, status: 400, error: "notes must be text" },
    { method: "PATCH", path: `/api/favorites/${f.favoriteId}?userId=${bob}`, body: { notes: "mine" }, status: 404, error: "Favorite not found" },
  ],
  "GET /api/is-favorite": () => [
    { path: `/api/is-favorite?userId=${alice}`, status: 400, error: "productId is required" },
    { path: `/api/is-favorite?productId=${f.product.id}`, status: 400, error: "userId is required" },
  ],
  "GET /api/visitor-counts": () => [
    { path: "/api/visitor-counts", status: 400, error: "userId is required" },
    { path: "/api/visitor-counts?userId=user_short", status: 400, error: "userId must be an anonymous visitor id (user_ followed by 24 lower-case letters or digits)" },
  ],
  "GET /api/price-alerts": () => [{ path: "/api/price-alerts", status: 400, error: "userId is required" }],
  "POST /api/price-alerts": () => [
    {
      method: "POST",
      path: "/api/price-alerts",
      body: { userId: alice, productId: f.product.id, email: "owner@example.com", targetPrice: 9.999 },
      status: 400,
      error: "targetPrice: Please enter a valid price",
    },
    { method: "POST", path: "/api/price-alerts", body: { userId: alice, productId: f.product.id, email: "x", targetPrice: 5 }, status: 400, error: "email: Please enter a valid email address" },
  ],
  "DELETE /api/price-alerts/:id": () => [
    { method: "DELETE", path: `/api/price-alerts/${f.alertId}`, status: 400, error: "userId is required" },
    { method: "DELETE", path: `/api/price-alerts/${f.alertId}?userId=${bob}`, status: 404, error: "Price alert not found" },
  ],
  "GET /api/alerts/unsubscribe": () => [
    { path: "/api/alerts/unsubscribe", status: 400, error: "Invalid unsubscribe link" },
    { path: `/api/alerts/unsubscribe?token=${signToken("newsletter-unsubscribe", f.alertId)}`, status: 400, error: "Invalid unsubscribe link" },
    { path: `/api/alerts/unsubscribe?token=${signToken("alert-unsubscribe", anyId)}`, status: 404, error: "This price alert no longer exists" },
  ],
  "POST /api/alerts/unsubscribe": () => [
    { method: "POST", path: "/api/alerts/unsubscribe?token=x", body: oneClick, contentType: form, status: 400, error: "Invalid unsubscribe link" },
    {
      method: "POST",
      path: `/api/alerts/unsubscribe?token=${signToken("newsletter-unsubscribe", f.alertId)}`,
      body: oneClick,
      contentType: form,
      status: 400,
      error: "Invalid unsubscribe link",
    },
  ],
  "GET /api/subscribers/unsubscribe": () => [
    { path: `/api/subscribers/unsubscribe?token=${signToken("alert-unsubscribe", f.subscriberId)}`, status: 400, error: "Invalid unsubscribe link" },
    { path: `/api/subscribers/unsubscribe?token=${signToken("newsletter-unsubscribe", anyId)}`, status: 404, error: "This newsletter subscription no longer exists" },
  ],
  "POST /api/subscribers/unsubscribe": () => [
    {
      method: "POST",
      path: `/api/subscribers/unsubscribe?token=${signToken("alert-unsubscribe", f.subscriberId)}`,
      body: oneClick,
      contentType: form,
      status: 400,
      error: "Invalid unsubscribe link",
    },
    {
      method: "POST",
      path: `/api/subscribers/unsubscribe?token=${signToken("newsletter-unsubscribe", anyId)}`,
      body: oneClick,
      contentType: form,
      status: 404,
      error: "This newsletter subscription no longer exists",
    },
  ],
  "DELETE /api/visitor-data": () => [
    { method: "DELETE", path: "/api/visitor-data", status: 400, error: "userId is required" },
    { method: "DELETE", path: `/api/visitor-data?userId=${alice}0`, status: 400, error: /^userId must be an anonymous visitor id/ },
    { method: "DELETE", path: `/api/visitor-data?userId=${alice}`, headers: evilOrigin, status: 403, error: "Requests from other sites are refused" },
  ],
  "GET /api/email/confirm": () => [
    { path: "/api/email/confirm", status: 400, error: "Invalid confirmation link" },
    { path: "/api/email/confirm?token=not-a-token", status: 400, error: "Invalid confirmation link" },
    { path: `/api/email/confirm?token=${"A".repeat(43)}`, status: 404, error: "Confirmation link not found" },
  ],
  ...adminBadInput,
};

/** A good request to each route and what its answer and its effect must be, checked against the database. */
const goodInput: Record<string, () => Promise<void>> = {
  "GET /api/health": async () => {
    const body = await ok("GET", "/api/health");
    expect(body).toMatchObject({ status: "ok", database: "ok", products: 40 });
  },
  "GET /api/openapi.json": async () => {
    // The document of this very table, served as a public read; api/test/openapi.test.ts checks its contents.
    const response = await request("GET", "/api/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=60");
    const body = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(body.openapi).toMatch(/^3\.1\.\d+$/);
    expect(Object.values(body.paths).reduce((n, operations) => n + Object.keys(operations).length, 0)).toBe(routes.length);
  },
  "GET /api/products": async () => {
    const body = (await ok("GET", "/api/products?sort=price_asc&limit=5")) as { id: number }[];
    const expected = rows<{ id: number }>("SELECT id FROM products ORDER BY coalesce(best_price_pence, 9e15), rank, id LIMIT 5");
    expect(body.map((p) => p.id)).toEqual(expected.map((r) => r.id));
  },
  "GET /api/products/count": async () => {
    const body = await ok("GET", `/api/products/count?category=${f.category.slug}`);
    expect(body).toEqual({ count: row<{ n: number }>("SELECT count(*) AS n FROM products WHERE category_id = ?", f.category.id).n });
  },
  "GET /api/products/featured": async () => {
    const body = (await ok("GET", "/api/products/featured?limit=3")) as { id: number }[];
    expect(body.map((p) => p.id)).toEqual(rows<{ id: number }>("SELECT id FROM products WHERE is_featured = 1 ORDER BY rank, id LIMIT 3").map((r) => r.id));
  },
  "GET /api/products/by-id/:id": async () => {
    expect(await ok("GET", `/api/products/by-id/${f.product.id}`)).toMatchObject({ id: f.product.id, slug: f.product.slug, name: f.product.name });
  },
  "GET /api/products/:slug": async () => {
    expect(await ok("GET", `/api/products/${f.product.slug}`)).toMatchObject({ id: f.product.id, name: f.product.name, category: { slug: f.category.slug } });
  },
  "GET /api/products/:slug/alternatives": async () => {
    const food = row<{ slug: string; species: string }>(
      "SELECT p.slug, substr(c.slug, 1, 3) AS species FROM products p JOIN categories c ON c.id = p.category_id WHERE c.slug IN ('dog-food', 'cat-food') ORDER BY p.id LIMIT 1",
    );
    const answer = (await ok("GET", `/api/products/${food.slug}/alternatives`)) as { food: { slug: string; species: string }; alternatives: { cost: number }[] };
    expect(answer.food).toMatchObject({ slug: food.slug, species: food.species });
    // Cheapest first.
    const costs = answer.alternatives.map((alternative) => alternative.cost);
    expect(costs).toEqual(costs.toSorted((a, b) => a - b));
  },
  "GET /api/search": async () => {
    const word = f.product.name.split(" ")[0]!.toLowerCase().replace(/[^a-z]/g, "");
    const body = (await ok("GET", `/api/search?q=${word}`)) as { products: { id: number }[]; total: number };
    expect(body.total).toBe(row<{ n: number }>("SELECT count(*) AS n FROM product_search WHERE product_search MATCH ?", `"${word}"*`).n);
    expect(body.products.map((p) => p.id)).toContain(f.product.id);
  },
  "GET /api/compare": async () => {
    const other = row<{ id: number }>("SELECT id FROM products WHERE id <> ? ORDER BY id DESC LIMIT 1", f.product.id);
    // In the order asked; an unknown id is left out.
    const body = (await ok("GET", `/api/compare?ids=${other.id},${anyId},${f.product.id}`)) as { products: { id: number; slug: string; category: { slug: string } }[] };
    expect(body.products.map((p) => p.id)).toEqual([other.id, f.product.id]);
    expect(body.products[1]).toMatchObject({ slug: f.product.slug, category: { slug: f.category.slug } });
  },
  "GET /api/categories": async () => {
    expect(await ok("GET", "/api/categories")).toEqual(rows("SELECT id, name, slug, icon, description FROM categories ORDER BY name COLLATE NOCASE, id"));
  },
  "GET /api/categories/slug/:slug": async () => {
    expect(await ok("GET", `/api/categories/slug/${f.category.slug}`)).toEqual(f.category);
  },
  "GET /api/categories/:id": async () => {
    expect(await ok("GET", `/api/categories/${f.category.id}`)).toEqual(f.category);
  },
  "GET /api/retailers": async () => {
    const expected = rows<{ key: string; website: string; compares_prices: number; delivery_pence: number | null; free_delivery_from_pence: number | null }>(
      "SELECT id, key, name, logo, website, description, compares_prices, delivery_pence, free_delivery_from_pence FROM retailers ORDER BY name COLLATE NOCASE, id",
    ).map(({ compares_prices, delivery_pence, free_delivery_from_pence, ...retailer }) => ({
      ...retailer,
      comparesPrices: compares_prices === 1,
      deliveryCharge: delivery_pence === null ? null : delivery_pence / 100,
      freeDeliveryFrom: free_delivery_from_pence === null ? null : free_delivery_from_pence / 100,
      hosts: [],
      offerHosts: retailerHosts({ key: retailer.key, website: retailer.website, hosts: [] }),
      feedNames: [],
    }));
    // Offer hosts: the registry's and the website's (zooplus also sells from zooplus.de).
    expect(expected.find((retailer) => retailer.key === "zooplus")?.offerHosts).toEqual(["zooplus.co.uk", "zooplus.de"]);
    expect(expected.some((retailer) => !retailer.comparesPrices)).toBe(true);
    // The seed gives the compared retailers realistic rules; eBay's sellers state their own postage.
    expect(expected.find((retailer) => retailer.key === "pets-at-home")).toMatchObject({ deliveryCharge: 3.99, freeDeliveryFrom: 39 });
    expect(expected.find((retailer) => retailer.key === "ebay")).toMatchObject({ deliveryCharge: null, freeDeliveryFrom: null });
    expect(await ok("GET", "/api/retailers")).toEqual(expected);
  },
  "GET /api/retailers/:id": async () => {
    expect(await ok("GET", `/api/retailers/${f.retailer.id}`)).toEqual(f.retailer);
  },
  "GET /api/brands": async () => {
    const expected = rows<{ brand: string }>("SELECT brand FROM products WHERE brand IS NOT NULL AND brand <> '' GROUP BY brand ORDER BY brand COLLATE NOCASE");
    expect(await ok("GET", "/api/brands")).toEqual(expected.map((row) => row.brand));
  },
  "GET /api/brands/counts": async () => {
    const expected = rows("SELECT brand, count(*) AS count FROM products WHERE brand IS NOT NULL AND brand <> '' GROUP BY brand ORDER BY brand COLLATE NOCASE");
    expect(await ok("GET", "/api/brands/counts")).toEqual(expected);
    const inCategory = rows("SELECT brand, count(*) AS count FROM products WHERE category_id = ? AND brand IS NOT NULL AND brand <> '' GROUP BY brand ORDER BY brand COLLATE NOCASE", f.category.id);
    expect(await ok("GET", `/api/brands/counts?category=${f.category.slug}`)).toEqual(inCategory);
  },
  "GET /api/vouchers": async () => {
    const response = await request("GET", "/api/vouchers?sort=popular&limit=3");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-total-count")).toBe(String(row<{ n: number }>("SELECT count(*) AS n FROM vouchers").n));
    const expected = rows<{ id: number }>("SELECT id FROM vouchers ORDER BY uses DESC, expiry_date, id LIMIT 3");
    expect(((await response.json()) as { id: number }[]).map((v) => v.id)).toEqual(expected.map((r) => r.id));
  },
  "POST /api/vouchers/:id/uses": async () => {
    const uses = () => rows<{ id: number; uses: number }>("SELECT id, uses FROM vouchers ORDER BY id");
    const before = uses();
    await ok("POST", `/api/vouchers/${f.voucherId}/uses`, { userId: alice }, 204);
    expect(uses()).toEqual(before.map((v) => (v.id === f.voucherId ? { ...v, uses: v.uses + 1 } : v)));
  },
  "GET /api/affiliate-links": async () => {
    const body = (await ok("GET", `/api/affiliate-links?productId=${f.product.id}`)) as { retailerId: number; url: string }[];
    const expected = rows<{ retailer_id: number; url: string }>("SELECT retailer_id, url FROM product_prices WHERE product_id = ? ORDER BY retailer_id", f.product.id);
    expect(body.map((l) => [l.retailerId, l.url])).toEqual(expected.map((r) => [r.retailer_id, r.url]));
  },
  "GET /api/placeholder/:width/:height": async () => {
    const response = await request("GET", "/api/placeholder/320/240?text=Kong");
    expect(response.status).toBe(200);
    const svg = await response.text();
    expect(svg).toContain('width="320" height="240"');
    expect(svg).toContain(">Kong<");
  },
  "GET /api/packshot/:file": async () => {
    const response = await request("GET", `/api/packshot/${f.product.slug}.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(await response.text()).toContain(`aria-label="Illustration of ${f.product.name.replace(/&/g, "&amp;").replace(/'/g, "&apos;")}"`);
  },
  "POST /api/subscribers": async () => {
    expect(await ok("POST", "/api/subscribers", { email: "New.Reader@Example.com", source: "footer" }, 201)).toEqual({
      subscribed: false,
      status: "pending_confirmation",
      confirmationSent: true,
    });
    expect(rows("SELECT email, source, is_active, confirmed_at FROM email_subscribers WHERE email LIKE 'new.reader%'")).toEqual([
      { email: "new.reader@example.com", source: "footer", is_active: 1, confirmed_at: null },
    ]);
    expect(rows("SELECT email, purpose, user_id FROM email_confirmations WHERE email = 'new.reader@example.com'")).toEqual([
      { email: "new.reader@example.com", purpose: "newsletter", user_id: null },
    ]);
  },
  "POST /api/basket/quote": async () => {
    const before = databaseDigest();
    const answer = (await ok("POST", "/api/basket/quote", { lines: [{ productId: f.product.id, quantity: 2 }] })) as BasketQuoteResponse;
    expect(answer.products).toEqual([{ id: f.product.id, name: f.product.name, slug: f.product.slug, image: expect.any(String), quantity: 2, repeat: false }]);
    expect(answer.removed).toEqual([]);
    expect(answer.unavailable).toEqual([]);
    // One product: the cheapest split is one shop, and the cheapest single shop is that shop.
    expect(answer.cheapest!.orders).toHaveLength(1);
    expect(answer.singleShop).toEqual(answer.cheapest);
    expect(answer.saving).toBe(0);
    const [order] = answer.cheapest!.orders;
    expect(order!.lines).toEqual([expect.objectContaining({ productId: f.product.id, quantity: 2, linePrice: Math.round(order!.lines[0]!.unitPrice * 200) / 100 })]);
    expect(answer.cheapest!.total).toBe(Math.round((order!.items + (order!.delivery ?? 0)) * 100) / 100);
    expect(databaseDigest()).toBe(before);
  },
  "POST /api/clicks": async () => {
    const timestamp = "2026-11-22T10:00:00.000Z";
    const before = new Date().toISOString();
    await ok("POST", "/api/clicks", { userId: alice, events: [{ retailer: f.retailer.name, productName: f.product.name, productId: f.product.id, price: 9.99, timestamp }] }, 204);
    const stored = rows<{ timestamp: string; metadata: string }>("SELECT user_id, product_id, retailer_id, category_id, timestamp, metadata FROM user_behaviour WHERE action = 'affiliate_click'");
    expect(stored).toEqual([
      { user_id: alice, product_id: f.product.id, retailer_id: f.retailer.id, category_id: f.category.id, timestamp: expect.any(String), metadata: expect.any(String) },
    ]);
    // The row's time is the server's (the cap and retention count it); the browser's time is kept in the metadata.
    expect(stored[0]!.timestamp >= before && stored[0]!.timestamp <= new Date().toISOString()).toBe(true);
    expect(JSON.parse(stored[0]!.metadata)).toMatchObject({ clickedAt: timestamp });
  },
  "GET /api/recently-viewed": async () => {
    const body = (await ok("GET", `/api/recently-viewed?userId=${alice}`)) as { id: number }[];
    expect(body.map((item) => item.id)).toEqual(rows<{ product_id: number }>("SELECT product_id FROM recently_viewed WHERE user_id = ? ORDER BY id DESC", alice).map((r) => r.product_id));
  },
  "POST /api/recently-viewed": async () => {
    const other = row<{ id: number }>("SELECT id FROM products WHERE id <> ? ORDER BY id LIMIT 1", f.product.id).id;
    await ok("POST", "/api/recently-viewed", { userId: bob, productId: other }, 204);
    expect(rows<{ product_id: number }>("SELECT product_id FROM recently_viewed WHERE user_id = ? ORDER BY id DESC", bob).map((r) => r.product_id)).toEqual([other, f.product.id]);
    expect(rows("SELECT product_id FROM recently_viewed WHERE user_id = ?", alice)).toHaveLength(1);
  },
  "GET /api/favorites": async () => {
    const body = (await ok("GET", `/api/favorites?userId=${alice}`)) as { id: number; userId: string }[];
    expect(body.map((fav) => [fav.id, fav.userId])).toEqual(rows<{ id: number; user_id: string }>("SELECT id, user_id FROM favorites WHERE user_id = ? ORDER BY id DESC", alice).map((r) => [r.id, r.user_id]));
  },
  "POST /api/favorites": async () => {
    const other = row<{ id: number }>("SELECT id FROM products WHERE id <> ? ORDER BY id DESC LIMIT 1", f.product.id).id;
    const body = (await ok("POST", "/api/favorites", { userId: bob, productId: other, notes: " for Rex " }, 201)) as { id: number };
    expect(row("SELECT user_id, product_id, notes FROM favorites WHERE id = ?", body.id)).toEqual({ user_id: bob, product_id: other, notes: "for Rex" });
  },
  "DELETE /api/favorites/:id": async () => {
    const id = row<{ id: number }>("INSERT INTO favorites (user_id, product_id) VALUES (?, (SELECT max(id) FROM products)) RETURNING id", alice).id;
    const others = rows("SELECT id FROM favorites WHERE id <> ?", id);
    await ok("DELETE", `/api/favorites/${id}?userId=${alice}`, undefined, 204);
    expect(rows("SELECT id FROM favorites")).toEqual(others);
  },
  "PATCH /api/favorites/:id": async () => {
    expect(await ok("PATCH", `/api/favorites/${f.favoriteId}?userId=${alice}`, { notes: "Biscuit's favourite" })).toMatchObject({ id: f.favoriteId, notes: "Biscuit's favourite" });
    expect(rows("SELECT notes FROM favorites WHERE product_id = ? ORDER BY id", f.product.id)).toEqual([{ notes: "Biscuit's favourite" }, { notes: "a note" }]);
  },
  "GET /api/is-favorite": async () => {
    expect(await ok("GET", `/api/is-favorite?userId=${alice}&productId=${f.product.id}`)).toEqual({ isFavorite: true, favoriteId: f.favoriteId });
  },
  "GET /api/visitor-counts": async () => {
    // Each visitor's own counts: favourites, and alerts still active.
    for (const userId of [alice, bob]) {
      expect(await ok("GET", `/api/visitor-counts?userId=${userId}`)).toEqual({
        favorites: row<{ n: number }>("SELECT count(*) AS n FROM favorites WHERE user_id = ?", userId).n,
        alerts: row<{ n: number }>("SELECT count(*) AS n FROM price_alerts WHERE user_id = ? AND is_active = 1", userId).n,
      });
    }
    expect(await ok("GET", "/api/visitor-counts?userId=user_nobodyaaaaaaaaaaaaaaaaaa")).toEqual({ favorites: 0, alerts: 0 });
  },
  "GET /api/price-alerts": async () => {
    const body = (await ok("GET", `/api/price-alerts?userId=${alice}`)) as { id: number; userId: string }[];
    expect(body.map((a) => [a.id, a.userId])).toEqual(rows<{ id: number; user_id: string }>("SELECT id, user_id FROM price_alerts WHERE user_id = ? AND is_active = 1 ORDER BY id DESC", alice).map((r) => [r.id, r.user_id]));
  },
  "POST /api/price-alerts": async () => {
    const other = row<{ id: number }>("SELECT id FROM products WHERE id <> ? ORDER BY id DESC LIMIT 1", f.product.id).id;
    const body = (await ok("POST", "/api/price-alerts", { userId: bob, productId: other, email: "Bob@Example.com", targetPrice: 12.5 }, 201)) as {
      id: number;
      state: string;
      confirmationSent: boolean;
    };
    expect(body).toMatchObject({ state: "pending_confirmation", confirmationSent: true });
    expect(row("SELECT user_id, product_id, email, target_price_pence, is_active, confirmed_at FROM price_alerts WHERE id = ?", body.id)).toEqual({
      user_id: bob,
      product_id: other,
      email: "bob@example.com",
      target_price_pence: 1250,
      is_active: 1,
      confirmed_at: null,
    });
    expect(rows("SELECT email, purpose, user_id FROM email_confirmations WHERE email = 'bob@example.com'")).toEqual([
      { email: "bob@example.com", purpose: "price-alerts", user_id: bob },
    ]);
  },
  "DELETE /api/price-alerts/:id": async () => {
    const id = row<{ id: number }>("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence) VALUES (?, ?, 'a@example.com', 100) RETURNING id", alice, f.product.id).id;
    const others = rows("SELECT id FROM price_alerts WHERE id <> ?", id);
    await ok("DELETE", `/api/price-alerts/${id}?userId=${alice}`, undefined, 204);
    expect(rows("SELECT id FROM price_alerts")).toEqual(others);
  },
  "GET /api/alerts/unsubscribe": async () => {
    const id = row<{ id: number }>("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence) VALUES (?, ?, 'a@example.com', 100) RETURNING id", alice, f.product.id).id;
    // Opening the link shows the button and changes nothing; the button posts to the same address.
    const before = databaseDigest();
    const response = await request("GET", `/api/alerts/unsubscribe?token=${signToken("alert-unsubscribe", id)}`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain("Switch off this price alert?");
    expect(page).toContain(`<form method="post" action="/api/alerts/unsubscribe?token=${signToken("alert-unsubscribe", id)}"`);
    expect(databaseDigest()).toBe(before);
    expect(rows("SELECT id FROM price_alerts WHERE is_active = 0")).toEqual([]);
  },
  "POST /api/alerts/unsubscribe": async () => {
    const id = row<{ id: number }>("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence) VALUES (?, ?, 'a@example.com', 100) RETURNING id", bob, f.product.id).id;
    expect(await ok("POST", `/api/alerts/unsubscribe?token=${signToken("alert-unsubscribe", id)}`, oneClick, 200, form)).toEqual({ unsubscribed: true, alreadyUnsubscribed: false });
    expect(row("SELECT is_active FROM price_alerts WHERE id = ?", id)).toEqual({ is_active: 0 });
    expect(row("SELECT is_active FROM price_alerts WHERE id = ?", f.alertId)).toEqual({ is_active: 1 });
  },
  "GET /api/subscribers/unsubscribe": async () => {
    const id = row<{ id: number }>("INSERT INTO email_subscribers (email) VALUES ('leaving@example.com') RETURNING id").id;
    const before = databaseDigest();
    const response = await request("GET", `/api/subscribers/unsubscribe?token=${signToken("newsletter-unsubscribe", id)}`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain("Unsubscribe from the newsletter?");
    expect(page).toContain(`<form method="post" action="/api/subscribers/unsubscribe?token=${signToken("newsletter-unsubscribe", id)}"`);
    expect(databaseDigest()).toBe(before);
    expect(rows("SELECT id FROM email_subscribers WHERE is_active = 0")).toEqual([]);
  },
  "POST /api/subscribers/unsubscribe": async () => {
    const id = row<{ id: number }>("INSERT INTO email_subscribers (email) VALUES ('one-click@example.com') RETURNING id").id;
    expect(await ok("POST", `/api/subscribers/unsubscribe?token=${signToken("newsletter-unsubscribe", id)}`, oneClick, 200, form)).toEqual({ unsubscribed: true, alreadyUnsubscribed: false });
    expect(row("SELECT is_active FROM email_subscribers WHERE id = ?", id)).toEqual({ is_active: 0 });
    expect(row("SELECT is_active FROM email_subscribers WHERE id = ?", f.subscriberId)).toEqual({ is_active: 1 });
  },
  "DELETE /api/visitor-data": async () => {
    const [heidi, ivan] = [privacyPerson("heidi"), privacyPerson("ivan")];
    const ivanRows = () => [rows("SELECT * FROM price_alerts WHERE user_id = ?", ivan.userId), rows("SELECT * FROM favorites WHERE user_id = ?", ivan.userId)];
    const before = ivanRows();
    const body = (await ok("DELETE", `/api/visitor-data?userId=${heidi.userId}`)) as { deleted: Record<string, number> };
    expect(body.deleted).toMatchObject({ priceAlerts: 1, emailConsents: 1, favorites: 1, newsletter: 0 });
    expect(rows("SELECT id FROM price_alerts WHERE user_id = ?", heidi.userId)).toEqual([]);
    expect(rows("SELECT id FROM favorites WHERE user_id = ?", heidi.userId)).toEqual([]);
    // The newsletter is keyed on the address, not on the browser: it stays.
    expect(rows("SELECT email FROM email_subscribers WHERE email = ?", heidi.email)).toEqual([{ email: heidi.email }]);
    expect(ivanRows()).toEqual(before);
  },
  "GET /api/email/confirm": async () => {
    const email = "confirming@example.com";
    api.db.$client.prepare("INSERT INTO email_subscribers (email) VALUES (?)").run(email);
    requestConfirmation(api.db, { email, purpose: "newsletter", userId: null }, new Date());
    const [due] = claimDueConfirmations(api.db, "routes-test", new Date(), { staleAfterMs: 60_000, limit: 10 }).filter((c) => c.email === email);
    const response = await request("GET", `/api/email/confirm?token=${due!.token}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Newsletter subscription confirmed");
    expect(row("SELECT confirmed_at IS NOT NULL AS confirmed FROM email_subscribers WHERE email = ?", email)).toEqual({ confirmed: 1 });
    expect(row("SELECT confirmed_at IS NOT NULL AS confirmed FROM email_subscribers WHERE id = ?", f.subscriberId)).toEqual({ confirmed: 0 });
  },
  ...adminGoodInput,
};

/** Waits until the import run has ended; the run as the API answers it. */
async function finishedRun(runId: number): Promise<FeedRun> {
  let run: FeedRun | undefined;
  await expect
    .poll(async () => {
      run = (await adminOk("GET", `/api/admin/feed-runs/${runId}`)) as FeedRun;
      return run.status;
    }, { timeout: 20_000 })
    .toMatch(/^(succeeded|failed)$/);
  return run!;
}

/** Sends a request that must succeed with `status`; returns the JSON body (null for 204). */
async function ok(method: string, pathAndQuery: string, body?: unknown, status = 200, contentType?: string, headers?: Record<string, string>): Promise<unknown> {
  const response = await request(method, pathAndQuery, body, contentType, headers);
  const text = await response.text();
  expect(response.status, `${method} ${pathAndQuery}: ${text}`).toBe(status);
  return status === 204 ? null : JSON.parse(text);
}

/** As `ok`, signed in as the admin. */
const adminOk = (method: string, pathAndQuery: string, body?: unknown, status = 200) =>
  ok(method, pathAndQuery, body, status, undefined, { cookie: session });

const routeKeys = routes.map(([method, path]) => `${method} ${path}`);

describe("the route table", () => {
  it("has a good-input and a bad-input test for every route, and none for routes it does not have", () => {
    expect(Object.keys(goodInput).sort()).toEqual([...routeKeys].sort());
    expect(Object.keys(badInput).sort()).toEqual([...routeKeys].sort());
  });
});

describe("bad input to each route: a clear 4xx error, and the database unchanged", () => {
  it.each(routeKeys)("%s", async (key) => {
    for (const bad of badInput[key]!()) {
      const before = databaseDigest();
      const headers = { ...(bad.admin ? { cookie: session } : {}), ...bad.headers };
      const response = await request(bad.method ?? "GET", bad.path, bad.body, bad.contentType, headers);
      const label = `${bad.method ?? "GET"} ${bad.path.slice(0, 100)}`;
      expect(response.status, label).toBe(bad.status);
      expect(response.headers.get("content-type"), label).toMatch(/^application\/json/);
      const body = (await response.json()) as { error: string };
      expect(Object.keys(body), label).toEqual(["error"]);
      if (typeof bad.error === "string") expect(body.error, label).toBe(bad.error);
      else expect(body.error, label).toMatch(bad.error);
      if (bad.status === 405) expect(response.headers.get("allow"), label).toBe(bad.error.toString().replace(/.*use /, "").split(" or ").join(", "));
      expect(databaseDigest(), `${label} changed the database`).toBe(before);
    }
  });
});

describe("good input to each route: the data it answers, and where a write lands", () => {
  it.each(routeKeys)("%s", async (key) => {
    await goodInput[key]!();
  });
});

describe("HEAD", () => {
  it("answers a GET route's status and headers without the body", async () => {
    for (const path of ["/api/products?limit=2", `/api/products/${f.product.slug}`, "/api/health"]) {
      const get = await request("GET", path);
      const head = await request("HEAD", path);
      expect(head.status, path).toBe(200);
      expect(head.headers.get("content-type"), path).toBe(get.headers.get("content-type"));
      expect(head.headers.get("cache-control"), path).toBe(get.headers.get("cache-control"));
      expect(await head.text(), path).toBe("");
    }
    expect((await request("HEAD", "/api/products/no-such-product")).status).toBe(404);
  });
});

describe("cache headers", () => {
  it("let browsers and CDNs keep public catalogue reads briefly, and never a visitor's own data", async () => {
    const products = "public, max-age=10, stale-while-revalidate=60";
    const lists = "public, max-age=60, stale-while-revalidate=60";
    const cases: [string, string][] = [
      ["/api/products", products],
      ["/api/products/count", products],
      ["/api/products/featured", products],
      [`/api/products/${f.product.slug}`, products],
      ["/api/search?q=dog", products],
      ["/api/categories", lists],
      [`/api/categories/${f.category.id}`, lists],
      [`/api/categories/slug/${f.category.slug}`, lists],
      ["/api/retailers", lists],
      [`/api/retailers/${f.retailer.id}`, lists],
      ["/api/brands", lists],
      ["/api/brands/counts", lists],
      ["/api/vouchers", lists],
      ["/api/placeholder/10/10", "public, max-age=86400"],
      [`/api/packshot/${f.product.slug}.svg`, "public, max-age=86400"],
      // Read by the admin form, which must see its own save at once.
      [`/api/products/by-id/${f.product.id}`, "no-store"],
      [`/api/affiliate-links?productId=${f.product.id}`, "no-store"],
      ["/api/health", "no-store"],
      [`/api/favorites?userId=${alice}`, "no-store"],
      [`/api/is-favorite?userId=${alice}&productId=${f.product.id}`, "no-store"],
      [`/api/price-alerts?userId=${alice}`, "no-store"],
      [`/api/visitor-counts?userId=${alice}`, "no-store"],
      [`/api/recently-viewed?userId=${alice}`, "no-store"],
      ["/api/products?sort=nope", "no-store"],
      ["/api/nothing-here", "no-store"],
    ];
    for (const [path, expected] of cases) {
      // Twice: first from the handler, then from the response cache, which must say the same.
      api.cache.invalidate();
      for (let i = 0; i < 2; i++) expect((await request("GET", path)).headers.get("cache-control"), path).toBe(expected);
    }
    // An image drawn from a query string: it may not run scripts or be read as another type.
    const svg = await request("GET", "/api/placeholder/10/10?text=x");
    expect(svg.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(svg.headers.get("x-content-type-options")).toBe("nosniff");
    const write = await request("POST", "/api/recently-viewed", { userId: alice, productId: f.product.id });
    expect(write.status).toBe(204);
    expect(write.headers.get("cache-control")).toBe("no-store");
  });
});
