/**
 * The refresh obeys each site's robots.txt (RFC 9309) for our product token: what it disallows is
 * never requested (the fixture sites' request logs say so), a 4xx robots.txt allows everything, a
 * 5xx or no answer blocks the site for the run, and a robots.txt read is kept 24 hours.
 */
import { afterEach, describe, expect, it } from "vitest";
import { refreshPrices } from "./price-refresh.ts";
import { closeAll, fixtureCatalogue, loopbackReader, startSite, type Catalogue, type FixtureSite } from "./fixtures/retailer-sites.ts";
import { latestRefreshRun } from "../../data/db/price-review.ts";

afterEach(closeAll);

/** A catalogue with one retailer at a fixture site serving `robots`, and an offer for each path (each page shows £12.00). */
async function shopWith(robots: FixtureSite["robots"], paths: string[]) {
  const catalogue = await fixtureCatalogue();
  const site = await startSite(robots);
  const retailerId = catalogue.retailer("Shop");
  for (const [index, path] of paths.entries()) {
    site.prices.set(path, 1200);
    catalogue.product(`Kibble ${index + 1}`, [{ retailerId, url: `${site.origin}${path}`, pence: 1000 }]);
  }
  return { catalogue, site };
}

const run = (catalogue: Catalogue, now?: () => Date) => refreshPrices({ db: catalogue.db, reader: loopbackReader, hostDelayMs: 0, ...(now ? { now } : {}) });

describe("robots.txt", () => {
  it("reads the pages it allows and never requests those it disallows, reporting them as blocked", async () => {
    const { catalogue, site } = await shopWith("User-agent: *\nDisallow: /basket\nDisallow: /p/closed\n", ["/p/open", "/p/closed", "/p/closed-too"]);
    const summary = await run(catalogue);
    expect(site.paths()).toEqual(["/robots.txt", "/p/open"]);
    expect(summary).toMatchObject({ checked: 1, changed: 1, blocked: 2, failed: 0, result: "succeeded" });
    expect(summary.failures).toEqual([`Shop: ${site.origin}/p/closed: robots.txt disallows it`, `Shop: ${site.origin}/p/closed-too: robots.txt disallows it`]);
    // The run's stored failure text counts them (the run table has no column for them).
    expect(latestRefreshRun(catalogue.db)!.failures[0]).toBe("Not read on purpose: 2 blocked by robots.txt, 0 backed off (the site asked us to wait)");
  });

  it("matches * and $ in paths", async () => {
    const { catalogue, site } = await shopWith("User-agent: *\nDisallow: /*?sort=\nDisallow: /*.pdf$\n", ["/p/list?sort=price", "/p/list?page=2", "/p/guide.pdf", "/p/guide.pdf?v=2"]);
    const summary = await run(catalogue);
    expect(site.paths()).toEqual(["/robots.txt", "/p/list?page=2", "/p/guide.pdf?v=2"]);
    expect(summary.blocked).toBe(2);
  });

  it("follows a PawPriceBot group over the * group", async () => {
    const robots = "User-agent: *\nDisallow: /\n\nUser-agent: PawPriceBot\nDisallow: /p/private\nAllow: /\n\nUser-agent: OtherBot\nDisallow: /p/open\n";
    const { catalogue, site } = await shopWith(robots, ["/p/open", "/p/private"]);
    const summary = await run(catalogue);
    expect(site.paths()).toEqual(["/robots.txt", "/p/open"]);
    expect(summary).toMatchObject({ checked: 1, blocked: 1 });
  });

  it("a 404 robots.txt allows every page", async () => {
    const { catalogue, site } = await shopWith(404, ["/p/1", "/p/2"]);
    const summary = await run(catalogue);
    expect(site.paths()).toEqual(["/robots.txt", "/p/1", "/p/2"]);
    expect(summary).toMatchObject({ checked: 2, blocked: 0 });
  });

  it.each([
    ["a 500", 500 as const, "it answered 500"],
    ["no answer", "drop" as const, "Could not read"],
  ])("after %s for robots.txt no page of the site is requested, and the next run asks again", async (_label, robots, reason) => {
    const { catalogue, site } = await shopWith(robots, ["/p/1", "/p/2"]);
    const summary = await run(catalogue);
    expect(site.paths()).toEqual(["/robots.txt"]);
    expect(summary).toMatchObject({ checked: 0, blocked: 2, failed: 0 });
    expect(summary.failures[0]).toContain(`Shop: ${site.origin}/p/1: robots.txt could not be read (${reason}`);
    site.robots = 404;
    await run(catalogue);
    expect(site.paths()).toEqual(["/robots.txt", "/robots.txt", "/p/1", "/p/2"]);
  });

  it("is read once per 24 hours, across runs (kept in the database)", async () => {
    const { catalogue, site } = await shopWith("User-agent: *\nDisallow: /p/2\n", ["/p/1", "/p/2"]);
    const start = Date.now();
    await run(catalogue, () => new Date(start));
    await run(catalogue, () => new Date(start + 23 * 3600_000));
    expect(site.paths().filter((path) => path === "/robots.txt")).toHaveLength(1);
    // The kept rules still apply: /p/2 was never asked for.
    expect(site.paths()).toEqual(["/robots.txt", "/p/1", "/p/1"]);
    // The site now allows /p/2; a day after the first read the robots.txt is read again.
    site.robots = "User-agent: *\nDisallow:\n";
    await run(catalogue, () => new Date(start + 24 * 3600_000 + 1000));
    expect(site.paths().slice(3)).toEqual(["/robots.txt", "/p/1", "/p/2"]);
    const stored = catalogue.db.$client.prepare("SELECT origin, robots_state, robots_txt FROM crawl_hosts").all();
    expect(stored).toEqual([{ origin: site.origin, robots_state: "rules", robots_txt: "User-agent: *\nDisallow:\n" }]);
  });
});
