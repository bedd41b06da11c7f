/** Real Chromium (Debian's package) through playwright-core, for the browser tests. */
import Database from "better-sqlite3";
import fs from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";
import { buildAffiliateUrl } from "../../data/domain/affiliate.ts";
import { affiliateKeys, type AffiliateIds } from "../../data/domain/catalogue.ts";

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}: run npm test (it installs it) or set CHROMIUM_PATH`);
  return chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface TrackedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

export async function openPage(browser: Browser, options: { width?: number; height?: number; consent?: "accepted" | "declined" | null } = {}): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 } });
  const consent = options.consent === undefined ? "declined" : options.consent;
  if (consent) await context.addInitScript((value) => localStorage.setItem("cookie_consent", value), consent);
  // Only our own server is reachable: an outbound retailer link must never leave this machine.
  await context.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])/, (route) => route.abort());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} @ ${message.location().url}`);
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  return { page, context, errors };
}

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page and returns its serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, not as an inline <script>: the pages' Content
  // Security Policy allows only the inline scripts the build emitted.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Islands that hydrate on an event rather than on load or idle: the test does not wait for them. */
const onDemandDirectives = ["visible", "toast", "companion", "interaction"];

/**
 * Waits until the islands that hydrate on load or idle have hydrated (Astro drops their `ssr`
 * attribute), so a test clicks the live component rather than its static HTML.
 */
export async function islandsReady(page: Page): Promise<void> {
  await page.waitForFunction(
    (onDemand) => [...document.querySelectorAll("astro-island")].every((island) => !island.hasAttribute("ssr") || onDemand.includes(island.getAttribute("client")!)),
    onDemandDirectives,
  );
  // The product grid hydrates on the visitor's first touch (client:interaction), or at once for a
  // visit with compared or saved products: the test points at it as a shopper would.
  const grid = page.locator('astro-island[client="interaction"]:has([data-testid="product-grid"])');
  if ((await grid.count()) > 0) {
    await gridReady(page);
  }
}

/** Points at the product grid (it hydrates on first use) and waits until it has hydrated. */
export async function gridReady(page: Page): Promise<void> {
  const heading = page.locator('[data-testid="product-grid"] h2').first();
  await heading.scrollIntoViewIfNeeded();
  await heading.hover();
  await page.waitForSelector('astro-island:not([ssr]) [data-testid="product-grid"]', { state: "attached" });
}

/** Scrolls a `client:visible` island's container into view and waits for it to hydrate. */
export async function visibleIslandReady(page: Page, containerSelector: string): Promise<void> {
  await page.locator(containerSelector).scrollIntoViewIfNeeded();
  await page.waitForSelector(`${containerSelector} astro-island:not([ssr])`, { state: "attached" });
}

/** An offer as stored: its retailer's name and the retailer's own (untagged) product URL. */
export interface StoredOffer {
  retailer: string;
  url: string;
}

/** What the outbound links are checked against, read from the database the server uses. */
export interface AffiliateData {
  ids: AffiliateIds;
  /** Every offer of the product with this slug, by retailer name. */
  offers: (slug: string) => Map<string, string>;
  /** The product's best offer (the one its cards and favourites link to). */
  bestOffer: (slug: string) => StoredOffer;
  close: () => void;
}

export function readAffiliateData(databaseFile: string): AffiliateData {
  const db = new Database(databaseFile, { readonly: true });
  const stored = new Map(db.prepare("SELECT key, value FROM affiliate_settings").raw().all() as [string, string][]);
  const ids = Object.fromEntries(affiliateKeys.map((key) => [key, stored.get(key) ?? ""])) as AffiliateIds;
  // Every ID is set, so every retailer's links must carry a tag.
  for (const key of affiliateKeys) expect(ids[key], `affiliate ID ${key}`).not.toBe("");
  const offers = (slug: string) => {
    const rows = db
      .prepare("SELECT r.name AS retailer, pp.url FROM product_prices pp JOIN products p ON p.id = pp.product_id JOIN retailers r ON r.id = pp.retailer_id WHERE p.slug = ?")
      .all(slug) as StoredOffer[];
    return new Map(rows.map((row) => [row.retailer, row.url]));
  };
  const bestOffer = (slug: string) =>
    db
      .prepare(
        "SELECT r.name AS retailer, pp.url FROM products p JOIN product_prices pp ON pp.product_id = p.id AND pp.retailer_id = p.best_retailer_id JOIN retailers r ON r.id = pp.retailer_id WHERE p.slug = ?",
      )
      .get(slug) as StoredOffer;
  return { ids, offers, bestOffer, close: () => db.close() };
}

/**
 * The tracking parameters a retailer's links carry, written out from the affiliate rules:
 * Amazon tag, Pets at Home aff, Jollyes ref, Zooplus partner, eBay mkevt=1&mkcid=1&campid;
 * any other retailer ref=<site name>.
 */
export function trackingParams(retailer: string, ids: AffiliateIds): [string, string][] {
  switch (retailer) {
    case "Amazon":
      return [["tag", ids.AMAZON]];
    case "Pets at Home":
      return [["aff", ids.PETS_AT_HOME]];
    case "Jollyes":
      return [["ref", ids.JOLLYES]];
    case "Zooplus":
      return [["partner", ids.ZOOPLUS]];
    case "eBay":
      return [
        ["mkevt", "1"],
        ["mkcid", "1"],
        ["campid", ids.EBAY],
      ];
    default:
      return [["ref", "PawPrice"]];
  }
}

/** Asserts an outbound link is the offer's URL with its retailer's affiliate tracking, nothing else. */
export function expectAffiliateLink(href: string | null, offer: StoredOffer, ids: AffiliateIds): void {
  expect(href, `link to ${offer.retailer}`).toBe(buildAffiliateUrl(offer.retailer, offer.url, ids, "PawPrice"));
  const params = new URL(href!).searchParams;
  for (const [name, value] of trackingParams(offer.retailer, ids)) expect(params.get(name), `${name} on ${href}`).toBe(value);
}

export interface RecordedRequest {
  method: string;
  body: string | undefined;
}

/**
 * Records every request the browser sends to `path` (a URL path, no query), and lets it through.
 * It listens at browser level: beacons sent while a page unloads never reach Playwright's
 * request events or the page's own DevTools session, but they do pass the browser's interception.
 */
export async function recordRequests(browser: Browser, path: string): Promise<{ requests: RecordedRequest[]; stop: () => Promise<void> }> {
  const session = await browser.newBrowserCDPSession();
  const requests: RecordedRequest[] = [];
  session.on("Fetch.requestPaused", ({ requestId, request }) => {
    if (new URL(request.url).pathname === path) requests.push({ method: request.method, body: request.postData });
    void session.send("Fetch.continueRequest", { requestId }).catch(() => undefined);
  });
  await session.send("Fetch.enable", { patterns: [{ urlPattern: `*${path}*` }] });
  return { requests, stop: () => session.detach() };
}

/**
 * Waits until a toast saying `text` is shown (the first of them, when several say it). Generous:
 * the first toast loads its UI on demand, and a login checks a deliberately slow password hash, on
 * a machine busy with other tests.
 */
export function toastShows(page: Page, text: string): Promise<void> {
  return page.getByTestId("toast").filter({ hasText: text }).first().waitFor({ timeout: 20_000 });
}
