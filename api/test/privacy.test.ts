/**
 * Data rights through the real server over a real SQLite file: the admin's lookup, export and
 * erasure by e-mail address or visitor id, and a visitor clearing their own browser's data. Each
 * test makes its own people with rows in every table holding personal data: the person asked
 * about (an address, the visitor id that confirmed it, one that only typed it) and a second
 * person at the same mail domain, whose rows must never be read or touched.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personalDataKinds, type PersonalDataKind, type PersonalDataReport } from "../../data/domain/privacy.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
let productIds: number[];
let voucherId: number;
let retailerId: number;

beforeAll(async () => {
  api = await startTestServer({ products: 40 });
  productIds = rows<{ id: number }>("SELECT id FROM products ORDER BY id LIMIT 3").map((r) => r.id);
  voucherId = row<{ id: number }>("SELECT id FROM vouchers ORDER BY id LIMIT 1").id;
  retailerId = row<{ id: number }>("SELECT id FROM retailers ORDER BY id LIMIT 1").id;
});
afterAll(() => api.close());

const rows = <T = Record<string, unknown>>(sql: string, ...params: unknown[]) => api.db.$client.prepare(sql).all(...params) as T[];
const row = <T = Record<string, unknown>>(sql: string, ...params: unknown[]) => api.db.$client.prepare(sql).get(...params) as T;
const run = (sql: string, ...params: unknown[]) => api.db.$client.prepare(sql).run(...params);

/** A visitor id in the browser's format: user_ and 24 characters from [a-z0-9]. */
const visitorId = (name: string) => `user_${name.replace(/[^a-z0-9]/g, "").padEnd(24, "0").slice(0, 24)}`;

/** Every table with a column naming a person (an address or a visitor id). */
const personalTables = () =>
  rows<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name")
    .map(({ name }) => ({ name, columns: rows<{ name: string }>(`SELECT name FROM pragma_table_info('${name}')`).map((c) => c.name) }))
    .filter((table) => table.columns.includes("email") || table.columns.includes("user_id"));

/** Every row of every table with a person's column, as JSON: equal snapshots, nothing of them changed. */
function personalSnapshot(where: (table: { columns: string[] }) => [string, unknown[]]): string {
  return JSON.stringify(
    personalTables().map((table) => {
      const [condition, params] = where(table);
      return [table.name, rows(`SELECT * FROM "${table.name}" WHERE ${condition} ORDER BY rowid`, ...params)];
    }),
  );
}

/** A digest of every row of every table: equal digests, unchanged database. */
function databaseDigest(): string {
  const hash = crypto.createHash("sha256");
  for (const { name } of rows<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
    hash.update(name);
    hash.update(JSON.stringify(api.db.$client.prepare(`SELECT * FROM "${name}"`).raw().all()));
  }
  return hash.digest("hex");
}

interface Person {
  email: string;
  /** The visitor id that confirmed the address for alerts. */
  confirmed: string;
  /** A visitor id that typed the address for an alert but never confirmed it. */
  typedOnly: string;
}

/**
 * A person with rows in every table holding personal data: alerts (one stored in mixed case), a
 * newsletter sign-up, consent, confirmation mails, favourites (one dated in SQLite's own format),
 * recently viewed, a click, a voucher use, a profile, a recommendation and an audit entry naming
 * the address. Their confirmed browser also set an alert for a family member's address, and the
 * visitor id that only typed the address has a favourite of its own.
 */
