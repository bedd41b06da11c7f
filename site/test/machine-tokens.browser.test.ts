/**
 * The admin's Machine tokens screen in a real browser against the real server, at desktop and
 * phone widths: a token created and shown once, working against the machine routes, listed by
 * its first characters with its last use, then revoked (after a confirmation) and refused; and
 * the last nightly run with its summary.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Page } from "playwright-core";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, openPage, seriousA11yViolations } from "./browser.ts";

const baseUrl = inject("baseUrl");
const adminPassword = inject("adminPassword");
const databaseFile = inject("databaseFile");
const screenshotDir = path.join(os.tmpdir(), "pawprice-admin-screens");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  // A nightly run that ended failed, as the job records one.
  const db = new Database(databaseFile);
  const summary = {
    feeds: { durationMs: 1200, sources: [{ name: "Awin pets", runId: 1, status: "failed", rowsRead: 0, created: 0, matched: 0, pricesChanged: 0, held: 0, error: "the connection was refused" }], error: "1 of 1 failed (Awin pets)" },
    prices: { durationMs: 3400, result: "succeeded", checked: 120, changed: 3, held: 0, failed: 0, stale: 0, failures: [] },
  };
  db.prepare("INSERT INTO nightly_runs (trigger, status, started_at, finished_at, step, summary, error) VALUES ('schedule', 'failed', ?, ?, 'prices', ?, 'feeds: 1 of 1 failed (Awin pets)')").run(
    new Date().toISOString(),
    new Date().toISOString(),
    JSON.stringify(summary),
  );
  db.close();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

async function logIn(page: Page): Promise<void> {
  await page.goto(`${baseUrl}/admin/login`);
  await page.getByLabel("Password").fill(adminPassword);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => url.pathname === "/admin");
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe("Machine tokens screen", () => {
  it.each([1280, 375])("creates a token shown once, lists it, records its use and revokes it at %i px", async (width) => {
    fs.mkdirSync(screenshotDir, { recursive: true });
    const { page, context, errors } = await openPage(browser, { width, height: 900 });
    await logIn(page);
    // The section is in the navigation.
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Machine tokens" }).click();
    await page.getByRole("heading", { level: 1, name: "Machine tokens" }).waitFor();
    const nightly = page.getByTestId("last-nightly-run");
    await nightly.getByText("Failed", { exact: true }).waitFor();
    await nightly.getByText("feeds: 1 of 1 failed (Awin pets)").waitFor();
    await nightly.getByText("Awin pets: failed: the connection was refused").waitFor();
    await nightly.getByText(/^Page prices \(3\.4 s\): succeeded, 120 checked, 3 changed/).waitFor();
    await nightly.getByText(/started by the schedule/).waitFor();
    expect(await fitsWidth(page), `list at ${width} px`).toBe(true);

    // Both scopes are ticked for a new token; the name is required.
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByText("Name is required").waitFor();
    const name = `Browser CI ${width}`;
    await page.getByLabel("Name").fill(name);
    expect(await page.getByRole("checkbox", { name: /Download the built site/ }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Create token" }).click();

    const box = page.getByTestId("new-token");
    await box.getByText("Copy it now: it will not be shown again").waitFor();
    const token = await page.getByLabel("The new token").inputValue();
    expect(token).toMatch(/^ppm_[A-Za-z0-9_-]{43}$/);
    expect(await fitsWidth(page), `new token at ${width} px`).toBe(true);
    expect(await seriousA11yViolations(page), `new token at ${width} px`).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(screenshotDir, `machine-tokens-${width}.png`), fullPage: true });
    await box.getByRole("button", { name: "Done" }).click();
    await box.waitFor({ state: "detached" });
    expect(await page.content()).not.toContain(token);

    // Listed by its first characters, never used yet.
    const item = page.getByTestId(width < 768 ? "token-card" : "token-row").filter({ hasText: name });
    await item.getByText(`${token.slice(0, 12)}…`).waitFor();
    await item.getByText("Never").waitFor();

    // The token works on a machine route; the list then shows its last use.
    const download = await page.request.get(`${baseUrl}/api/machine/releases/current.tar.gz`, { headers: { authorization: `Bearer ${token}` } });
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("application/gzip");
    await page.reload();
    await item.getByText(`${token.slice(0, 12)}…`).waitFor();
    expect(await item.getByText("Never").count()).toBe(0);

    // Revoking asks first; the token is then refused and listed as revoked.
    page.once("dialog", (dialog) => void dialog.accept());
    await item.getByRole("button", { name: `Revoke ${name}` }).click();
    await item.getByText(/^Revoked /).waitFor();
    expect(await item.getByRole("button", { name: `Revoke ${name}` }).count()).toBe(0);
    const refused = await page.request.get(`${baseUrl}/api/machine/releases/current.tar.gz`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(401);
    expect(await fitsWidth(page), `revoked at ${width} px`).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
