import { describe, expect, it } from "vitest";
import type { FeedRun } from "../../../data/domain/feed-sources.ts";
import { importResultOf, refusalLines, runCounts, runSummary, sourceLocation, suggestMapping, uploadContentType } from "./feeds.ts";

const run = (overrides: Partial<FeedRun> = {}): FeedRun => ({
  id: 7,
  sourceId: 3,
  sourceKey: "source:3",
  sourceLabel: "Zooplus feed",
  trigger: "admin",
  status: "succeeded",
  queuedAt: "2026-11-27T09:00:00.000Z",
  startedAt: "2026-11-27T09:00:01.000Z",
  finishedAt: "2026-11-27T09:00:09.000Z",
  rowsRead: 1200,
  matched: 900,
  created: 12,
  offersAdded: 4,
  pricesChanged: 30,
  held: 1,
  unmatched: 250,
  refused: { malformed: 3, "no-category": 35 },
  messages: ["line 4: malformed CSV"],
  totalMessages: 940,
  error: null,
  ...overrides,
});

describe("uploadContentType", () => {
  it("sends each file as a type the upload route takes", () => {
    expect(uploadContentType("feed.csv")).toBe("text/csv");
    expect(uploadContentType("FEED.CSV.GZ")).toBe("application/gzip");
    expect(uploadContentType("feed.tsv")).toBe("text/tab-separated-values");
    expect(uploadContentType("google.xml")).toBe("application/xml");
    expect(uploadContentType("datafeed_1234")).toBe("application/octet-stream");
  });
});

describe("a run in words", () => {
  it("counts in order, refusals by reason largest first, and one summary line", () => {
    expect(runCounts(run()).map(({ label, value }) => `${label} ${value}`)).toEqual([
      "Rows read 1200",
      "Matched 900",
      "Created 12",
      "Offers added 4",
      "Prices changed 30",
      "Held for review 1",
      "Unmatched 250",
      "Refused 38",
    ]);
    expect(refusalLines(run())).toEqual([
      { reason: "Category matches none of ours", count: 35 },
      { reason: "Malformed or unreadable row", count: 3 },
    ]);
    expect(runSummary(run())).toBe("1,200 rows: 12 created, 900 matched, 38 refused");
    expect(runSummary(run({ refused: {} }))).toBe("1,200 rows: 12 created, 900 matched");
    expect(runSummary(run({ status: "failed", error: "The file is not a product feed" }))).toBe("The file is not a product feed");
  });

  it("a finished run as the import results card reads it", () => {
    expect(importResultOf(run())).toEqual({ success: 12, errors: ["line 4: malformed CSV"], totalErrors: 940, skipped: 900 + 250 + 38, source: { label: "Zooplus feed" } });
  });
});

describe("suggestMapping", () => {
  it("takes the columns feeds usually use, keeps what the admin chose, and leaves the rest out", () => {
    expect(suggestMapping(["product_name", "search_price", "merchant_deep_link", "EAN"], null)).toEqual({
      name: "product_name",
      price: "search_price",
      link: "merchant_deep_link",
      gtin: "EAN",
    });
    expect(suggestMapping(["Title", "Cost", "URL"], { price: "Cost" })).toEqual({ name: "Title", price: "Cost", link: "URL" });
    // A chosen column the feed no longer has is not kept.
    expect(suggestMapping(["title"], { name: "gone" })).toEqual({ name: "title" });
  });
});

describe("sourceLocation", () => {
  it("is the masked URL, the file's name, or says there is no file yet", () => {
    expect(sourceLocation({ kind: "url", maskedUrl: "https://x.example/••••••1234", fileName: null })).toBe("https://x.example/••••••1234");
    expect(sourceLocation({ kind: "file", maskedUrl: null, fileName: "feed.csv" })).toBe("feed.csv");
    expect(sourceLocation({ kind: "file", maskedUrl: null, fileName: null })).toBe("No file uploaded yet");
  });
});
