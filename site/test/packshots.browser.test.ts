/**
 * Packshots on a category page: every card shows an image that loaded, and for the demo catalogue
 * (which has no photos) that image is the product's drawn packshot, never the grey placeholder.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { categoryPath, packshotPath } from "../../data/domain/paths.ts";
import type { Product } from "../../data/domain/catalogue.ts";
import { launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
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
