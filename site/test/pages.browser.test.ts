import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import type { Category } from "../../data/domain/catalogue.ts";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { expectAffiliateLink, islandsReady, launchBrowser, openPage, readAffiliateData, seriousA11yViolations } from "./browser.ts";

const baseUrl = inject("baseUrl");
const databaseFile = inject("databaseFile");
let browser: Browser;
let categories: Category[];
let product: Product;

beforeAll(async () => {
  browser = await launchBrowser();
  categories = (await (await fetch(`${baseUrl}/api/categories`)).json()) as Category[];
  product = ((await (await fetch(`${baseUrl}/api/products?sort=savings_desc&limit=1`)).json()) as Product[])[0]!;
});
afterAll(() => browser?.close());

describe("home page", () => {
  it("renders the hero, every seeded category and the top-selling products, without console errors", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(baseUrl);
    await expect(page.title()).resolves.toBe("Compare Pet Product Prices | PawPrice");
    await expect(page.locator("h1").textContent()).resolves.toBe("Find the Best Deals on Pet Products");
    expect(await page.getByRole("link", { name: "Browse Dog Products" }).getAttribute("href")).toBe("/category/dog-food");
    expect(await page.getByRole("link", { name: "Browse Cat Products" }).getAttribute("href")).toBe("/category/cat-food");
    const tiles = page.locator('section[aria-labelledby="categories-title"] a');
    await expect(tiles.count()).resolves.toBe(categories.length);
    await expect(page.getByRole("heading", { name: "Top-Selling Pet Products" }).isVisible()).resolves.toBe(true);
    await expect(page.getByTestId("product-card").count()).resolves.toBe(15);
    const [first] = (await (await fetch(`${baseUrl}/api/products?limit=1`)).json()) as Product[];
    await expect(page.getByTestId("product-card").first().textContent()).resolves.toContain(first!.name);
    for (const heading of ["Shop by Category", "Vouchers & Offers", "We Compare Prices From"]) {
      await expect(page.getByRole("heading", { name: heading }).isVisible()).resolves.toBe(true);
    }
    // Each card's View Best Deal goes to its best offer, tagged by the affiliate rules.
    await islandsReady(page);
    const affiliate = readAffiliateData(databaseFile);
    const deals = await page.getByTestId("product-card").evaluateAll((cards) =>
      cards.flatMap((card) => {
        const deal = [...card.querySelectorAll("a")].find((a) => a.textContent?.includes("View Best Deal"));
        return deal ? [{ product: card.querySelector("h3 a")!.getAttribute("href")!, href: deal.getAttribute("href") }] : [];
      }),
    );
    expect(deals.length).toBeGreaterThan(0);
    for (const deal of deals) expectAffiliateLink(deal.href, affiliate.bestOffer(deal.product.replace("/product/", "")), affiliate.ids);
    affiliate.close();
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the hero example's prices to the door in listing order, marks the lowest in-stock total, and keeps them to the door under the toggle", async () => {
    const featured = ((await (await fetch(`${baseUrl}/api/products/featured?limit=1`)).json()) as Product[])[0]!;
    const shown = featured.prices.slice(0, 4);
    const pounds = (value: number) => `£${value.toFixed(2)}`;
    const { page, context } = await openPage(browser);
    await page.goto(baseUrl);
    const prices = page.getByTestId("hero-offer-price");
    // An offer out of stock says so in words before its price, which is not struck through (that would read as a "was" price).
    const expected = (pick: (offer: (typeof shown)[number]) => number) => shown.map((offer) => `${offer.inStock ? "" : "Out of stock "}${pounds(pick(offer))}`);
    await expect(prices.allInnerTexts()).resolves.toEqual(expected((offer) => offer.total));
    await expect(page.getByTestId("hero-price-basis").innerText()).resolves.toBe("Prices to your door, delivery included");
    // Cheapest to the door first among the offers in stock, and the best price on the lowest total.
    const inStockTotals = shown.filter((offer) => offer.inStock).map((offer) => offer.total);
    expect(inStockTotals).toEqual(inStockTotals.toSorted((a, b) => a - b));
    const bestRow = page.getByTestId("hero-offer").filter({ hasText: "Best price" });
    await expect(bestRow.count()).resolves.toBe(1);
    await expect(bestRow.getByTestId("hero-offer-price").innerText()).resolves.toBe(pounds(Math.min(...inStockTotals)));
    expect(await page.getByTestId("hero-offers").locator("s, del, .line-through").count()).toBe(0);
    // The visitor's choice of item prices acts on product pages only: here the prices stay to the door.
    await page.evaluate(() => localStorage.setItem("price_view", "item"));
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.getAttribute("data-price-view"))).toBe("item");
    await expect(prices.allInnerTexts()).resolves.toEqual(expected((offer) => offer.total));
    await expect(page.getByTestId("hero-price-basis").innerText()).resolves.toBe("Prices to your door, delivery included");
    await context.close();
  });

  it.each([375, 768, 1024, 1280])("fits every card's buttons inside the card at %i px", async (width) => {
    const { page, context } = await openPage(browser, { width });
    await page.goto(baseUrl);
    const overflowing = await page.getByTestId("product-card").evaluateAll((cards) =>
      cards.flatMap((card, index) => {
        const box = card.getBoundingClientRect();
        return [...card.querySelectorAll("a, button")].some((el) => el.getBoundingClientRect().right > box.right + 0.5) ? [index] : [];
      }),
    );
    expect(overflowing).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await context.close();
  });

  it("ships the product grid in the static HTML for crawlers and no-JS visitors", async () => {
    const html = await (await fetch(baseUrl)).text();
    expect((html.match(/data-testid="product-card"/g) ?? []).length).toBe(15);
  });
});

