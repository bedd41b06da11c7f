/**
 * The real Astro build behind the rebuild job, on a small catalogue: a full build into a
 * release (stored precompressed, with the CSP hashes of its inline scripts), fast rebuilds laid
 * over it (rendering what a full build renders from the same data; one product's price change),
 * and a full build killed half-way (the live site stays as it was).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { findAll, getAttributeValue, textContent } from "domutils";
import { parseDocument } from "htmlparser2";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import { createSiteRebuilder, type SiteRebuilder } from "../jobs/site-rebuild.ts";
import { createAstroBuilder } from "../site-build/builder.ts";
import { readStored } from "../site-build/output.ts";
import { readPacked, readPackedPages } from "../site-build/page-pack.ts";
import { readReleaseMeta, readScriptHashes } from "../site-build/releases.ts";
import { treeHash } from "./files.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import { getProductById } from "../../data/db/products.ts";
import { formatPrice } from "../../data/domain/display.ts";

let temp: TempDb;
let releasesDir: string;
let site: SiteRebuilder;
const astro = createAstroBuilder({ quiet: true });

beforeAll(async () => {
  temp = await tempDb(30);
  releasesDir = path.join(path.dirname(temp.file), "releases");
  site = createSiteRebuilder({ db: temp.db, databaseFile: temp.file, releasesDir, delayMs: 10, build: astro, log: () => {} });
  await vi.waitFor(() => expect(site.status()).toMatchObject({ state: "idle", lastBuild: { kind: "full" } }), {
    timeout: 170_000,
    interval: 200,
  });
}, 180_000);

afterAll(async () => {
  await site.stop();
  await site.cleanedUp();
  temp.remove();
});

const request = (pathname: string, init?: RequestInit) =>
  createApp({ db: temp.db }, { siteRoot: () => site.currentRoot() }).request(pathname, init);

async function get(pathname: string): Promise<{ status: number; text: string }> {
  const response = await request(pathname);
  return { status: response.status, text: await response.text() };
}

/** A release's stored files by their own names (index.html for index.html.gz too) and its packed pages, dot files left out. */
const storedFiles = (root: string) => [
  ...new Set([
    ...Object.keys(treeHash(root))
      .filter((file) => !file.startsWith("."))
      .map((file) => file.replace(/\.(?:gz|br)$/, "")),
    ...(readPackedPages(root)?.paths() ?? []),
  ]),
];

/** A stored file's text, from whichever form it was stored in. */
const readPage = async (root: string, file: string) => (await readStored(root, file))!.toString("utf8");

/**
 * The CSP hashes of a page's executable inline scripts, found with an HTML parser: scripts
 * without src whose type is absent, "module" or text/javascript (not JSON data blocks).
 */
function parsedScriptHashes(html: string): string[] {
  const scripts = findAll((element) => element.name === "script", parseDocument(html).children);
  return scripts
    .filter((script) => getAttributeValue(script, "src") === undefined)
    .filter((script) => ["", "module", "text/javascript"].includes((getAttributeValue(script, "type") ?? "").toLowerCase()))
    .map((script) => `sha256-${crypto.createHash("sha256").update(textContent(script)).digest("base64")}`);
}

/** The price-history chart is drawn up to the moment of rendering; everything else must match. */
const withoutChart = (html: string) => html.replace(/<path d="[^"]*"/g, '<path d="…"');

/** Where two texts first differ, with some context from each; null when they are equal. */
function firstDifference(expected: string, actual: string): { expected: string; actual: string } | null {
  if (expected === actual) return null;
  let at = 0;
  while (expected[at] === actual[at]) at++;
  return { expected: expected.slice(Math.max(0, at - 80), at + 80), actual: actual.slice(Math.max(0, at - 80), at + 80) };
}

const products = () => temp.db.$client.prepare("SELECT id, slug FROM products ORDER BY id").all() as { id: number; slug: string }[];

