import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFeed, type FeedOffer } from "./read-feed.ts";
import { writeGeneratedFeed } from "./generate-feed.ts";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "generate-feed-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("writeGeneratedFeed", () => {
  it("writes a feed of about the size asked for that readFeed parses, with the refused rows it says", async () => {
    const file = path.join(dir, "feed.csv");
    const stats = await writeGeneratedFeed(file, { bytes: 300_000 });
    expect(stats.bytes).toBe(fs.statSync(file).size);
    expect(stats.bytes).toBeGreaterThanOrEqual(300_000);
    expect(stats.bytes).toBeLessThan(302_000);

    const offers: FeedOffer[] = [];
    let errors = 0;
    for await (const item of readFeed(file)) {
      if (item.kind === "offer") offers.push(item.offer);
      else errors++;
    }
    expect(errors).toBe(stats.refusedRows);
    expect(errors).toBeGreaterThan(0);
    expect(offers.length + errors).toBe(stats.rows);

    expect(new Set(offers.map((offer) => offer.merchantKey)).size).toBeGreaterThanOrEqual(20);
    // Every product carries one valid GTIN, at every merchant; only the Excel-mangled ones are lost.
    const gtinByName = new Map<string, Set<string | null>>();
    for (const offer of offers) gtinByName.set(offer.name, (gtinByName.get(offer.name) ?? new Set()).add(offer.gtin));
    const withBarcode = offers.filter((offer) => offer.gtin !== null);
    expect(withBarcode.length / offers.length).toBeGreaterThan(0.95);
    for (const gtins of gtinByName.values()) expect([...gtins].filter((gtin) => gtin !== null).length).toBeLessThanOrEqual(1);
  });

  it("writes a Google Merchant Center XML feed that readFeed parses, with the refused items it says", async () => {
    const file = path.join(dir, "feed.xml");
    const stats = await writeGeneratedFeed(file, { bytes: 400_000, format: "google-xml" });
    expect(stats.bytes).toBe(fs.statSync(file).size);
    expect(stats.bytes).toBeGreaterThanOrEqual(400_000);
    let offers = 0;
    let onSale = 0;
    let errors = 0;
    for await (const item of readFeed(file, { retailerKey: "zooplus", now: new Date("2026-11-20T03:00:00Z") })) {
      if (item.kind === "error") errors++;
      else {
        offers++;
        expect(item.offer).toMatchObject({ merchantKey: "zooplus", currency: "GBP" });
        expect(item.offer.gtin).toMatch(/^\d{13}$/);
        expect(item.offer.deliveryPence === 0 || item.offer.deliveryPence === 399).toBe(true);
        if (item.offer.originalPricePence !== null) onSale++;
      }
    }
    expect(errors).toBe(stats.refusedRows);
    expect(offers + errors).toBe(stats.rows);
    expect(onSale / offers).toBeGreaterThan(0.1);
  });

  it("gzips when asked, and is the same feed for the same seed", async () => {
    const plain = path.join(dir, "same.csv");
    const gzipped = path.join(dir, "same.csv.gz");
    const [plainStats, gzipStats] = await Promise.all([
      writeGeneratedFeed(plain, { bytes: 100_000, seed: 7 }),
      writeGeneratedFeed(gzipped, { bytes: 100_000, seed: 7, gzip: true }),
    ]);
    expect(gzipStats).toEqual(plainStats);
    expect([...fs.readFileSync(gzipped).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const names = async (file: string) => {
      const list: string[] = [];
      for await (const item of readFeed(file)) list.push(item.kind === "offer" ? item.offer.name : item.error);
      return list;
    };
    expect(await names(gzipped)).toEqual(await names(plain));
  });
});