function makePerson(name: string, tag: string): Person {
  const email = `${name}-${tag}@example.com`;
  const confirmed = visitorId(`${name}${tag}c`);
  const typedOnly = visitorId(`${name}${tag}t`);
  const [first, second, third] = productIds as [number, number, number];
  const at = "2026-11-20T09:30:00.000Z";
  const alert = "INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, confirmed_at) VALUES (?, ?, ?, 999, ?)";
  run(alert, confirmed, first, email, at);
  run(alert, confirmed, second, email.toUpperCase().replace("@EXAMPLE.COM", "@Example.Com"), at);
  run(alert, confirmed, third, `family-${name}-${tag}@other.example`, null);
  run(alert, typedOnly, first, email, null);
  run("INSERT INTO email_subscribers (email, confirmed_at) VALUES (?, ?)", email, at);
  run("INSERT INTO email_consents (email, user_id, confirmed_at) VALUES (?, ?, ?)", email, confirmed, at);
  const confirmation = "INSERT INTO email_confirmations (email, purpose, user_id, token_hash, created_at, expires_at, sent_at, confirmed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  run(confirmation, email, "newsletter", null, crypto.randomBytes(16).toString("hex"), at, "2026-11-27T09:30:00.000Z", at, at);
  run(confirmation, email, "price-alerts", confirmed, crypto.randomBytes(16).toString("hex"), at, "2026-11-27T09:30:00.000Z", at, at);
  run(confirmation, email, "price-alerts", typedOnly, crypto.randomBytes(16).toString("hex"), at, "2026-11-27T09:30:00.000Z", at, null);
  run("INSERT INTO favorites (user_id, product_id, notes, created_at) VALUES (?, ?, ?, '2026-01-02 03:04:05')", confirmed, first, `${name}'s note`);
  run("INSERT INTO favorites (user_id, product_id) VALUES (?, ?)", confirmed, second);
  run("INSERT INTO favorites (user_id, product_id) VALUES (?, ?)", typedOnly, third);
  run("INSERT INTO recently_viewed (user_id, product_id) VALUES (?, ?)", confirmed, first);
  run(
    "INSERT INTO user_behaviour (user_id, product_id, action, retailer_id, session_id, metadata) VALUES (?, ?, 'affiliate_click', ?, ?, ?)",
    confirmed,
    first,
    retailerId,
    `session_${tag.padEnd(24, "0").slice(0, 24)}`,
    JSON.stringify({ retailer: "Amazon", price: 9.99 }),
  );
  run("INSERT INTO voucher_uses (voucher_id, user_id, day) VALUES (?, ?, '2026-11-20')", voucherId, confirmed);
  run("INSERT INTO user_profiles (user_id, pet_type) VALUES (?, 'dog')", confirmed);
  run("INSERT INTO product_recommendations (user_id, product_id, score, reason, expires_at) VALUES (?, ?, 1.5, 'viewed', '2026-12-31T00:00:00.000Z')", confirmed, first);
  run("INSERT INTO audit_log (at, action, entity, entity_id, summary) VALUES (?, 'delete', 'subscriber', 1, ?)", at, `Removed subscriber ${email}`);
  return { email, confirmed, typedOnly };
}

/** The person asked about and a second person at the same mail domain, with rows in the same tables. */
function people(tag: string): { alice: Person; bob: Person } {
  const alice = makePerson("alice", tag);
  const bob = makePerson("bob", tag);
  // Not Alice: an address containing hers, and another spelling of her mailbox (a plus-tag).
  run("INSERT INTO audit_log (at, action, entity, entity_id, summary) VALUES ('2026-11-20T10:00:00.000Z', 'delete', 'subscriber', 2, ?)", `Removed subscriber m${alice.email}`);
  run("INSERT INTO email_subscribers (email) VALUES (?)", alice.email.replace("@", "+shop@"));
  return { alice, bob };
}

/** Rows a person's key reaches: their address in any case, their confirmed browser's rows (not its alerts for other addresses). */
const linkedTo = (person: Person) => (table: { columns: string[] }): [string, unknown[]] => {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (table.columns.includes("email")) {
    parts.push("email = ? COLLATE NOCASE");
    params.push(person.email);
  }
  if (table.columns.includes("user_id")) {
    parts.push(table.columns.includes("email") ? "(user_id = ? AND email = ? COLLATE NOCASE)" : "user_id = ?");
    params.push(person.confirmed, ...(table.columns.includes("email") ? [person.email] : []));
  }
  return [parts.join(" OR "), params];
};