describe("category page", () => {
  it("shows the category heading, text and its products only", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/category/dog-food`);
    await expect(page.title()).resolves.toBe("Dog Food | PawPrice");
    await expect(page.locator("h1").textContent()).resolves.toBe("Dog Food");
    await expect(page.getByText("Browse the best deals on Dog Food from top UK pet retailers").isVisible()).resolves.toBe(true);
    await expect(page.getByRole("heading", { name: "Dog Food - Best Deals" }).isVisible()).resolves.toBe(true);
    const { count } = (await (await fetch(`${baseUrl}/api/products/count?category=dog-food`)).json()) as { count: number };
    await expect(page.getByTestId("product-card").count()).resolves.toBe(Math.min(15, count));
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("product page", () => {
  it("shows member prices beside standard ones with the scheme named, and a member's totals once they say they are a member; another visitor's page stays standard", async () => {
    const products = (await (await fetch(`${baseUrl}/api/products?category=dog-food&limit=100`)).json()) as Product[];
    const withMember = products.find((candidate) => candidate.prices.some((offer) => offer.memberScheme !== null))!;
    expect(withMember, "the demo catalogue has member prices on dog food").toBeDefined();
    const scheme = withMember.prices.find((offer) => offer.memberScheme !== null)!.memberScheme!;
    const pounds = (value: number) => `£${value.toFixed(2)}`;
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${withMember.slug}`);
    const rows = page.locator('section[aria-labelledby="compare-heading"] table tbody tr');
    const read = () =>
      rows.evaluateAll((trs) =>
        trs.map((tr) => {
          const total = tr.querySelector<HTMLElement>("[data-testid=offer-member-total]");
          return {
            retailer: tr.querySelector("th")!.textContent!.trim(),
            price: tr.querySelector("[data-testid=offer-member-price]")?.textContent ?? null,
            total: total && total.checkVisibility() ? total.textContent!.trim() : null,
          };
        }),
      );
    // Everyone sees each member price with its scheme, in the rows' order (ranked on what anyone pays).
    const standard = await read();
    expect(standard.map((row) => row.price)).toEqual(withMember.prices.map((offer) => (offer.memberScheme === null ? null : `${offer.memberScheme} price: ${pounds(offer.memberPrice!)}`)));
    expect(standard.every((row) => row.total === null)).toBe(true);
    // A member sees their totals to the door in that scheme's rows, and only there; the order stays.
    await page.getByLabel(`I'm a ${scheme} member`).check();
    const member = await read();
    expect(member.map((row) => row.retailer)).toEqual(standard.map((row) => row.retailer));
    expect(member.map((row) => row.total)).toEqual(
      withMember.prices.map((offer) => (offer.memberScheme === scheme ? `${pounds(offer.memberTotal!)} to your door as a ${scheme} member` : null)),
    );
    expect(await page.evaluate(() => localStorage.getItem("member_schemes"))).toBe(JSON.stringify([scheme]));
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Kept for this visitor's next visit; another visitor's page shows no member totals.
    await page.reload();
    await expect.poll(async () => (await read()).map((row) => row.total)).toEqual(member.map((row) => row.total));
    const other = await openPage(browser);
    await other.page.goto(`${baseUrl}/product/${withMember.slug}`);
    expect(await other.page.locator("[data-testid=offer-member-total]:visible").count()).toBe(0);
    expect(await other.page.getByLabel(`I'm a ${scheme} member`).isChecked()).toBe(false);
    await other.context.close();
    // Unticked: standard again.
    await page.getByLabel(`I'm a ${scheme} member`).uncheck();
    expect((await read()).every((row) => row.total === null)).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("member_schemes"))).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows a retailer's multi-buy under its item price, and no other row says one", async () => {
    const products = (await (await fetch(`${baseUrl}/api/products?category=cat-food&limit=100`)).json()) as Product[];
    const withMultiBuy = products.find((candidate) => candidate.prices.some((offer) => offer.multiBuy !== null))!;
    expect(withMultiBuy, "the demo catalogue has multi-buys on cat food").toBeDefined();
    const { page, errors, context } = await openPage(browser, { width: 375, height: 800 });
    await page.goto(`${baseUrl}/product/${withMultiBuy.slug}`);
    const rows = page.locator('section[aria-labelledby="compare-heading"] table tbody tr');
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector("th")!.textContent!.trim(), tr.querySelector("[data-testid=offer-multi-buy]")?.textContent ?? null]),
    );
    expect(shown.map(([, multiBuy]) => multiBuy)).toEqual(withMultiBuy.prices.map((offer) => (offer.multiBuy === null ? null : `Multi-buy: ${offer.multiBuy}`)));
    expect(shown.filter(([, multiBuy]) => multiBuy !== null).length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows breadcrumb, best price, the compare table and valid JSON-LD", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${baseUrl}/product/${product.slug}`);
    await expect(page.title()).resolves.toBe(`${product.name} - PawPrice`);
    await expect(page.locator("h1").textContent()).resolves.toBe(product.name);
    const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
    expect(await crumbs.getByRole("link", { name: product.category.name }).getAttribute("href")).toBe(`/category/${product.category.slug}`);
    await expect(page.getByRole("heading", { name: "Compare All Prices" }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("heading", { name: "Price History" }).isVisible()).resolves.toBe(true);
    expect(await page.locator('section[aria-labelledby="history-heading"] svg path').count()).toBeGreaterThan(0);
    const offersTable = page.locator('section[aria-labelledby="compare-heading"] table');
    const rows = offersTable.locator("tbody tr");
    await expect(rows.count()).resolves.toBe(product.prices.length);
    const table = await offersTable.textContent();
    for (const offer of product.prices) expect(table).toContain(offer.retailer.name);
    expect(table).toMatch(/In stock|Out of stock/);
    // Each row: price to the door, item price and delivery, ranked by the total (in stock first).
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => ({
        total: tr.querySelector("[data-testid=offer-total]")!.textContent!,
        item: tr.querySelector("[data-testid=offer-item]")!.textContent!,
        delivery: tr.querySelector("[data-testid=offer-delivery]")!.textContent!,
        multiBuy: tr.querySelector("[data-testid=offer-multi-buy]")?.textContent ?? null,
      })),
    );
    const pounds = (price: number) => `£${price.toFixed(2)}`;
    expect(shown.map((row) => row.delivery)).toEqual(
      product.prices.map((offer) => (offer.delivery === null ? "Delivery not stated" : offer.delivery === 0 ? "Free delivery" : `+ ${pounds(offer.delivery)} delivery`)),
    );
    product.prices.forEach((offer, i) => {
      expect(shown[i]!.total).toContain(pounds(offer.total));
      expect(shown[i]!.item).toContain(pounds(offer.price));
      // A multi-buy shows under the item price, in the site's words.
      expect(shown[i]!.multiBuy).toBe(offer.multiBuy === null ? null : `Multi-buy: ${offer.multiBuy}`);
    });
    const inStockTotals = product.prices.filter((offer) => offer.inStock && !offer.stale).map((offer) => offer.total);
    expect(inStockTotals).toEqual([...inStockTotals].sort((a, b) => a - b));
    const links = offersTable.locator("a[rel~=sponsored]");
    await expect(links.count()).resolves.toBe(product.prices.length);
    // Every offer links to the retailer's own URL with that retailer's affiliate tag.
    const affiliate = readAffiliateData(databaseFile);
    const offers = affiliate.offers(product.slug);
    const linked = await rows.evaluateAll((trs) =>
      trs.map((tr) => ({ row: tr.textContent!, retailer: tr.querySelector("a")!.dataset.retailer!, href: tr.querySelector("a")!.getAttribute("href") })),
    );
    expect(linked.map((link) => link.retailer).sort()).toEqual([...offers.keys()].sort());
    for (const { row, retailer, href } of linked) {
      expect(row).toContain(retailer);
      expectAffiliateLink(href, { retailer, url: offers.get(retailer)! }, affiliate.ids);
    }
    affiliate.close();

    type JsonLdNode = {
      "@type": string;
      name: string;
      offers: { "@type": string; lowPrice: string; highPrice: string; offerCount: number; priceCurrency: string };
    };
    const graph = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!) as { "@graph": JsonLdNode[] };
    const jsonLd = graph["@graph"].find((node) => node["@type"] === "Product")!;
    expect(graph["@graph"].some((node) => node["@type"] === "BreadcrumbList")).toBe(true);
    expect(jsonLd["@type"]).toBe("Product");
    expect(jsonLd.name).toBe(product.name);
    expect(jsonLd.offers["@type"]).toBe("AggregateOffer");
    expect(jsonLd.offers.priceCurrency).toBe("GBP");
    expect(jsonLd.offers.offerCount).toBe(product.prices.length);
    expect(Number(jsonLd.offers.lowPrice)).toBe(product.bestPrice);
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toMatch(new RegExp(`/product/${product.slug}$`));
    expect(await page.locator('meta[property="og:type"]').getAttribute("content")).toBe("product");
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows each offer of the compare table as a card on a 375 px phone, the table still read as one", async () => {
    const { page, errors, context } = await openPage(browser, { width: 375, height: 800 });
    await page.goto(`${baseUrl}/product/${product.slug}`);
    const table = page.getByRole("table", { name: `Prices for ${product.name} at each retailer, cheapest in stock first` });
    // A heading row and one row per offer, in the ranked order, each with its row heading.
    const rows = table.getByRole("row");
    await expect(rows.count()).resolves.toBe(product.prices.length + 1);
    expect(await table.getByRole("rowheader").allInnerTexts()).toEqual(product.prices.map((offer) => expect.stringContaining(offer.retailer.name)));
    // The column headings are read, not shown: each card says what its figures are.
    expect((await table.locator("thead").boundingBox())!.height).toBeLessThanOrEqual(1);
    const cards = table.locator("tbody tr");
    await expect(cards.count()).resolves.toBe(product.prices.length);
    const layout = await cards.evaluateAll((trs) =>
      trs.map((tr) => {
        const box = (selector: string) => tr.querySelector(selector)!.getBoundingClientRect();
        const style = getComputedStyle(tr);
        return {
          display: style.display,
          rounded: parseFloat(style.borderTopLeftRadius) > 0,
          total: (tr.querySelector("[data-testid=offer-total]") as HTMLElement).innerText,
          totalBox: box("[data-testid=offer-total]"),
          linkBox: box("a[rel~=sponsored]"),
          retailerBox: box("th"),
          itemBox: box("[data-testid=offer-item]"),
        };
      }),
    );
    const pounds = (price: number) => `£${price.toFixed(2)}`;
    layout.forEach((card, i) => {
      expect(card.display).toBe("flex");
      expect(card.rounded).toBe(true);
      expect(card.total).toContain(`${pounds(product.prices[i]!.total)} to your door`);
      // The retailer on top; the price with the View link on its right; item price and delivery below.
      expect(card.totalBox.top).toBeGreaterThanOrEqual(card.retailerBox.bottom);
      expect(card.linkBox.left).toBeGreaterThan(card.totalBox.left + 100);
      expect(card.linkBox.right).toBeLessThanOrEqual(375);
      expect(card.itemBox.top).toBeGreaterThanOrEqual(card.totalBox.bottom);
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("answers an unknown product with 'Product Not Found' and status 404", async () => {
    const { page, context } = await openPage(browser);
    const response = await page.goto(`${baseUrl}/product/no-such-product`);
    expect(response?.status()).toBe(404);
    await expect(page.locator("h1").textContent()).resolves.toBe("Product Not Found");
    await expect(page.getByText("The product you are looking for does not exist or has been removed.").isVisible()).resolves.toBe(true);
    await context.close();
  });
});

