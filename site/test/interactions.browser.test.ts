import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { islandsReady, launchBrowser, openPage, recordRequests } from "./browser.ts";
import { confirmationLink } from "./outbox.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
const outboxDir = inject("outboxDir");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("compare tray", () => {
  it("adds up to 4 products, refuses a fifth, steps, expands, removes and clears", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(baseUrl);
    await islandsReady(page);
    const cards = page.getByTestId("product-card");
    await cards.nth(0).getByRole("button", { name: /^Add .* to compare$/ }).click();
    const tray = page.getByTestId("compare-tray");
    await expect.poll(() => tray.isVisible()).toBe(true);
    await expect(tray.getByText("Compare Products (1/4)").isVisible()).resolves.toBe(true);
    await expect(tray.getByRole("button", { name: "Expand" }).count()).resolves.toBe(0);
    for (const i of [1, 2, 3]) await cards.nth(i).getByRole("button", { name: /^Add .* to compare$/ }).click();
    await expect.poll(() => tray.getByText("Compare Products (4/4)").isVisible()).toBe(true);
    // Collapsed: 2 at a time, stepping.
    await expect(tray.locator("li").count()).resolves.toBe(2);
    await cards.nth(4).getByRole("button", { name: /^Add .* to compare$/ }).click();
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain("Compare tray is full");
    await expect(tray.getByText("Compare Products (4/4)").isVisible()).resolves.toBe(true);
    await tray.getByRole("button", { name: "Previous products" }).click();
    await tray.getByRole("button", { name: "Expand" }).click();
    await expect(tray.locator("li").count()).resolves.toBe(4);
    await expect(tray.getByText("Best Price").count()).resolves.toBe(1);
    // The bottom compare bar names 3, then '+1 more'.
    await expect(page.getByTestId("compare-bar").textContent()).resolves.toContain("+1 more");
    await tray.getByRole("button", { name: /^Remove .* from comparison$/ }).first().click();
    await expect.poll(() => tray.getByText("Compare Products (3/4)").isVisible()).toBe(true);
    // The tray survives a page change within the visit.
    await page.goto(`${baseUrl}/category/cat-food`);
    await islandsReady(page);
    await page.getByTestId("compare-bar").getByRole("button", { name: "Show tray" }).click();
    await page.getByTestId("compare-tray").getByRole("button", { name: "Clear All" }).click();
    await expect.poll(() => page.getByTestId("compare-tray").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("islands that wait for the visitor", () => {
  it("the compare bar, tray and recently viewed hydrate with the first other island, or at once when the visit already compares products (and the grid with them)", async () => {
    const { page, errors, context } = await openPage(browser, { width: 375, height: 700 });
    const waiting = page.locator('astro-island[client="companion"]');
    const grid = page.locator('astro-island[client="interaction"]:has([data-testid="product-grid"])');
    await page.goto(baseUrl);
    await page.waitForLoadState("networkidle");
    // A new visitor on a phone has not touched the grid yet: nothing has hydrated.
    expect(await waiting.count()).toBe(3);
    expect(await waiting.evaluateAll((islands) => islands.filter((island) => island.hasAttribute("ssr")).length)).toBe(3);
    expect(await grid.getAttribute("ssr")).not.toBeNull();

    await islandsReady(page); // points at the grid, which hydrates, and the companions with it
    await page.waitForFunction(() => [...document.querySelectorAll('astro-island[client="companion"]')].every((island) => !island.hasAttribute("ssr")));
    await page.getByTestId("product-card").first().getByRole("button", { name: /^Add .* to compare$/ }).click();
    await expect.poll(() => page.getByTestId("compare-bar").isVisible()).toBe(true);

    // Back on the page within the visit: the bar is there without a touch, and the grid
    // hydrates by itself to show the compared product as added.
    const added = await page.getByTestId("product-card").first().locator("h3").textContent();
    await page.goto(baseUrl);
    await expect.poll(() => page.getByTestId("compare-bar").isVisible()).toBe(true);
    await page.getByTestId("product-card").first().getByRole("button", { name: `${added!.trim()} is in the comparison` }).waitFor();
    expect(await grid.getAttribute("ssr")).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("vouchers", () => {
  it("copies a code and shows the check icon for 3 seconds, then counts the use", async () => {
    const { page, errors, context } = await openPage(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    await page.clock.install();
    await page.goto(`${baseUrl}/vouchers`);
    await islandsReady(page);
    await expect(page.locator("h1").textContent()).resolves.toBe("Pet Vouchers & Deals");
    // The list hydrates on first use (client:interaction): point at it, as a shopper would, before the clock stops.
    await page.getByTestId("voucher").first().hover();
    await page.waitForSelector("astro-island:not([ssr]) [data-testid=voucher]", { state: "attached" });
    const voucher = page.getByTestId("voucher").first();
    const code = (await voucher.locator("code").textContent())!;
    const db = new Database(databaseFile, { readonly: true });
    const usesBefore = (db.prepare("SELECT uses FROM vouchers WHERE code = ?").get(code) as { uses: number }).uses;
    // The page's clock stands still from here: the check icon's 3 seconds pass only when the test says so.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 5000));
    await voucher.getByRole("button", { name: `Copy code ${code}` }).click();
    await expect.poll(() => voucher.getByTestId("copied-icon").isVisible()).toBe(true);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await page.clock.runFor(2900);
    // A posted message runs after the render that any fired timer queued (React schedules renders the same way).
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        }),
    );
    await expect(voucher.getByTestId("copied-icon").isVisible(), "icon at 2.9 s").resolves.toBe(true);
    await page.clock.runFor(100);
    await expect.poll(() => voucher.getByTestId("copied-icon").count(), { message: "icon at 3 s" }).toBe(0);
    await expect.poll(() => (db.prepare("SELECT uses FROM vouchers WHERE code = ?").get(code) as { uses: number }).uses).toBe(usesBefore + 1);
    db.close();
    const link = voucher.getByRole("link", { name: /^Shop at/ });
    expect(await link.getAttribute("rel")).toBe("sponsored noopener");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("switches tabs, filters by retailer and loads more", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(baseUrl);
    await islandsReady(page);
    const section = page.locator("#vouchers");
    // The list hydrates on first use (client:interaction): point at it, as a shopper would.
    await section.getByTestId("voucher").first().hover();
    await page.waitForSelector("#vouchers astro-island:not([ssr])", { state: "attached" });
    await expect.poll(() => section.getByTestId("voucher").count()).toBe(3);
    await section.getByRole("button", { name: "Load more vouchers" }).click();
    await expect.poll(() => section.getByTestId("voucher").count()).toBe(6);
    await section.getByRole("button", { name: "Popular" }).click();
    await expect.poll(() => section.getByTestId("voucher").count()).toBe(3);
    await section.getByLabel("Retailer").selectOption("Amazon");
    await expect.poll(() => section.getByTestId("voucher").allTextContents()).toEqual([expect.stringContaining("Amazon")]);
    await context.close();
  });
});

describe("newsletter", () => {
  it("warns on an empty address; a real one is stored pending, with a confirmation mail whose link subscribes it", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(baseUrl);
    await islandsReady(page);
    await page.getByTestId("newsletter").scrollIntoViewIfNeeded();
    await page.waitForSelector("astro-island:not([ssr]) [data-testid=newsletter]");
    const block = page.getByTestId("newsletter");
    await block.getByRole("button", { name: "Subscribe" }).click();
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain("Please enter your email address.");
    const email = `reader-${Date.now()}@example.co.uk`;
    await block.getByLabel("Email address").fill(email);
    await block.getByRole("button", { name: "Subscribe" }).click();
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain("Check your inbox to confirm your subscription");
    expect(await block.getByLabel("Email address").inputValue()).toBe("");
    const db = new Database(databaseFile, { readonly: true });
    const subscriber = db.prepare("SELECT source, is_active, confirmed_at IS NOT NULL AS confirmed FROM email_subscribers WHERE email = ?");
    expect(subscriber.get(email)).toEqual({ source: "website", is_active: 1, confirmed: 0 });

    await page.goto(await confirmationLink(outboxDir, email, baseUrl));
    await expect(page.locator("h1").textContent()).resolves.toBe("Newsletter subscription confirmed");
    expect(await page.locator("body").textContent()).toContain(`${email} is subscribed to the PawPrice newsletter.`);
    expect(subscriber.get(email)).toEqual({ source: "website", is_active: 1, confirmed: 1 });
    db.close();
    await context.close();
  });
});

describe("mobile (375 px)", () => {
  it("opens the menu, lists the categories and closes it on a link", async () => {
    const { page, errors, context } = await openPage(browser, { width: 375, height: 800 });
    await page.goto(baseUrl);
    await islandsReady(page);
    const menu = page.locator("#mobile-menu");
    expect(await menu.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Open menu" }).click();
    expect(await menu.isVisible()).toBe(true);
    for (const name of ["Admin Dashboard", "Vouchers & Offers", "My Price Alerts", "My Favorites", "Dog Food"]) {
      expect(await menu.getByRole("link", { name, exact: true }).count()).toBe(1);
    }
    await menu.getByRole("link", { name: "Vouchers & Offers" }).click();
    await page.waitForURL(`${baseUrl}/vouchers`);
    expect(await page.locator("#mobile-menu").isVisible()).toBe(false);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("cookie consent and the click log", () => {
  const clickRows = (db: Database.Database, userId?: string | null) =>
    userId === undefined
      ? (db.prepare("SELECT count(*) AS n FROM user_behaviour WHERE action = 'affiliate_click'").get() as { n: number }).n
      : (db.prepare("SELECT count(*) AS n FROM user_behaviour WHERE user_id = ? AND action = 'affiliate_click'").get(userId) as { n: number }).n;

  it("names in the cookie policy every key a visit that uses everything leaves in the browser's storage", async () => {
    const { page, errors, context } = await openPage(browser, { consent: "accepted" });
    await page.goto(`${baseUrl}/category/dog-food`);
    await islandsReady(page);
    const card = page.getByTestId("product-card").first();
    await card.getByRole("button", { name: /^Add .* to compare$/ }).click();
    await card.getByRole("button", { name: /^Save .* to favourites$/ }).click();
    await card.getByRole("button", { name: /^Remove .* from favourites$/ }).waitFor();
    const popup = context.waitForEvent("page");
    await card.getByRole("link", { name: /View Best Deal/ }).click();
    await (await popup).close();
    await card.locator("h3 a").click(); // the product page records the view
    await page.waitForURL(/\/product\//);
    await page.goto(`${baseUrl}/cookie-policy`);
    const stored = await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)].sort());
    expect(stored).toEqual(
      expect.arrayContaining(["affiliate_clicks", "compare_tray", "cookie_consent", "favorites_saved", "recently_viewed", "sessionId", "userId"]),
    );
    const listed = await page.getByRole("list", { name: "Cookies and browser storage used by this site" }).locator("h3").allTextContents();
    expect(stored.filter((key) => !listed.includes(key))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("decides whether to show the banner in the head, before any module script has run", async () => {
    for (const [consent, shown] of [[null, true], ["declined", false], ["accepted", false]] as const) {
      const { page, context } = await openPage(browser, { consent });
      // No module script loads: what shows is the head's doing alone.
      await page.route("**/_astro/*.js", (route) => route.abort());
      await page.goto(`${baseUrl}/privacy-policy`);
      expect(await page.getByRole("region", { name: "Cookie consent" }).isVisible(), String(consent)).toBe(shown);
      await context.close();
    }
  });

  it("records nothing when the visitor declined", async () => {
    const { page, context } = await openPage(browser, { consent: "declined" });
    const posted = await recordRequests(browser, "/api/clicks");
    const db = new Database(databaseFile, { readonly: true });
    const rowsBefore = clickRows(db);
    await page.goto(baseUrl);
    await islandsReady(page);
    expect(await page.getByRole("region", { name: "Cookie consent" }).isVisible()).toBe(false);
    const popup = context.waitForEvent("page");
    await page.getByRole("link", { name: /View Best Deal/ }).first().click();
    await (await popup).close();
    // Leaving the page is when pending clicks are flushed: once the next page is ready, nothing was kept or sent.
    await page.goto(`${baseUrl}/vouchers`);
    await islandsReady(page);
    expect(await page.evaluate(() => localStorage.getItem("affiliate_clicks"))).toBeNull();
    // A request of our own (invalid, so it stores nothing), sent after any flush, marks the end: it is the only one seen.
    const marker = () => fetch("/api/clicks", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }).then((response) => response.status);
    expect(await page.evaluate(marker)).toBe(400);
    expect(posted.requests).toEqual([{ method: "POST", body: "{}" }]);
    expect(clickRows(db)).toBe(rowsBefore);
    const userId = await page.evaluate(() => localStorage.getItem("userId"));
    if (userId !== null) expect(clickRows(db, userId)).toBe(0);
    db.close();
    await posted.stop();
    await context.close();
  });

  it("asks first, and logs affiliate clicks only after consent", async () => {
    const { page, context } = await openPage(browser, { consent: null });
    const posted = await recordRequests(browser, "/api/clicks");
    await page.goto(baseUrl);
    await islandsReady(page);
    const banner = page.getByRole("region", { name: "Cookie consent" });
    expect(await banner.isVisible()).toBe(true);
    await banner.getByRole("button", { name: "Accept all" }).click();
    expect(await banner.isVisible()).toBe(false);
    const popup = context.waitForEvent("page");
    await page.getByRole("link", { name: /View Best Deal/ }).first().click();
    await (await popup).close();
    const userId = await page.evaluate(() => localStorage.getItem("userId"));
    expect(userId).toMatch(/^user_[a-z0-9]{24}$/);
    // Leaving the page flushes the pending click: kept locally and sent to the API once.
    await page.goto(`${baseUrl}/vouchers`);
    await islandsReady(page);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("affiliate_clicks") ?? "[]") as { productName: string }[]);
    expect(stored).toHaveLength(1);
    const db = new Database(databaseFile, { readonly: true });
    await expect.poll(() => clickRows(db, userId)).toBe(1);
    expect(posted.requests.map((request) => request.method)).toEqual(["POST"]);
    expect(JSON.parse(posted.requests[0]!.body!).userId).toBe(userId);
    const row = db.prepare("SELECT product_id, retailer_id, metadata FROM user_behaviour WHERE user_id = ?").get(userId) as {
      product_id: number;
      retailer_id: number;
      metadata: string;
    };
    expect(row.product_id).toBeGreaterThan(0);
    expect(row.retailer_id).toBeGreaterThan(0);
    expect(JSON.parse(row.metadata).productName).toBe(stored[0]!.productName);
    db.close();
    await posted.stop();
    await context.close();
  });
});
