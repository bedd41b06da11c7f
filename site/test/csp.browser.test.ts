/**
 * The pages can be served with a strict script policy: `script-src 'self'` plus the hashes of the
 * inline scripts the build emits. That holds only while every executable inline script is the
 * same text wherever it appears (no per-page data inside one: that goes in a data block or a
 * data- attribute), and no page has inline event handlers or javascript: URLs, which a hash can
 * never allow. The hashes here come from one page of each kind; a second page of each kind must
 * then run, islands and all, under that policy without a single violation.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { pagePolicy } from "../../api/http/security-headers.ts";
import type { Category, Product } from "../../data/domain/catalogue.ts";
import { categoryPath, productPath } from "../../data/domain/paths.ts";
import { islandsReady, launchBrowser, openPage } from "./browser.ts";

const baseUrl = inject("baseUrl");
let browser: Browser;
/** One page of each kind: the build would allow the hashes of their inline scripts. */
let references: string[];
/** Other pages of those kinds (and the references again): each must run under that policy. */
let checked: string[];

beforeAll(async () => {
  browser = await launchBrowser();
  const categories = (await (await fetch(`${baseUrl}/api/categories`)).json()) as Category[];
  const products = (await (await fetch(`${baseUrl}/api/products?limit=2`)).json()) as Product[];
  const singles = ["/", "/vouchers", "/search?q=dog", "/privacy-policy", "/favorites", "/my-alerts", "/compare", "/basket", "/no-such-page"];
  references = [categoryPath(categories[0]!.slug), productPath(products[0]!.slug), "/about", ...singles];
  checked = [categoryPath(categories[1]!.slug), productPath(products[1]!.slug), "/cookie-policy", ...singles];
});
afterAll(() => browser?.close());

/** Script types that only carry data: the browser never runs them. */
const dataScriptTypes = /^(application\/(ld\+)?json|importmap|speculationrules)$/i;

/** The text of every inline script the browser would run. */
function executableInlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(attributes!)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes!)?.[1];
    if (type && dataScriptTypes.test(type)) continue;
    scripts.push(body!);
  }
  return scripts;
}

const sha256 = (text: string) => `sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}`;

async function html(pathname: string): Promise<string> {
  return (await fetch(baseUrl + pathname)).text();
}

describe("content security policy", () => {
  it("no page has an inline event handler or a javascript: URL", async () => {
    for (const pathname of new Set([...references, ...checked])) {
      const text = await html(pathname);
      // Attributes inside tags only: inline scripts and page text may mention "onclick=".
      const tags = text.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "").match(/<[a-z][^>]*>/gi) ?? [];
      expect(tags.filter((tag) => /\son[a-z]+\s*=/i.test(tag)), `inline handlers on ${pathname}`).toEqual([]);
      expect(tags.filter((tag) => /=\s*["']?\s*javascript:/i.test(tag)), `javascript: URLs on ${pathname}`).toEqual([]);
    }
  });

  it("pages run, islands included, allowing only the inline scripts of one page of each kind", async () => {
    const allowed = new Set<string>();
    for (const pathname of references) for (const script of executableInlineScripts(await html(pathname))) allowed.add(sha256(script));
    const policy = pagePolicy([...allowed]);
    for (const pathname of checked) {
      const { page, context, errors } = await openPage(browser, { width: 390, height: 844, consent: null });
      // The page as the server sends it, under the strict policy.
      await page.route(
        (url) => url.pathname + url.search === pathname,
        async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, headers: { ...response.headers(), "content-security-policy": policy } });
        },
      );
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective}: ${event.blockedURI} ${event.sample}`));
      });
      await page.goto(baseUrl + pathname);
      await islandsReady(page);
      // Scrolling to the end brings the client:visible islands in.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForLoadState("networkidle");
      const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
      expect(violations, `CSP violations on ${pathname}`).toEqual([]);
      // The unknown address answers 404, which the console reports; nothing else may show there.
      const expected = pathname === "/no-such-page" ? (error: string) => !/status of 404/.test(error) : () => true;
      expect(errors.filter(expected), `console errors on ${pathname}`).toEqual([]);
      await context.close();
    }
  });
});
