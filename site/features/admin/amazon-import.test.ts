import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api.ts";
import { importFailedToast, importFailureMessage, importToast, skippedList } from "./amazon-import.ts";

const messages = (count: number) => Array.from({ length: count }, (_, index) => `Product ${index + 1} already exists`);

describe("skipped products", () => {
  it("lists all messages when there are 5 or fewer", () => {
    expect(skippedList({ errors: [], totalErrors: 0 })).toEqual({ shown: [], more: null });
    expect(skippedList({ errors: messages(5), totalErrors: 5 })).toEqual({ shown: messages(5), more: null });
  });

  it("lists the first 5 and counts the rest from totalErrors, not from the capped list", () => {
    expect(skippedList({ errors: messages(6), totalErrors: 6 })).toEqual({ shown: messages(5), more: "... and 1 more" });
    // The server sends at most 100 messages; the real count is totalErrors.
    expect(skippedList({ errors: messages(100), totalErrors: 240 })).toEqual({ shown: messages(5), more: "... and 235 more" });
  });

  it("never counts fewer than the messages it was sent", () => {
    expect(skippedList({ errors: messages(7), totalErrors: 0 }).more).toBe("... and 2 more");
  });
});

describe("import toasts", () => {
  it("says how many were imported when nothing was skipped", () => {
    expect(importToast({ success: 20, errors: [], totalErrors: 0 })).toEqual({ title: "Successfully imported 20 products from Amazon Best Sellers" });
  });

  it("says how many were skipped, counting every skipped row", () => {
    expect(importToast({ success: 12, errors: messages(100), totalErrors: 130 })).toEqual({
      title: "Some Products Skipped",
      description: "130 products were skipped (likely already exist)",
    });
  });

  it("shows the server's reason for a refused run, the general text otherwise", () => {
    const notConfigured = "Amazon Creators API credentials are not set (AMAZON_CREATORS_CLIENT_ID, AMAZON_CREATORS_CLIENT_SECRET)";
    expect(importFailedToast(new ApiError(503, JSON.stringify({ error: notConfigured }), "Service Unavailable"))).toEqual({
      title: "Import Failed",
      description: notConfigured,
      variant: "destructive",
    });
    expect(importFailureMessage(new ApiError(409, JSON.stringify({ error: "An import is already running" }), "Conflict"))).toBe("An import is already running");
    const refused = "The Amazon Creators API refused the request: AssociateNotEligible";
    expect(importFailureMessage(new ApiError(502, JSON.stringify({ error: refused }), "Bad Gateway"))).toBe(refused);
    for (const error of [
      new ApiError(500, JSON.stringify({ error: "SQLITE_BUSY: database is locked" }), "Internal Server Error"),
      new ApiError(400, "<html>Bad gateway</html>", "Bad Request"),
      new TypeError("Failed to fetch"),
    ]) {
      expect(importFailedToast(error)).toEqual({ title: "Import Failed", description: "Failed to import products. Please try again.", variant: "destructive" });
    }
  });
});
