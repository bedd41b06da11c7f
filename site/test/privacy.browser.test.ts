/**
 * Data rights in a real browser against the real server and its database. A visitor follows the
 * footer's link, confirms, and their favourites are gone (on the server and in the list), while
 * another visitor's stay. The admin's Privacy requests screen looks up an address at desktop and
 * phone widths without sideways scrolling, downloads the JSON export and erases after confirming.
 */
import fs from "node:fs";
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { favoritesPath } from "../../data/domain/paths.ts";
import { randomIdAlphabet, randomIdLength } from "../../data/domain/visitor-id.ts";
import { launchBrowser, openPage, seriousA11yViolations } from "./browser.ts";

const baseUrl = inject("baseUrl");
const adminPassword = inject("adminPassword");
const databaseFile = inject("databaseFile");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

function newVisitorId(): string {
  return `user_${Array.from({ length: randomIdLength }, () => randomIdAlphabet[Math.floor(Math.random() * randomIdAlphabet.length)]).join("")}`;
}

/** Saves a favourite through the public API, as the Save button does. */
async function saveFavourite(userId: string, productId: number): Promise<void> {
  const response = await fetch(`${baseUrl}/api/favorites`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId, productId }) });
  expect(response.status, await response.clone().text()).toBe(201);
}

