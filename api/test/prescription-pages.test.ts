/**
 * A prescription-only medicine (POM-V) on the real built site: its product page is a plain price
 * list saying "Prescription needed", with no "Save N%", no struck-through was price, no deal panel
 * and no price-alert form; its card says "Prescription needed" without a saving; and though its
 * row is marked featured and ranked first, the home page's hero shows the next featured product.
 * A product with the same kind of prices and history but no legal category shows every one of
 * them, so each check could fail.
 */
import path from "node:path";
import { findAll, getAttributeValue, textContent } from "domutils";
import { parseDocument } from "htmlparser2";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import { createSiteRebuilder, type SiteRebuilder } from "../jobs/site-rebuild.ts";
import { createAstroBuilder } from "../site-build/builder.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";

let temp: TempDb;
let site: SiteRebuilder;
/** Both featured, first and second by rank, in one category, each with a was price and 90 days of history. */
let pom: { id: number; slug: string; name: string };
let plain: { id: number; slug: string; name: string };
let categorySlug: string;

beforeAll(async () => {
  temp = await tempDb(30);
  const sqlite = temp.db.$client;
  const candidates = sqlite
    .prepare(
      `SELECT p.id, p.slug, p.name, c.slug AS category FROM products p JOIN categories c ON c.id = p.category_id
       WHERE p.original_price_pence IS NOT NULL AND p.best_price_pence IS NOT NULL ORDER BY p.category_id, p.id`,
    )
    .all() as { id: number; slug: string; name: string; category: string }[];
  const pair = candidates.find((first, index) => candidates[index + 1]?.category === first.category);
  expect(pair).toBeDefined();
  const index = candidates.indexOf(pair!);
  [pom, plain] = [candidates[index]!, candidates[index + 1]!];
  categorySlug = pair!.category;
  sqlite.prepare("UPDATE products SET is_featured = 1, rank = -2 WHERE id = ?").run(pom.id);
  sqlite.prepare("UPDATE products SET is_featured = 1, rank = -1 WHERE id = ?").run(plain.id);
  // Made prescription-only around the writer (it would refuse the featured flag): the pages must hold the rule themselves.
  sqlite.prepare("UPDATE products SET legal_category = 'POM-V' WHERE id = ?").run(pom.id);
  recomputeBestPrices(temp.db, [pom.id, plain.id]);
  expect(sqlite.prepare("SELECT id, original_price_pence IS NOT NULL AS was FROM products WHERE id IN (?, ?) ORDER BY rank").all(pom.id, plain.id)).toEqual([
    { id: pom.id, was: 0 },
    { id: plain.id, was: 1 },
  ]);

  site = createSiteRebuilder({
    db: temp.db,
    databaseFile: temp.file,
    releasesDir: path.join(path.dirname(temp.file), "releases"),
    delayMs: 10,
    build: createAstroBuilder({ quiet: true }),
    log: () => {},
  });
  await vi.waitFor(() => expect(site.status()).toMatchObject({ state: "idle", lastBuild: { kind: "full", result: "succeeded" } }), { timeout: 170_000, interval: 200 });
}, 180_000);

afterAll(async () => {
  await site?.stop();
  await site?.cleanedUp();
  temp?.remove();
});

async function page(pathname: string): Promise<string> {
  const response = await createApp({ db: temp.db }, { siteRoot: () => site.currentRoot() }).request(pathname);
  expect(response.status, pathname).toBe(200);
  return response.text();
}

const saving = /Save \d+%/;

describe("a prescription-only medicine on the built site", () => {
  it("has a product page with 'Prescription needed' by its price and nothing that promotes it", async () => {
    const html = await page(`/product/${pom.slug}`);
    const best = html.slice(html.indexOf('id="best-price-heading"'), html.indexOf("</section>", html.indexOf('id="best-price-heading"')));
    expect(best).toContain('data-testid="best-price"');
    expect(best).toContain('data-testid="prescription-needed"');
    expect(textContent(parseDocument(best))).toContain("Prescription needed: the retailer supplies it only against a prescription from a vet (POM-V).");
    expect(html).not.toMatch(saving);
    expect(html).not.toContain('<span class="sr-only">was </span>');
    expect(html).not.toContain('data-testid="deal-truth"');
    expect(html).not.toContain('id="price-alert"');
    expect(html).not.toContain("data-price-alert");
    expect(html).not.toContain("Buy Now");

    // The same page of a product that is not a medicine has each of them.
    const other = await page(`/product/${plain.slug}`);
    expect(other).toMatch(saving);
    expect(other).toContain('<span class="sr-only">was </span>');
    expect(other).toContain('data-testid="deal-truth"');
    expect(other).toContain('id="price-alert"');
    expect(other).not.toContain('data-testid="prescription-needed"');
  });

  it("has a card saying 'Prescription needed' with no saving and no best-deal link, on its category page and the home page", async () => {
    for (const pathname of [`/category/${categorySlug}`, "/"]) {
      const cards = findAll((element) => getAttributeValue(element, "data-testid") === "product-card", parseDocument(await page(pathname)).children);
      const card = (name: string) => cards.find((element) => textContent(element).includes(name));
      const medicine = card(pom.name);
      const other = card(plain.name);
      expect(medicine, pathname).toBeDefined();
      expect(other, pathname).toBeDefined();
      expect(textContent(medicine!)).toContain("Prescription needed");
      expect(textContent(medicine!)).not.toMatch(saving);
      expect(textContent(medicine!)).not.toContain("View Best Deal");
      expect(textContent(other!)).toMatch(saving);
      expect(textContent(other!)).not.toContain("Prescription needed");
    }
  });

  it("is never the home page's hero, though featured and ranked first: the next featured product is", async () => {
    const html = await page("/");
    const hero = html.slice(html.indexOf("Today's example"), html.indexOf('data-testid="hero-offers"'));
    expect(hero).toContain(`href="/product/${plain.slug}"`);
    expect(hero).not.toContain(`href="/product/${pom.slug}"`);
  });
});
