/**
 * Packshots on a category page: every card shows an image that loaded, and for the demo catalogue
 * (which has no photos) that image is the product's drawn packshot, never the grey placeholder.
 */
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from "vitest";
import type { Browser } from "playwright-core";
import { categoryPath, favoritesPath, packshotPath, productPath } from "../../data/domain/paths.ts";
import { randomIdAlphabet, randomIdLength } from "../../data/domain/visitor-id.ts";
import type { Product } from "../../data/domain/catalogue.ts";
import { launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
const adminPassword = inject("adminPassword");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("packshots on a category page", () => {
  for (const width of [1280, 375]) {
    it(`shows every card's packshot, loaded, named by the product (${width} px wide)`, async () => {
      const products = (await (await fetch(`${baseUrl}/api/products?category=dog-food&limit=12`)).json()) as Product[];
      expect(products.length).toBeGreaterThan(3);
      const { page, context, errors } = await openPage(browser, { width });
      const svgAnswers: string[] = [];
      page.on("response", (response) => {
        if (response.url().includes("/api/packshot/") && response.status() === 200) svgAnswers.push(response.headers()["content-type"] ?? "");
      });
      await page.goto(baseUrl + categoryPath("dog-food"));
      // The card's picture: the image inside its picture link (retailer logos are other images).
      const images = page.getByTestId("product-card").locator("a[aria-hidden=true] img");
      const count = await images.count();
      expect(count).toBeGreaterThanOrEqual(products.length);
      for (let i = 0; i < count; i++) {
        const image = images.nth(i);
        await image.scrollIntoViewIfNeeded();
        // Lazy images load once near the viewport: wait until this one has.
        await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
        const { src, alt } = await image.evaluate((img: HTMLImageElement) => ({ src: new URL(img.currentSrc).pathname, alt: img.alt }));
        expect(src).not.toContain("/api/placeholder/");
        expect(src).toMatch(/^\/api\/packshot\/[a-z0-9-]+\.svg$/);
        // The drawing is the card's own product's, and its text alternative is the product's name.
        const slug = decodeURIComponent(src.slice("/api/packshot/".length, -".svg".length));
        const card = page.getByTestId("product-card").nth(i);
        expect(await card.locator(`a[href$="/product/${slug}"]`).count(), slug).toBeGreaterThan(0);
        expect(packshotPath(slug)).toBe(src);
        expect(alt.length).toBeGreaterThan(0);
        expect((await card.getByRole("heading").first().textContent())?.trim()).toBe(alt);
      }
      expect(svgAnswers.length).toBeGreaterThan(0);
      expect(new Set(svgAnswers)).toEqual(new Set(["image/svg+xml; charset=utf-8"]));
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe("a product picture that does not load", () => {
  it("gives way to the product's packshot on the favourites page and, once rebuilt, on the product page", async () => {
    // Another category than the one above, whose cards must all stay packshots; its worst seller, so
    // no other test's page (home's best sellers and featured products, searches) shows the broken
    // picture while this test runs, and the picture is put back at the end.
    const product = ((await (await fetch(`${baseUrl}/api/products?category=bird-food&limit=100`)).json()) as Product[]).at(-1);
    const login = await fetch(`${baseUrl}/api/admin/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ password: adminPassword }) });
    const cookie = /^[^;]+/.exec(login.headers.get("set-cookie") ?? "")![0];
    const { id: _id, ...form } = (await (await fetch(`${baseUrl}/api/admin/products/${product!.id}`, { headers: { cookie } })).json()) as Record<string, unknown>;
    // A feed image on a server that cannot be reached (the browser refuses port 9). An http:
    // image would not load at all: the pages' policy allows https images only.
    const gone = "https://127.0.0.1:9/images/gone.jpg";
    const saved = await fetch(`${baseUrl}/api/products/${product!.id}`, { method: "PUT", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ ...form, image: gone }) });
    expect(saved.status).toBe(200);
    onTestFinished(async () => {
      const restored = await fetch(`${baseUrl}/api/products/${product!.id}`, { method: "PUT", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(form) });
      expect(restored.status).toBe(200);
    });

    const visitor = `user_${Array.from({ length: randomIdLength }, () => randomIdAlphabet[Math.floor(Math.random() * randomIdAlphabet.length)]).join("")}`;
    const favourite = await fetch(`${baseUrl}/api/favorites`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: visitor, productId: product!.id }) });
    expect(favourite.status).toBe(201);
    const { page, context, errors } = await openPage(browser);
    await context.addInitScript((id) => localStorage.setItem("userId", id), visitor);
    const shown = (img: ReturnType<typeof page.locator>) =>
      img.evaluate((el: HTMLImageElement) => ({ src: new URL(el.currentSrc || el.src).pathname, loaded: el.complete && el.naturalWidth > 0 }));
    const expected = { src: packshotPath(product!.slug), loaded: true };

    await page.goto(baseUrl + favoritesPath);
    await expect.poll(() => shown(page.getByTestId("favorite").locator("img"))).toEqual(expected);

    // The product page is static: wait for the rebuild to carry the new picture, then for the fallback.
    const picture = page.locator(`img[alt="${product!.name.replace(/"/g, '\\"')}"]`).first();
    await expect
      .poll(
        async () => {
          await page.goto(baseUrl + productPath(product!.slug));
          return picture.getAttribute("data-fallback-src");
        },
        { timeout: 120_000, interval: 2_000 },
      )
      .toBe(packshotPath(product!.slug));
    await expect.poll(() => shown(picture)).toEqual(expected);
    // The only errors are the failed loads of the missing picture itself.
    expect(errors.filter((error) => !error.endsWith(`@ ${gone}`))).toEqual([]);
    await context.close();
  }, 180_000);
});
