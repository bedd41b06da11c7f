import { describe, expect, it } from "vitest";
import { formatBytes, formatDateTime, formatDay, formatDuration, timeSince } from "./format.ts";

describe("admin formats", () => {
  it("says how long ago in words", () => {
    const at = "2026-03-01T09:00:00Z";
    expect(timeSince(at, new Date("2026-03-01T09:00:30Z"))).toBe("less than a minute");
    expect(timeSince(at, new Date("2026-03-01T09:01:00Z"))).toBe("1 minute");
    expect(timeSince(at, new Date("2026-03-01T09:59:00Z"))).toBe("59 minutes");
    expect(timeSince(at, new Date("2026-03-01T12:00:00Z"))).toBe("3 hours");
    expect(timeSince(at, new Date("2026-03-02T09:00:00Z"))).toBe("1 day");
    expect(timeSince(at, new Date("2026-05-01T09:00:00Z"))).toBe("2 months");
    expect(timeSince(at, new Date("2028-03-02T09:00:00Z"))).toBe("2 years");
  });

  it("writes dates, sizes and durations", () => {
    expect(formatDateTime("2026-03-01T09:05:00Z")).toBe("1 Mar 2026, 09:05");
    expect(formatDateTime("2026-07-01T09:05:00Z")).toBe("1 Jul 2026, 10:05");
    expect(formatDateTime(null)).toBe("Never");
    expect(formatDay("2026-12-31")).toBe("31 Dec 2026");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5_242_880)).toBe("5.0 MB");
    expect(formatDuration(870)).toBe("0.9 s");
    expect(formatDuration(95_000)).toBe("1 min 35 s");
    expect(formatDuration(null)).toBe("—");
  });
});