const favouritesOf = async (userId: string) => (await (await fetch(`${baseUrl}/api/favorites?userId=${userId}`)).json()) as { productId: number }[];

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe("a visitor clearing this browser's data", () => {
  it("goes from the footer link through a confirmation to an empty favourites list; another visitor's favourites stay", async () => {
    const [first, second] = (await (await fetch(`${baseUrl}/api/products?limit=2`)).json()) as { id: number; name: string }[];
    const visitor = newVisitorId();
    const other = newVisitorId();
    await saveFavourite(visitor, first!.id);
    await saveFavourite(other, second!.id);

    const { page, context, errors } = await openPage(browser, { width: 1280 });
    await page.goto(`${baseUrl}/`);
    await page.evaluate((id) => {
      localStorage.setItem("userId", id);
      localStorage.setItem("favorites_saved", "1");
      localStorage.setItem("pet_profile", JSON.stringify({ species: "dog" }));
      localStorage.setItem("price_view", "item");
    }, visitor);
    await page.goto(`${baseUrl}${favoritesPath}`);
    await page.getByTestId("favorites").getByText(first!.name).first().waitFor();

    await page.locator("footer").getByRole("link", { name: "Clear this browser's data" }).click();
    await page.waitForURL((url) => url.pathname === "/your-data");
    await page.getByRole("heading", { level: 1, name: "Your data in this browser" }).waitFor();
    await page.getByTestId("browser-visitor-id").getByText(visitor).waitFor();

    // Nothing goes before the confirmation, and Cancel keeps everything.
    const main = page.locator("main");
    await main.getByRole("button", { name: "Clear this browser's data" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete this browser's data now?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await favouritesOf(visitor)).toHaveLength(1);

    await main.getByRole("button", { name: "Clear this browser's data" }).click();
    await dialog.getByRole("button", { name: "Yes, delete it" }).click();
    const done = page.getByTestId("browser-data-cleared");
    await done.getByText("This browser's data has been cleared.").waitFor();
    await done.getByText(/Deleted from our server: 1 favourite\b/).waitFor();

    // The server forgot this visitor's favourites and kept the other visitor's.
    expect(await favouritesOf(visitor)).toEqual([]);
    expect((await favouritesOf(other)).map((f) => f.productId)).toEqual([second!.id]);
    // The browser forgot its id and data, and kept its settings.
    expect(
      await page.evaluate(() => ({
        userId: localStorage.getItem("userId"),
        saved: localStorage.getItem("favorites_saved"),
        pet: localStorage.getItem("pet_profile"),
        view: localStorage.getItem("price_view"),
        consent: localStorage.getItem("cookie_consent"),
      })),
    ).toEqual({ userId: null, saved: null, pet: null, view: "item", consent: "declined" });

    await page.goto(`${baseUrl}${favoritesPath}`);
    await page.getByText("Your Favorites List is Empty").waitFor();
    expect(await page.getByTestId("favorites").count()).toBe(0);
    // A new id was made for the new visit, with nothing linked to it.
    const newId = await page.evaluate(() => localStorage.getItem("userId"));
    expect(newId).toMatch(/^user_[a-z0-9]{24}$/);
    expect(newId).not.toBe(visitor);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the admin's Privacy requests screen", () => {
  it.each([1280, 375])("looks up an address, exports it and erases it after confirming, at %i px", async (width) => {
    // A person: a confirmed alert and a favourite from their browser, a newsletter sign-up; and a
    // second person at the same domain.
    const email = `privacy-${width}@example.com`;
    const otherEmail = `neighbour-${width}@example.com`;
    const [visitor, otherVisitor] = [newVisitorId(), newVisitorId()];
    const db = new Database(databaseFile);
    const product = db.prepare("SELECT id, name FROM products ORDER BY id LIMIT 1").get() as { id: number; name: string };
    for (const [address, userId] of [
      [email, visitor],
      [otherEmail, otherVisitor],
    ] as const) {
      const now = new Date().toISOString();
      db.prepare("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, confirmed_at) VALUES (?, ?, ?, 100, ?)").run(userId, product.id, address, now);
      db.prepare("INSERT INTO email_consents (email, user_id, confirmed_at) VALUES (?, ?, ?)").run(address, userId, now);
      db.prepare("INSERT INTO email_subscribers (email, confirmed_at) VALUES (?, ?)").run(address, now);
      db.prepare("INSERT INTO favorites (user_id, product_id, notes) VALUES (?, ?, ?)").run(userId, product.id, `A note long enough to wrap on a phone screen, for ${address}`);
    }
    db.close();

    const { page, context, errors } = await openPage(browser, { width, height: 900 });
    await page.goto(`${baseUrl}/admin/login`);
    await page.getByLabel("Password").fill(adminPassword);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Privacy requests" }).click();
    await page.getByRole("heading", { level: 1, name: "Privacy requests" }).waitFor();

    // An empty key is caught in the form.
    await page.getByRole("button", { name: "Look up" }).click();
    await page.getByText("Enter the e-mail address").waitFor();

    await page.getByLabel("E-mail address to look up").fill(email.toUpperCase());
    await page.getByRole("button", { name: "Look up" }).click();
    const results = page.getByTestId("privacy-results");
    await results.getByRole("heading", { level: 2, name: email }).waitFor();
    await results.getByText("4 rows of 4 kinds linked to this e-mail address.").waitFor();
    for (const kind of ["Price alerts", "Newsletter sign-ups", "E-mail consents", "Favourites"]) {
      await results.getByRole("heading", { level: 3, name: new RegExp(`^${kind} \\(1\\)$`) }).waitFor();
    }
    await results.getByRole("button", { name: visitor }).waitFor();
    await results.getByText("Confirmed: browser data included").waitFor();
    expect(await results.getByText(otherEmail).count()).toBe(0);
    expect(await fitsWidth(page), `results at ${width} px`).toBe(true);
    expect(await seriousA11yViolations(page), `results at ${width} px`).toEqual([]);

    // The export: a JSON file with every row.
    const download = page.waitForEvent("download");
    await results.getByRole("button", { name: "Export JSON" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^pawprice-personal-data-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(fs.readFileSync((await file.path())!, "utf8")) as { request: unknown; total: number; data: Record<string, unknown[]> };
    expect(exported.request).toEqual({ kind: "email", value: email });
    expect(exported.total).toBe(4);
    expect(exported.data.favorites).toHaveLength(1);

    // Erasing asks first; Cancel erases nothing.
    await results.getByRole("button", { name: "Erase all" }).click();
    const confirm = page.getByRole("alertdialog", { name: `Erase everything linked to ${email}?` });
    await confirm.waitFor();
    expect(await fitsWidth(page), `confirmation at ${width} px`).toBe(true);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    const count = (address: string, userId: string) => {
      const check = new Database(databaseFile, { readonly: true });
      try {
        return check
          .prepare(
            "SELECT (SELECT count(*) FROM price_alerts WHERE email = ?) + (SELECT count(*) FROM email_subscribers WHERE email = ?) + (SELECT count(*) FROM email_consents WHERE email = ?) + (SELECT count(*) FROM favorites WHERE user_id = ?) AS n",
          )
          .pluck()
          .get(address, address, address, userId) as number;
      } finally {
        check.close();
      }
    };
    expect(count(email, visitor)).toBe(4);

    await results.getByRole("button", { name: "Erase all" }).click();
    await confirm.getByRole("button", { name: "Erase permanently" }).click();
    await page.getByTestId("privacy-erased").getByText(/^4 rows deleted\./).waitFor();
    expect(count(email, visitor)).toBe(0);
    expect(count(otherEmail, otherVisitor)).toBe(4);
    expect(await fitsWidth(page), `erased at ${width} px`).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
