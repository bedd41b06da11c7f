import { describe, expect, it } from "vitest";
import { feedFields } from "../feeds/read-feed.ts";
import { feedFieldLabels, isFinished, maskFeedUrl, maskUrlsIn, mappableFields, missingMappedFields, refusedTotal, requiredMappedFields } from "./feed-sources.ts";

describe("maskFeedUrl", () => {
  it("keeps the scheme, host and last 4 characters, hiding the rest (the API key)", () => {
    const url = "https://productdata.awin.com/datafeed/download/apikey/0123456789abcdef0123/language/en/fid/12345/format/csv/compression/gzip/";
    const masked = maskFeedUrl(url);
    expect(masked).toBe("https://productdata.awin.com/••••••zip/");
    expect(masked).not.toContain("0123456789");
    expect(maskFeedUrl("https://feeds.example.com/f.csv?key=secret-value-1234")).toBe("https://feeds.example.com/••••••1234");
    expect(maskFeedUrl("http://127.0.0.1:8080/feed?token=abcdefghijklmn")).toBe("http://127.0.0.1:8080/••••••klmn");
  });

  it("gives nothing of a short path away and masks what is not a URL", () => {
    expect(maskFeedUrl("https://example.com/k=abc123")).toBe("https://example.com/••••••");
    // From 12 characters on, the last 4 are shown.
    expect(maskFeedUrl("https://example.com/abcdefghijk")).toBe("https://example.com/••••••");
    expect(maskFeedUrl("https://example.com/abcdefghijkl")).toBe("https://example.com/••••••ijkl");
    expect(maskFeedUrl("https://example.com/")).toBe("https://example.com/");
    expect(maskFeedUrl("not a url with secret")).toBe("••••••");
  });

  it("masks every URL inside a message, keeping the sentence", () => {
    expect(maskUrlsIn("https://x.example.com/apikey/supersecretkey99/feed answered 404 Not Found")).toBe("https://x.example.com/••••••feed answered 404 Not Found");
    expect(maskUrlsIn("Could not read (https://a.example/k/verysecretvalue1), then http://b.example/secret/abcdefghijklmnop.")).toBe(
      "Could not read (https://a.example/••••••lue1), then http://b.example/••••••mnop.",
    );
    expect(maskUrlsIn("no links here")).toBe("no links here");
  });

  it("leaves a message masked already as it is (an error masked where it was raised, and again where it is stored)", () => {
    const once = maskUrlsIn("Could not read http://127.0.0.1:36065/feed.csv: the connection was refused");
    expect(once).toBe("Could not read http://127.0.0.1:36065/••••••: the connection was refused");
    expect(maskUrlsIn(once)).toBe(once);
    const long = maskUrlsIn("Could not read https://a.example/k/verysecretvalue1");
    expect(maskUrlsIn(long)).toBe("Could not read https://a.example/••••••lue1");
  });
});

describe("mapped fields", () => {
  it("are the reader's fields, name, price and link required", () => {
    expect([...mappableFields].sort()).toEqual([...feedFields].sort());
    expect(Object.keys(feedFieldLabels).sort()).toEqual([...feedFields].sort());
    expect(requiredMappedFields).toEqual(["name", "price", "link"]);
    expect(missingMappedFields(null)).toEqual(["name", "price", "link"]);
    expect(missingMappedFields({ name: "title", link: "url" })).toEqual(["price"]);
    expect(missingMappedFields({ name: "title", price: "cost", link: "url" })).toEqual([]);
  });
});

describe("refusedTotal", () => {
  it("adds the reasons up", () => {
    expect(refusedTotal({})).toBe(0);
    expect(refusedTotal({ malformed: 2, "no-category": 3 })).toBe(5);
  });
});

describe("isFinished", () => {
  it("is true for the two ends of a run only", () => {
    expect((["queued", "running", "succeeded", "failed"] as const).map(isFinished)).toEqual([false, false, true, true]);
  });
});
