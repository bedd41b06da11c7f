/**
 * The demo line on the public pages, in real builds of a small site: on the home page and on
 * product pages while demo offers are published; gone from every page once the demo is cleared
 * and the site rebuilt (a product the owner gave an offer keeps its page, without the line).
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAstroBuilder } from "../site-build/builder.ts";
import { readStored } from "../site-build/output.ts";
import { clearDemoCatalogue } from "../../data/db/demo.ts";
import { addOwnerCatalogue, type OwnerCatalogue } from "../../data/db/fixtures/owner-catalogue.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

const demoLine = "Demo catalogue: illustrative prices";

let temp: TempDb;
let owner: OwnerCatalogue;
let slugs: { adopted: string; demo: string; owner: string };
const builder = createAstroBuilder({ quiet: true, keepWarm: false, processes: 1 });

beforeAll(async () => {
  temp = await tempDb(4);
  const [first, second] = temp.db.$client.prepare("SELECT slug FROM products WHERE best_price_pence IS NOT NULL ORDER BY id LIMIT 2").pluck().all() as string[];
  owner = addOwnerCatalogue(temp.db, first!);
  const slugOf = (id: number) => temp.db.$client.prepare("SELECT slug FROM products WHERE id = ?").pluck().get(id) as string;
  slugs = { adopted: first!, demo: second!, owner: slugOf(owner.productId) };
});
afterAll(async () => {
  await builder.stop();
  temp.remove();
});

/** A built page's text (stored as it is, or compressed), or null when it was not built. */
async function page(outDir: string, file: string): Promise<string | null> {
  return (await readStored(outDir, file))?.toString("utf8") ?? null;
}
const occurrences = (html: string, text: string) => html.split(text).length - 1;

describe("the demo line", () => {
  it("is on every page while demo offers are published, and on none once the demo is cleared and the site rebuilt", async () => {
    const withDemo = path.join(path.dirname(temp.file), "with-demo");
    const built = await builder.full({ databaseFile: temp.file, outDir: withDemo });
    expect(built.ok, built.log).toBe(true);
    for (const file of ["index.html", `product/${slugs.demo}.html`, `product/${slugs.adopted}.html`, `product/${slugs.owner}.html`, "vouchers/index.html", "404.html"]) {
      const html = await page(withDemo, file);
      expect(html, file).not.toBeNull();
      expect(occurrences(html!, demoLine), file).toBe(1);
      expect(html!, file).toMatch(/<div [^>]*role="note"[^>]*>\s*<p[^>]*>\s*<strong[^>]*>Demo catalogue: illustrative prices<\/strong> <span[^>]*>&mdash; not real offers\.<\/span>\s*<\/p>/);
      // Latin-1 text only (these pages' data is ASCII): one character above U+00FF anywhere makes
      // V8 hold the whole page as two-byte text, and a build renders each page about a tenth slower.
      expect(html!.match(/[^\u0000-\u00ff]/g) ?? [], file).toEqual([]);
    }

    clearDemoCatalogue(temp.db);
    const live = path.join(path.dirname(temp.file), "live");
    const rebuilt = await builder.full({ databaseFile: temp.file, outDir: live });
    expect(rebuilt.ok, rebuilt.log).toBe(true);
    for (const file of ["index.html", `product/${slugs.adopted}.html`, `product/${slugs.owner}.html`, "vouchers/index.html", "404.html"]) {
      const html = await page(live, file);
      expect(html, file).not.toBeNull();
      expect(html!, file).not.toContain(demoLine);
      expect(html!, file).not.toContain("data-demo-notice");
    }
    expect(await page(live, `product/${slugs.demo}.html`)).toBeNull();
  }, 300_000);
});
