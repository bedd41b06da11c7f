/** Real Chromium (Debian's package) through playwright-core, for the browser tests. */
import fs from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}: run npm test (it installs it) or set CHROMIUM_PATH`);
  return chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface TrackedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

export async function openPage(browser: Browser, options: { width?: number; height?: number; consent?: "accepted" | "declined" | null } = {}): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 } });
  const consent = options.consent === undefined ? "declined" : options.consent;
  if (consent) await context.addInitScript((value) => localStorage.setItem("cookie_consent", value), consent);
  // Only our own server is reachable: an outbound retailer link must never leave this machine.
  await context.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])/, (route) => route.abort());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} @ ${message.location().url}`);
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  return { page, context, errors };
}

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page and returns its serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * Waits until the islands that hydrate on load or idle have hydrated (Astro drops their `ssr`
 * attribute), so a test clicks the live component rather than its static HTML.
 */
export async function islandsReady(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("astro-island")].every((island) => !island.hasAttribute("ssr") || island.getAttribute("client") === "visible"),
  );
}

/** Scrolls a `client:visible` island's container into view and waits for it to hydrate. */
export async function visibleIslandReady(page: Page, containerSelector: string): Promise<void> {
  await page.locator(containerSelector).scrollIntoViewIfNeeded();
  await page.waitForSelector(`${containerSelector} astro-island:not([ssr])`, { state: "attached" });
}