/** Every row of any of these people (their addresses, their visitor ids). */
const allOf = (...persons: Person[]) => (table: { columns: string[] }): [string, unknown[]] => {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const person of persons) {
    if (table.columns.includes("email")) {
      parts.push("email LIKE ?");
      params.push(`%${person.email.split("@")[0]}%`);
    }
    if (table.columns.includes("user_id")) {
      parts.push("user_id IN (?, ?)");
      params.push(person.confirmed, person.typedOnly);
    }
  }
  return [parts.join(" OR "), params];
};

async function post(path: string, body: unknown, cookie?: string): Promise<Response> {
  return api.admin("POST", path, body, cookie);
}

async function lookUp(body: unknown): Promise<PersonalDataReport & { mailTransport: string }> {
  const response = await post("/api/admin/privacy/lookup", body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as PersonalDataReport & { mailTransport: string };
}

const auditSince = (id: number) => rows<{ action: string; entity: string; summary: string; before: string | null; after: string | null }>("SELECT action, entity, summary, before, after FROM audit_log WHERE id > ? ORDER BY id", id);
const lastAuditId = () => row<{ id: number | null }>("SELECT max(id) AS id FROM audit_log").id ?? 0;

describe("the fixture", () => {
  it("gives the person a row in every table that names a person, so a table the lookup forgets shows", () => {
    const { alice } = people("fixture");
    const tables = personalTables();
    expect(tables.map((t) => t.name).sort()).toEqual(
      ["email_confirmations", "email_consents", "email_subscribers", "favorites", "price_alerts", "product_recommendations", "recently_viewed", "user_behaviour", "user_profiles", "voucher_uses"].sort(),
    );
    for (const table of tables) {
      const [condition, params] = linkedTo(alice)(table);
      expect(rows(`SELECT 1 FROM "${table.name}" WHERE ${condition}`, ...params).length, table.name).toBeGreaterThan(0);
    }
  });
});

describe("lookup", () => {
  it("by e-mail address finds every kind: the address in any case, the confirmed visitor's browser data, the audit entries naming it", async () => {
    const { alice, bob } = people("lookupmail");
    const audit = lastAuditId();
    const report = await lookUp({ email: `  ${alice.email.toUpperCase()} ` });
    for (const kind of personalDataKinds) expect(report.counts[kind], kind).toBeGreaterThan(0);
    const ids = (kind: PersonalDataKind) => report.data[kind].map((r) => r.id);
    // Both of Alice's alerts from her browser (one stored in capitals) and the typed-only one; not her family's.
    expect(ids("priceAlerts")).toEqual(rows<{ id: number }>("SELECT id FROM price_alerts WHERE email = ? COLLATE NOCASE ORDER BY id", alice.email).map((r) => r.id));
    expect(report.data.priceAlerts).toHaveLength(3);
    expect(ids("newsletter")).toEqual(rows<{ id: number }>("SELECT id FROM email_subscribers WHERE email = ?", alice.email).map((r) => r.id));
    expect(report.data.emailConsents).toEqual([{ email: alice.email, visitorId: alice.confirmed, confirmedAt: "2026-11-20T09:30:00.000Z" }]);
    expect(report.data.emailConfirmations.map((r) => [r.purpose, r.visitorId])).toEqual([
      ["newsletter", null],
      ["price-alerts", alice.confirmed],
      ["price-alerts", alice.typedOnly],
    ]);
    // Browser data only of the visitor id that confirmed the address.
    for (const kind of ["favorites", "recentlyViewed", "clicks", "voucherUses", "profiles", "recommendations"] as const) {
      expect(new Set(report.data[kind].map((r) => r.visitorId)), kind).toEqual(new Set([alice.confirmed]));
    }
    expect(report.data.favorites).toHaveLength(2);
    expect(report.data.clicks[0]).toMatchObject({ action: "affiliate_click", metadata: { retailer: "Amazon", price: 9.99 } });
    expect(report.data.auditMentions.map((r) => r.summary)).toEqual([`Removed subscriber ${alice.email}`]);
    expect(report.visitors).toEqual(
      [
        { userId: alice.confirmed, confirmed: true, otherAddresses: 1 },
        { userId: alice.typedOnly, confirmed: false, otherAddresses: 0 },
      ].sort((a, b) => a.userId.localeCompare(b.userId)),
    );
    expect(report.otherSpellings).toEqual([alice.email.replace("@", "+shop@")]);
    expect(report.total).toBe(personalDataKinds.reduce((sum, kind) => sum + report.data[kind].length, 0));
    expect(report.mailTransport).toBe("outbox");
    // Nothing of Bob's, nothing of the family address, nothing of the typed-only visitor's favourite.
    const text = JSON.stringify(report.data);
    for (const other of [bob.email, bob.confirmed, bob.typedOnly, "family-alice", `m${alice.email}`]) expect(text).not.toContain(other);
    expect(report.data.favorites.some((r) => r.visitorId === alice.typedOnly)).toBe(false);
    // Recorded, without the address.
    const entries = auditSince(audit);
    expect(entries).toEqual([
      { action: "lookup", entity: "privacy-request", summary: `Privacy lookup (e-mail address): ${report.total} rows of 11 kinds`, before: null, after: expect.any(String) },
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/alice/i);
  });

  it("by visitor id finds every row keyed on it, the addresses it used, and nothing keyed on an address alone", async () => {
    const { alice, bob } = people("lookupvisitor");
    const audit = lastAuditId();
    const report = await lookUp({ userId: alice.confirmed });
    const visitorKinds = personalDataKinds.filter((kind) => kind !== "newsletter" && kind !== "auditMentions");
    for (const kind of visitorKinds) {
      expect(report.counts[kind], kind).toBeGreaterThan(0);
      expect(new Set(report.data[kind].map((r) => r.visitorId)), kind).toEqual(new Set([alice.confirmed]));
    }
    expect(report.counts.newsletter).toBe(0);
    expect(report.counts.auditMentions).toBe(0);
    // Its alerts for both addresses it typed.
    expect(report.data.priceAlerts).toHaveLength(3);
    expect(report.addressesUsed).toEqual([alice.email, `family-alice-lookupvisitor@other.example`]);
    expect(report.visitors).toEqual([]);
    expect(report.otherSpellings).toEqual([]);
    expect(JSON.stringify(report.data)).not.toContain(bob.confirmed);
    expect(auditSince(audit).map((e) => e.summary)).toEqual([`Privacy lookup (visitor id): ${report.total} rows of 9 kinds`]);
  });

  it("finds nothing for an address nobody used, and says so in the audit log", async () => {
    people("lookupnone");
    const audit = lastAuditId();
    const report = await lookUp({ email: "nobody@example.com" });
    expect(report.total).toBe(0);
    expect(report.counts).toEqual(Object.fromEntries(personalDataKinds.map((kind) => [kind, 0])));
    expect(auditSince(audit).map((e) => e.summary)).toEqual(["Privacy lookup (e-mail address): nothing found"]);
  });
});

describe("export", () => {
  it("is a JSON file download of every row the lookup finds, timestamps ISO-8601, recorded without the key", async () => {
    const { alice } = people("export");
    const lookup = await lookUp({ email: alice.email });
    const audit = lastAuditId();
    const response = await post("/api/admin/privacy/export", { email: alice.email });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="pawprice-personal-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const file = JSON.parse(await response.text()) as {
      request: unknown;
      generatedAt: string;
      data: PersonalDataReport["data"];
      counts: PersonalDataReport["counts"];
      total: number;
      kinds: Record<string, { label: string }>;
      linkingRule: string[];
    };
    expect(file.request).toEqual({ kind: "email", value: alice.email });
    expect(file.data).toEqual(lookup.data);
    expect(file.counts).toEqual(lookup.counts);
    expect(file.total).toBe(lookup.total);
    expect(Object.keys(file.kinds)).toEqual([...personalDataKinds]);
    expect(file.linkingRule.length).toBeGreaterThan(0);
    // Every row of the address in the database is in the file.
    expect(file.data.priceAlerts).toHaveLength(row<{ n: number }>("SELECT count(*) AS n FROM price_alerts WHERE email = ? COLLATE NOCASE", alice.email).n);
    expect(file.data.favorites).toHaveLength(row<{ n: number }>("SELECT count(*) AS n FROM favorites WHERE user_id = ?", alice.confirmed).n);
    // Every timestamp is ISO-8601 UTC, the one stored in SQLite's own format too; a day stays a date.
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    expect(file.generatedAt).toMatch(iso);
    for (const kind of personalDataKinds) {
      for (const entry of file.data[kind]) {
        for (const [name, value] of Object.entries(entry)) {
          if ((name.endsWith("At") || name === "at" || name === "lastUpdated") && value !== null) expect(value, `${kind}.${name}`).toMatch(iso);
        }
      }
    }
    expect(file.data.favorites.find((r) => r.notes === "alice's note")?.createdAt).toBe("2026-01-02T03:04:05.000Z");
    expect(file.data.voucherUses[0]?.day).toBe("2026-11-20");
    // The site's own security data is not the person's: no token hashes, seeds or claims.
    expect(Object.keys(file.data.emailConfirmations[0]!)).not.toContain("tokenHash");
    const entries = auditSince(audit);
    expect(entries.map((e) => [e.action, e.summary])).toEqual([["export", `Privacy export (e-mail address): ${lookup.total} rows of 11 kinds`]]);
    expect(JSON.stringify(entries)).not.toMatch(/alice/i);
  });
});

describe("erasure", () => {
  it("by e-mail address deletes every linked row in every table, redacts the audit log, and leaves the second person and the other spellings alone", async () => {
    const { alice, bob } = people("erasemail");
    const bobBefore = personalSnapshot(allOf(bob));
    const typedOnlyFavourites = rows("SELECT * FROM favorites WHERE user_id = ?", alice.typedOnly);
    const familyAlert = rows("SELECT * FROM price_alerts WHERE user_id = ? AND email LIKE 'family-%'", alice.confirmed);
    const otherMentions = rows("SELECT * FROM audit_log WHERE summary LIKE ?", `%m${alice.email}`);
    const lookup = await lookUp({ email: alice.email });
    const audit = lastAuditId();
    const response = await post("/api/admin/privacy/erase", { email: alice.email });
    expect(response.status).toBe(200);
    const result = (await response.json()) as { counts: Record<string, number>; total: number };
    // What went is what the lookup showed.
    expect(result.counts).toEqual(lookup.counts);
    expect(result.total).toBe(lookup.total);
    // Every table: nothing linked to Alice left.
    for (const table of personalTables()) {
      const [condition, params] = linkedTo(alice)(table);
      expect(rows(`SELECT * FROM "${table.name}" WHERE ${condition}`, ...params), table.name).toEqual([]);
    }
    expect(rows("SELECT id FROM audit_log WHERE summary LIKE ? OR before LIKE ? OR after LIKE ?", `% ${alice.email}%`, `%"${alice.email}%`, `%"${alice.email}%`)).toEqual([]);
    expect(row<{ summary: string }>("SELECT summary FROM audit_log WHERE id = ?", lookup.data.auditMentions[0]!.id).summary).toBe("Removed subscriber [erased address]");
    // Bob (same mail domain, same tables) is untouched, row for row.
    expect(personalSnapshot(allOf(bob))).toBe(bobBefore);
    // Not linked by the rule, so kept: the typed-only visitor's own favourite, the family member's alert, the plus-tag sign-up, an address containing Alice's.
    expect(rows("SELECT * FROM favorites WHERE user_id = ?", alice.typedOnly)).toEqual(typedOnlyFavourites);
    expect(rows("SELECT * FROM price_alerts WHERE user_id = ? AND email LIKE 'family-%'", alice.confirmed)).toEqual(familyAlert);
    expect(rows("SELECT email FROM email_subscribers WHERE email = ?", alice.email.replace("@", "+shop@"))).toHaveLength(1);
    expect(rows("SELECT * FROM audit_log WHERE summary LIKE ?", `%m${alice.email}`)).toEqual(otherMentions);
    // Recorded with the counts, without the address.
    const entries = auditSince(audit);
    expect(entries.map((e) => [e.action, e.entity, e.summary])).toEqual([
      ["erase", "privacy-request", `Privacy erasure (e-mail address): ${lookup.total - lookup.counts.auditMentions} rows deleted, 1 audit entry redacted`],
    ]);
    expect(JSON.parse(entries[0]!.after!)).toEqual({ keyKind: "email", counts: lookup.counts });
    expect(JSON.stringify(entries)).not.toMatch(/alice/i);
    // A second erasure finds nothing more.
    expect(((await (await post("/api/admin/privacy/erase", { email: alice.email })).json()) as { total: number }).total).toBe(0);
  });

  it("by visitor id deletes every row keyed on it, and nothing of the address's other rows or of another visitor", async () => {
    const { alice, bob } = people("erasevisitor");
    const bobBefore = personalSnapshot(allOf(bob));
    const newsletter = rows("SELECT * FROM email_subscribers WHERE email = ?", alice.email);
    const typedOnly = personalSnapshot((table) => (table.columns.includes("user_id") ? ["user_id = ?", [alice.typedOnly]] : ["0", []]));
    const audit = lastAuditId();
    const response = await post("/api/admin/privacy/erase", { userId: alice.confirmed });
    expect(response.status).toBe(200);
    const result = (await response.json()) as { counts: Record<PersonalDataKind, number>; total: number };
    expect(result.counts.favorites).toBe(2);
    expect(result.counts.priceAlerts).toBe(3);
    expect(result.counts.newsletter).toBe(0);
    for (const table of personalTables().filter((t) => t.columns.includes("user_id"))) {
      expect(rows(`SELECT * FROM "${table.name}" WHERE user_id = ?`, alice.confirmed), table.name).toEqual([]);
    }
    expect(rows("SELECT * FROM email_subscribers WHERE email = ?", alice.email)).toEqual(newsletter);
    expect(personalSnapshot((table) => (table.columns.includes("user_id") ? ["user_id = ?", [alice.typedOnly]] : ["0", []]))).toBe(typedOnly);
    expect(personalSnapshot(allOf(bob))).toBe(bobBefore);
    expect(auditSince(audit).map((e) => e.summary)).toEqual([`Privacy erasure (visitor id): ${result.total} rows deleted`]);
    expect(JSON.stringify(auditSince(audit))).not.toContain(alice.confirmed);
  });
});

describe("admin only, and bad input changes nothing", () => {
  const paths = ["/api/admin/privacy/lookup", "/api/admin/privacy/export", "/api/admin/privacy/erase"];

  it("answers 401 without an admin session, and nothing is deleted or recorded", async () => {
    const { alice } = people("anonymous");
    for (const path of paths) {
      for (const headers of [{}, { cookie: "pawprice_admin=forged-session-id" }] as Record<string, string>[]) {
        const before = databaseDigest();
        const response = await fetch(api.baseUrl + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ email: alice.email }) });
        expect(response.status, path).toBe(401);
        expect(await response.json()).toEqual({ error: "Sign in to the admin area" });
        expect(databaseDigest(), path).toBe(before);
      }
    }
  });

  it.each(paths)("%s answers 400 for no key, both keys, a malformed address, a wrong visitor id or another field", async (path) => {
    const { alice } = people(`bad${paths.indexOf(path)}`);
    const cases: [unknown, string | RegExp][] = [
      [{}, "Give an e-mail address (email) or a visitor id (userId)"],
      [{ email: alice.email, userId: alice.confirmed }, "Give an e-mail address or a visitor id, not both"],
      [{ email: "alice.example.com" }, "email: Please enter a valid email address"],
      [{ email: `${"a".repeat(250)}@example.com` }, "email: Please enter a valid email address"],
      [{ userId: `${alice.confirmed}0` }, /^userId must be an anonymous visitor id/],
      [{ userId: "user_" }, /^userId must be an anonymous visitor id/],
      [{ email: 42 }, /^email/],
      [{ email: alice.email, extra: true }, /extra/],
    ];
    for (const [body, error] of cases) {
      const before = databaseDigest();
      const response = await post(path, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const answer = (await response.json()) as { error: string };
      if (typeof error === "string") expect(answer.error).toBe(error);
      else expect(answer.error).toMatch(error);
      expect(databaseDigest(), JSON.stringify(body)).toBe(before);
    }
  });
});

