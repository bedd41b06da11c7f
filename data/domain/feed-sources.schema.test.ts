import { describe, expect, it } from "vitest";
import { feedSourceChanges, feedSourceInput, mappingProblem, scheduleProblem } from "./feed-sources.schema.ts";

const issue = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe("scheduleProblem", () => {
  it("takes five-field patterns croner can plan, at most every 15 minutes", () => {
    expect(scheduleProblem("15 3 * * *")).toBeNull();
    expect(scheduleProblem("0 */6 * * *")).toBeNull();
    expect(scheduleProblem("*/15 * * * *")).toBeNull();
    expect(scheduleProblem("0 4 * * 1")).toBeNull();
    expect(scheduleProblem("*/14 * * * *")).toBe("schedule must not run more often than every 15 minutes");
    expect(scheduleProblem("* * * * *")).toBe("schedule must not run more often than every 15 minutes");
    expect(scheduleProblem("0 15 3 * * *")).toMatch(/five fields/);
    expect(scheduleProblem("nightly")).toMatch(/five fields/);
    expect(scheduleProblem("61 3 * * *")).toMatch(/^schedule is not a valid cron pattern/);
    expect(scheduleProblem("0 0 31 2 *")).toMatch(/never runs|not a valid/);
  });
});

describe("feedSourceInput", () => {
  it("needs a URL for a url source and none for a file source; defaults stay unset", () => {
    expect(feedSourceInput.parse({ name: " Zooplus ", kind: "url", url: "https://feeds.example.com/x.csv" })).toEqual({
      name: "Zooplus",
      kind: "url",
      url: "https://feeds.example.com/x.csv",
    });
    expect(issue(feedSourceInput.safeParse({ name: "Z", kind: "url" }))).toBe("url is required for a url source");
    expect(issue(feedSourceInput.safeParse({ name: "Z", kind: "file", url: "https://x.example/f" }))).toBe("url must be left out for a file source (upload its file instead)");
    expect(issue(feedSourceInput.safeParse({ name: "Z", kind: "url", url: "file:///etc/passwd" }))).toMatch(/http or https/);
  });

  it("turns an empty schedule into none and keeps only mapped fields that are named", () => {
    expect(feedSourceInput.parse({ name: "Z", kind: "file", schedule: "  " }).schedule).toBeNull();
    expect(feedSourceInput.parse({ name: "Z", kind: "file", mapping: { name: "title", brand: undefined } }).mapping).toEqual({ name: "title" });
    expect(issue(feedSourceInput.safeParse({ name: "Z", kind: "file", mapping: { name: "" } }))).toBe("a mapped column name must not be blank");
  });
});

describe("feedSourceChanges", () => {
  it("takes any subset, refuses unknown keys and the kind", () => {
    expect(feedSourceChanges.parse({})).toEqual({});
    expect(feedSourceChanges.parse({ retailerKey: null, schedule: null })).toEqual({ retailerKey: null, schedule: null });
    expect(feedSourceChanges.safeParse({ kind: "url" }).success).toBe(false);
  });
});

describe("mappingProblem", () => {
  it("asks a mapped layout for name, price and link; other layouts for nothing", () => {
    expect(mappingProblem("auto", null)).toBeNull();
    expect(mappingProblem("mapped", { name: "t", price: "p", link: "l" })).toBeNull();
    expect(mappingProblem("mapped", { name: "t" })).toBe("mapping must name a column for price, link (the mapped layout needs them)");
  });
});
