import { describe, expect, it } from "vitest";
import {
  emptyCounts,
  erasedAddress,
  isoTimestamp,
  mentionsAddress,
  personalDataDocument,
  personalDataFileName,
  personalDataKinds,
  personalDataLabels,
  privacyAuditSummary,
  redactAddress,
  type PersonalDataReport,
} from "./privacy.ts";
import { privacyKeySchema } from "./privacy.schema.ts";

const visitorId = "user_abcdefghijklmnopqrstuvwx";

describe("privacyKeySchema", () => {
  it("takes an address (trimmed, lower case) or a visitor id", () => {
    expect(privacyKeySchema.parse({ email: "  Alice@Example.COM " })).toEqual({ kind: "email", email: "alice@example.com" });
    expect(privacyKeySchema.parse({ userId: visitorId })).toEqual({ kind: "visitor", userId: visitorId });
  });

  it("refuses no key, both keys, other fields, a malformed address and a visitor id of the wrong length", () => {
    const issue = (input: unknown) => {
      const result = privacyKeySchema.safeParse(input);
      return result.success ? null : result.error.issues[0]!.message;
    };
    expect(issue({})).toBe("Give an e-mail address (email) or a visitor id (userId)");
    expect(issue({ email: "a@example.com", userId: visitorId })).toBe("Give an e-mail address or a visitor id, not both");
    expect(issue({ email: "a@example.com", name: "Alice" })).toMatch(/name/);
    expect(issue({ email: "alice.example.com" })).toBe("Please enter a valid email address");
    expect(issue({ userId: `${visitorId}a` })).toMatch(/^userId must be an anonymous visitor id/);
    expect(issue({ userId: visitorId.slice(0, -1) })).toMatch(/^userId must be an anonymous visitor id/);
    // 254 characters is the longest address; 255 is refused.
    const address = (last: number) => `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(last)}.uk`;
    expect(address(58)).toHaveLength(254);
    expect(issue({ email: address(58) })).toBeNull();
    expect(issue({ email: address(59) })).toBe("Please enter a valid email address");
  });
});

describe("privacyAuditSummary", () => {
  it("names the action, the kind of key and the counts, never the key", () => {
    expect(privacyAuditSummary("lookup", "email", { ...emptyCounts(), priceAlerts: 2, favorites: 1 })).toBe("Privacy lookup (e-mail address): 3 rows of 2 kinds");
    expect(privacyAuditSummary("export", "visitor", { ...emptyCounts(), clicks: 1 })).toBe("Privacy export (visitor id): 1 row of 1 kind");
    expect(privacyAuditSummary("lookup", "visitor", emptyCounts())).toBe("Privacy lookup (visitor id): nothing found");
  });

  it("tells deleted rows from redacted audit entries on an erasure", () => {
    expect(privacyAuditSummary("erase", "email", { ...emptyCounts(), newsletter: 1, auditMentions: 2 })).toBe("Privacy erasure (e-mail address): 1 row deleted, 2 audit entries redacted");
    expect(privacyAuditSummary("erase", "email", { ...emptyCounts(), favorites: 1200 })).toBe("Privacy erasure (e-mail address): 1,200 rows deleted");
    expect(privacyAuditSummary("erase", "email", { ...emptyCounts(), auditMentions: 1 })).toBe("Privacy erasure (e-mail address): 0 rows deleted, 1 audit entry redacted");
    expect(privacyAuditSummary("erase", "visitor", emptyCounts())).toBe("Privacy erasure (visitor id): nothing found");
    // As many audit entries as rows is still something found.
    expect(privacyAuditSummary("erase", "email", { ...emptyCounts(), newsletter: 1, auditMentions: 1 })).toBe("Privacy erasure (e-mail address): 1 row deleted, 1 audit entry redacted");
  });
});

describe("mentionsAddress and redactAddress", () => {
  const email = "alice@example.com";

  it("find the whole address in any case, wherever it stands", () => {
    expect(mentionsAddress("Removed subscriber Alice@Example.COM", email)).toBe(true);
    expect(mentionsAddress('{"email":"alice@example.com"}', email)).toBe(true);
    expect(mentionsAddress("alice@example.com.", email)).toBe(true);
    expect(redactAddress("alice@example.com and ALICE@example.com, done", email)).toBe(`${erasedAddress} and ${erasedAddress}, done`);
  });

  it("leave a longer address containing it alone", () => {
    for (const text of ["malice@example.com", "alice@example.com.au", "alice@example.community", "x.alice@example.com", "alice@example.com-mail.net"]) {
      expect(mentionsAddress(text, email), text).toBe(false);
      expect(redactAddress(text, email), text).toBe(text);
    }
  });

  it("take the address's own dots and plus literally", () => {
    expect(mentionsAddress("a+b@example.com", "a+b@example.com")).toBe(true);
    expect(mentionsAddress("aab@example.com", "a+b@example.com")).toBe(false);
    expect(mentionsAddress("alice@exampleXcom", email)).toBe(false);
  });
});

describe("isoTimestamp", () => {
  it("brings SQLite's own format to ISO-8601 UTC and keeps ISO as it is", () => {
    expect(isoTimestamp("2026-11-22 10:00:00")).toBe("2026-11-22T10:00:00.000Z");
    expect(isoTimestamp("2026-11-22T10:00:00.123Z")).toBe("2026-11-22T10:00:00.123Z");
    expect(isoTimestamp("2026-11-22T11:00:00+01:00")).toBe("2026-11-22T10:00:00.000Z");
  });

  it("reads SQLite's format as UTC whatever the server's time zone", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      expect(isoTimestamp("2026-11-22 10:00:00")).toBe("2026-11-22T10:00:00.000Z");
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("leaves a date alone, other text, numbers and null", () => {
    expect(isoTimestamp("2026-11-22")).toBe("2026-11-22");
    expect(isoTimestamp("website")).toBe("website");
    expect(isoTimestamp("2026-13-45 10:00:00")).toBe("2026-13-45 10:00:00");
    expect(isoTimestamp(1299)).toBe(1299);
    expect(isoTimestamp(null)).toBeNull();
  });
});

describe("the export", () => {
  it("is named by site and date only", () => {
    expect(personalDataFileName("pawprice", "2026-11-22")).toBe("pawprice-personal-data-2026-11-22.json");
    expect(personalDataFileName("", "2026-11-22")).toBe("site-personal-data-2026-11-22.json");
  });

  it("carries the report with the request, the time and every kind's label", () => {
    const data = Object.fromEntries(personalDataKinds.map((kind) => [kind, []])) as unknown as PersonalDataReport["data"];
    const report: PersonalDataReport = { keyKind: "email", visitors: [], otherSpellings: ["a+x@example.com"], addressesUsed: [], data, counts: emptyCounts(), total: 0 };
    const document = personalDataDocument(report, "a@example.com", { siteName: "PawPrice", now: new Date("2026-11-22T10:00:00Z") });
    expect(document.about).toBe("The personal data PawPrice holds linked to this e-mail address.");
    expect(document).toMatchObject({ site: "PawPrice", generatedAt: "2026-11-22T10:00:00.000Z", request: { kind: "email", value: "a@example.com" }, otherSpellings: ["a+x@example.com"] });
    expect(Object.keys(document.kinds)).toEqual([...personalDataKinds]);
    expect(document.kinds).toBe(personalDataLabels);
  });
});