describe("a visitor clearing their own browser's data", () => {
  it("deletes every row of that visitor id only; another visitor's and the address's newsletter stay", async () => {
    const { alice, bob } = people("selfclear");
    const bobBefore = personalSnapshot(allOf(bob));
    const typedOnly = personalSnapshot((table) => (table.columns.includes("user_id") ? ["user_id = ?", [alice.typedOnly]] : ["0", []]));
    const newsletter = rows("SELECT * FROM email_subscribers WHERE email = ?", alice.email);
    const audits = lastAuditId();
    const response = await fetch(`${api.baseUrl}/api/visitor-data?userId=${alice.confirmed}`, { method: "DELETE" });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { deleted } = (await response.json()) as { deleted: Record<PersonalDataKind, number> };
    expect(deleted).toEqual({
      priceAlerts: 3,
      newsletter: 0,
      emailConsents: 1,
      emailConfirmations: 1,
      favorites: 2,
      recentlyViewed: 1,
      clicks: 1,
      voucherUses: 1,
      profiles: 1,
      recommendations: 1,
      auditMentions: 0,
    });
    for (const table of personalTables().filter((t) => t.columns.includes("user_id"))) {
      expect(rows(`SELECT * FROM "${table.name}" WHERE user_id = ?`, alice.confirmed), table.name).toEqual([]);
    }
    expect(personalSnapshot(allOf(bob))).toBe(bobBefore);
    expect(personalSnapshot((table) => (table.columns.includes("user_id") ? ["user_id = ?", [alice.typedOnly]] : ["0", []]))).toBe(typedOnly);
    expect(rows("SELECT * FROM email_subscribers WHERE email = ?", alice.email)).toEqual(newsletter);
    // Not an admin action: the audit log is as it was.
    expect(lastAuditId()).toBe(audits);
    // Again: nothing left to delete.
    const again = (await (await fetch(`${api.baseUrl}/api/visitor-data?userId=${alice.confirmed}`, { method: "DELETE" })).json()) as { deleted: Record<string, number> };
    expect(Object.values(again.deleted).every((n) => n === 0)).toBe(true);
  });

  it("answers 400 for a missing, malformed or over-long visitor id, and nothing changes", async () => {
    const { alice } = people("selfclearbad");
    for (const query of ["", "?userId=", `?userId=${alice.confirmed}0`, `?userId=${alice.confirmed.toUpperCase()}`, "?userId=admin", `?userId=${alice.confirmed}&userId=${alice.typedOnly}`]) {
      const before = databaseDigest();
      const response = await fetch(`${api.baseUrl}/api/visitor-data${query}`, { method: "DELETE" });
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: string }).error, query).toMatch(/^userId/);
      expect(databaseDigest(), query).toBe(before);
    }
  });
});