describe("other pages", () => {
  it("shows the 404 page for any other path", async () => {
    const { page, context } = await openPage(browser);
    const response = await page.goto(`${baseUrl}/no/such/page`);
    expect(response?.status()).toBe(404);
    await expect(page.locator("h1").textContent()).resolves.toBe("404 Page Not Found");
    await context.close();
  });

  it.each(["/privacy-policy", "/cookie-policy", "/about", "/contact", "/partner-with-us", "/how-we-compare"])(
    "%s renders with no React and no console errors",
    async (path) => {
      const { page, errors, context } = await openPage(browser);
      const response = await page.goto(`${baseUrl}${path}`);
      expect(response?.status()).toBe(200);
      expect(await page.locator("astro-island").count()).toBe(0);
      await page.waitForLoadState("networkidle");
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it("serves hashed assets gzipped and cached for a year, pages revalidated", async () => {
    const html = await (await fetch(baseUrl)).text();
    // The header's script: large enough to be stored precompressed (the smallest files are not).
    const script = /src="(\/_astro\/Header[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(baseUrl + script, { headers: { "accept-encoding": "gzip" } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-encoding")).toBe("gzip");
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect((await asset.text()).length).toBeGreaterThan(0);
    const page = await fetch(baseUrl);
    // Browsers revalidate a page on every visit; a CDN may keep it briefly (s-maxage).
    expect(page.headers.get("cache-control")).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    // No site may frame our pages; scripts run only from here or by the build's hashes.
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*;/);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    // The 404 page carries them too.
    const missing = await fetch(`${baseUrl}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(missing.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = page.headers.get("etag")!;
    expect((await fetch(baseUrl, { headers: { "if-none-match": etag } })).status).toBe(304);
  });

  it("publishes a sitemap index and robots.txt", async () => {
    const index = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
    expect(index).toContain("<sitemapindex");
    const products = await (await fetch(`${baseUrl}/sitemaps/products-1.xml`)).text();
    expect(products).toContain(`/product/${product.slug}</loc>`);
    const robots = await (await fetch(`${baseUrl}/robots.txt`)).text();
    expect(robots).toMatch(/Sitemap: .*\/sitemap\.xml/);
    expect(robots).toContain("Disallow: /admin");
  });
});

describe("accessibility (axe-core)", () => {
  it.each(["/", "/category/cat-food", "PRODUCT", "/search?q=royal", "/vouchers"])("%s has no serious or critical violations", async (path) => {
    const { page, context } = await openPage(browser);
    await page.goto(`${baseUrl}${path === "PRODUCT" ? `/product/${product.slug}` : path}`);
    await page.waitForLoadState("networkidle");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });
});