describe("the real site build", () => {
  let firstRelease: string;
  let firstTree: Record<string, string>;
  let changed: { id: number; slug: string };
  /** The product the first fast build rendered, unchanged. */
  let unchanged: { id: number; slug: string };
  let newPrice: string;

  it("builds every page into a release and serves it, without the server bundle", async () => {
    const record = site.status().lastBuild!;
    expect(record).toMatchObject({ kind: "full", result: "succeeded" });
    // 30 products, their categories, the static pages and the sitemaps.
    expect(record.pages).toBeGreaterThan(50);
    firstRelease = site.currentRoot()!;
    expect(readReleaseMeta(firstRelease)).toMatchObject({ kind: "full", base: null });
    expect(fs.readdirSync(firstRelease).filter((name) => name.startsWith(".")).sort()).toEqual([".csp.json", ".pages-1.pack", ".pages.json", ".release.json"]);
    expect(fs.readdirSync(path.join(firstRelease, "_astro")).some((name) => name.endsWith(".js.gz"))).toBe(true);
    expect(fs.readdirSync(path.join(firstRelease, "_astro")).some((name) => name.endsWith(".css.br"))).toBe(true);
    firstTree = treeHash(firstRelease);

    const [first] = products();
    const page = await get(`/product/${first!.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(getProductById(temp.db, first!.id)!.name.replace(/&/g, "&amp;"));
    expect((await get("/")).status).toBe(200);
  });

  it("stores product pages as brotli only, packed, and the other text files also as they are, with brotli and gzip forms of the same bytes", async () => {
    const [first] = products();
    // Every product page in the release's one pack, none a file of its own.
    expect(fs.existsSync(path.join(firstRelease, "product"))).toBe(false);
    const packed = readPackedPages(firstRelease)!;
    expect(packed.paths().sort()).toEqual(products().map(({ slug }) => `product/${slug}.html`).sort());
    const page = zlib.brotliDecompressSync(await readPacked(packed.get(`product/${first!.slug}.html`)!)).toString("utf8");
    expect(page).toMatch(/^<!DOCTYPE html>/i);
    const name = temp.db.$client.prepare("SELECT name FROM products WHERE id = ?").pluck().get(first!.id) as string;
    expect(findAll((element) => element.name === "h1", parseDocument(page).children).map(textContent)).toEqual([name]);
    for (const file of ["index.html", "category/dog-food/index.html", "sitemaps/products-1.xml"]) {
      const plain = fs.readFileSync(path.join(firstRelease, file));
      expect(zlib.gunzipSync(fs.readFileSync(path.join(firstRelease, `${file}.gz`))), file).toEqual(plain);
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(firstRelease, `${file}.br`))), file).toEqual(plain);
    }
  });

  it("serves each page compressed to browsers, as it is to clients without Accept-Encoding; both decode to the page", async () => {
    const [first] = products();
    for (const [pathname, file] of [
      ["/", "index.html"],
      [`/product/${first!.slug}/`, `product/${first!.slug}.html`],
    ] as const) {
      const page = await readPage(firstRelease, file);
      const compressed = await request(pathname, { headers: { "accept-encoding": "gzip, deflate, br, zstd" } });
      const body = Buffer.from(await compressed.arrayBuffer());
      const encoding = compressed.headers.get("content-encoding");
      expect(encoding, pathname).toBe("br");
      expect((encoding === "br" ? zlib.brotliDecompressSync(body) : zlib.gunzipSync(body)).toString(), pathname).toBe(page);
      const plain = await request(pathname);
      expect(plain.headers.get("content-encoding")).toBeNull();
      expect(await plain.text()).toBe(page);
    }
  });

  it("lists exactly the hashes of the built pages' inline scripts, and allows them on every page", async () => {
    const listed = readScriptHashes(firstRelease);
    const found = new Set<string>();
    const pages = storedFiles(firstRelease).filter((file) => file.endsWith(".html"));
    expect(pages.length).toBeGreaterThan(50);
    for (const page of pages) for (const hash of parsedScriptHashes(await readPage(firstRelease, page))) found.add(hash);
    expect(found.size).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual([...found].sort());
    const [first] = products();
    for (const pathname of ["/", `/product/${first!.slug}`, "/nowhere", "/admin/products", "/favicon.svg"]) {
      const policy = (await request(pathname)).headers.get("content-security-policy") ?? "";
      for (const hash of found) expect(policy, pathname).toContain(`'${hash}'`);
    }
  });

  it("gives every page with an island Astro's island script before its first island, whatever page of the pass rendered the repeated HTML", async () => {
    // Pages repeat HTML rendered once per pass (SameOnEveryPage); the island script goes with the
    // first island a page renders, so a page whose own island (the feeding cost on foods) came first
    // would leave the repeated HTML without it on every other page.
    const pages = storedFiles(firstRelease).filter((file) => file.endsWith(".html"));
    let withIslands = 0;
    for (const page of pages) {
      const html = await readPage(firstRelease, page);
      const island = html.indexOf("<astro-island");
      if (island < 0) continue;
      withIslands++;
      const script = html.indexOf('customElements.define("astro-island"');
      expect(script, page).toBeGreaterThanOrEqual(0);
      expect(script, page).toBeLessThan(island);
    }
    expect(withIslands).toBeGreaterThan(30);
  });

  it("renders, in a fast build, the very pages a full build renders from the same data", async () => {
    unchanged = products()[2]!;
    const record = await site.request({ productIds: [unchanged.id] });
    expect(record).toMatchObject({ kind: "fast", result: "succeeded" });
    const fastRoot = site.currentRoot()!;
    const pages = storedFiles(fastRoot);
    expect(pages).toContain(`product/${unchanged.slug}.html`);
    expect(pages).toContain("index.html");
    for (const page of pages) {
      const read = async (root: string) => withoutChart(await readPage(root, page));
      expect(firstDifference(await read(firstRelease), await read(fastRoot)), page).toBeNull();
    }
    expect(readScriptHashes(fastRoot).length).toBeGreaterThan(0);
  }, 60_000);

  it("renders one product's price change as a fast release over the full one", async () => {
    changed = products()[4]!;
    const other = products()[5]!;
    const otherBefore = await get(`/product/${other.slug}`);
    temp.db.$client
      .prepare("UPDATE product_prices SET price_pence = 123, price_override = 0, in_stock = 1 WHERE product_id = ?")
      .run(changed.id);
    recomputeBestPrices(temp.db, [changed.id]);
    newPrice = formatPrice(1.23);

    const record = await site.request({ productIds: [changed.id], categoryIds: [1] });
    expect(record).toMatchObject({ kind: "fast", result: "succeeded" });
    const root = site.currentRoot()!;
    expect(readReleaseMeta(root)).toMatchObject({ kind: "fast", base: path.basename(firstRelease) });
    // Its own product page and the one the earlier fast build rendered (carried forward), no other;
    // the pages listing products; none of the pages without product data.
    expect(fs.readdirSync(path.join(root, "product")).sort()).toEqual([`${changed.slug}.html.br`, `${unchanged.slug}.html.br`].sort());
    for (const page of ["index.html", "category/dog-food/index.html", "sitemap.xml", "sitemaps/products-1.xml"]) {
      expect(fs.existsSync(path.join(root, page)), page).toBe(true);
    }
    for (const page of ["about/index.html", "vouchers/index.html", "404.html"])
      expect(fs.existsSync(path.join(root, page)), page).toBe(false);
    expect((await get(`/product/${changed.slug}`)).text).toContain(newPrice);
    expect(await get(`/product/${other.slug}`)).toEqual(otherBefore);
    expect(treeHash(firstRelease)).toEqual(firstTree);
  }, 60_000);

  it("shows a renamed category in the frame (header menu, footer) of every page the next build renders, product pages included", async () => {
    // The frame is rendered once per build and repeated on each page: a new build renders it anew.
    const category = temp.db.$client.prepare("SELECT id, name FROM categories ORDER BY id LIMIT 1").get() as { id: number; name: string };
    const renamed = `${category.name} Renamed ${Date.now()}`;
    temp.db.$client.prepare("UPDATE categories SET name = ? WHERE id = ?").run(renamed, category.id);
    const record = await site.request({ siteWide: true });
    expect(record).toMatchObject({ kind: "full", result: "succeeded" });
    const [first, second] = products();
    for (const pathname of [`/product/${first!.slug}`, `/product/${second!.slug}`, "/", "/about"]) {
      const page = await get(pathname);
      const header = page.text.slice(page.text.indexOf("<header"), page.text.indexOf("</header>"));
      const html = (text: string) => text.replace(/&/g, "&amp;");
      expect(header, pathname).toContain(`>${html(renamed)}</a>`);
      expect(header, pathname).not.toContain(`>${html(category.name)}</a>`);
    }
  }, 120_000);

  it("shows no stars, no score and no aggregateRating for a product without reviews, whatever rating is stored", async () => {
    const [withReviews, noReviews, imported] = [products()[6]!, products()[7]!, products()[8]!];
    const update = temp.db.$client.prepare("UPDATE products SET rating = ?, review_count = ? WHERE id = ?");
    update.run(4.2, 12, withReviews.id);
    update.run(4.5, 0, noReviews.id); // the admin form's old default
    update.run(0, 0, imported.id); // what an import stores
    const record = await site.request({ productIds: [withReviews.id, noReviews.id, imported.id] });
    expect(record).toMatchObject({ kind: "fast", result: "succeeded" });

    const productLd = (html: string) => {
      const blocks = findAll((element) => element.name === "script" && getAttributeValue(element, "type") === "application/ld+json", parseDocument(html).children);
      const graph = blocks.flatMap((block) => (JSON.parse(textContent(block)) as { "@graph"?: Record<string, unknown>[] })["@graph"] ?? []);
      return graph.find((node) => node["@type"] === "Product")!;
    };
    for (const product of [noReviews, imported]) {
      const html = (await get(`/product/${product.slug}`)).text;
      expect(productLd(html), product.slug).not.toHaveProperty("aggregateRating");
      expect(html, product.slug).not.toContain('data-testid="product-rating"');
      expect(html, product.slug).not.toMatch(/Rated \d/);
      expect(html, product.slug).not.toMatch(/>\s*(?:4\.5|0\.0)\s*</);
      expect(html, product.slug).toContain('data-testid="no-reviews"');
    }
    const rated = (await get(`/product/${withReviews.slug}`)).text;
    expect(rated).toContain('data-testid="product-rating"');
    expect(rated).toContain("Rated 4.2 out of 5");
    expect(productLd(rated).aggregateRating).toMatchObject({ ratingValue: "4.2", reviewCount: 12 });
  }, 60_000);

  it("labels retailer links as affiliate links, never as sponsored or paid placement (which the site does not sell)", async () => {
    const product = products()[0]!;
    for (const path of ["/", `/product/${product.slug}`, "/how-we-compare", "/cookie-policy", "/partner-with-us"]) {
      expect((await get(path)).text, path).not.toMatch(/Sponsored link|>\s*Paid links?\s*<|Paid links are|marked 'Sponsored'/i);
    }
    const page = (await get(`/product/${product.slug}`)).text;
    expect(page).toContain(">Affiliate link</span>");
    expect(page).toContain(">Affiliate links</span>");
  }, 60_000);

  it("leaves the live site as it was when the build process is killed half-way", async () => {
    const current = site.status().current;
    const liveTree = treeHash(site.currentRoot()!);
    const result = site.request({ siteWide: true });
    // Half-way: Astro has written its server bundle into the new release's folder.
    await vi.waitFor(
      () => {
        const building = fs.readdirSync(releasesDir).find((name) => name.startsWith(".building-"));
        expect(building && fs.existsSync(path.join(releasesDir, building, ".prerender"))).toBe(true);
      },
      { timeout: 60_000, interval: 50 },
    );
    process.kill(astro.pid!, "SIGKILL");
    const record = await result;
    expect(record).toMatchObject({ kind: "full", result: "failed" });
    expect(record!.logTail).toMatch(/SIGKILL/);
    expect(site.status().current).toBe(current);
    expect(treeHash(site.currentRoot()!)).toEqual(liveTree);
    expect(treeHash(firstRelease)).toEqual(firstTree);
    expect((await get(`/product/${changed.slug}`)).text).toContain(newPrice);
    await vi.waitFor(() => expect(fs.readdirSync(releasesDir).filter((name) => name.startsWith(".building-"))).toEqual([]));
  }, 90_000);
});
