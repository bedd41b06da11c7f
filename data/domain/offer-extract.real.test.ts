/**
 * Real saved shop pages (UK shops in real-pages/, other projects' fixtures in project-pages/),
 * each with the price a shopper reads on it, run through the extractor. Every entry must give
 * its expected price and currency, or no price where the page shows none.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractOffer } from "./offer-extract.ts";

interface ManifestEntry {
  file: string;
  url: string;
  expected: { price: number; currency: string; inStock: boolean | null } | null;
  shape: string;
}

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

function manifest(folder: string): ManifestEntry[] {
  const file = path.join(fixtures, folder, "manifest.json");
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as ManifestEntry[]) : [];
}

/**
 * Pages the extractor still reads wrongly, with why. Each must keep failing (it.fails), so one
 * that starts to pass is taken off this list.
 */
const knownMisses: Record<string, string> = {
  // The microdata Offer's price is the Subscribe & Save price (£7.97); the one-off price (£8.39) is
  // only in the visible radio option "Ship once", which no general rule reads yet.
  "vetshop-lilys-kitchen-shredded-fillets.html": "structured price is the repeat-delivery price",
};

function check(folder: string, entry: ManifestEntry): void {
  const html = fs.readFileSync(path.join(fixtures, folder, entry.file), "utf8");
  const offer = extractOffer(html, entry.url);
  if (entry.expected === null) expect(offer?.price ?? null).toBeNull();
  else expect({ price: offer?.price ?? null, currency: offer?.currency ?? null }).toEqual({ price: entry.expected.price, currency: entry.expected.currency });
}

for (const folder of ["real-pages", "project-pages"]) {
  const entries = manifest(folder);
  describe.skipIf(entries.length === 0)(folder, () => {
    for (const entry of entries) {
      if (knownMisses[entry.file]) it.fails(`${entry.file} (known miss: ${knownMisses[entry.file]})`, () => check(folder, entry));
      else it(entry.file, () => check(folder, entry));
    }
    it("reads at least 95% of the pages right", () => {
      const misses = entries.filter((entry) => knownMisses[entry.file] !== undefined).length;
      expect((entries.length - misses) / entries.length).toBeGreaterThanOrEqual(0.95);
    });
  });
}
