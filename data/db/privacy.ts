/**
 * Data rights: every row of personal data linked to an e-mail address or a visitor id (the
 * linking rule is in data/domain/privacy.ts), read for a lookup or an export and deleted for an
 * erasure, each recorded in the audit log by its kind of key and counts, never the key itself.
 * A visitor clearing their own browser's data deletes the rows of their visitor id the same way.
 */
import type { Db } from "./client.ts";
import { recordAudit } from "./audit.ts";
import { statement } from "./statements.ts";
import { mailboxDomains, mailboxKey } from "../domain/mailbox.ts";
import {
  emptyCounts,
  isoTimestamp,
  mentionsAddress,
  personalDataKinds,
  privacyAuditSummary,
  redactAddress,
  type KindCounts,
  type LinkedVisitor,
  type PersonalDataKind,
  type PersonalDataReport,
  type PersonalDataRow,
} from "../domain/privacy.ts";
import type { PrivacyKey } from "../domain/privacy.schema.ts";

/** Which rows of a table a key reaches: the address itself, the visitor ids it links, or one visitor id. */
type Scope = { kind: "email"; email: string } | { kind: "visitors"; userIds: string[] } | { kind: "visitor"; userId: string };

/** A table holding personal data, and how its rows are read for the person. */
interface Source {
  table: string;
  /** Exported columns, as expressions over `t` (the table) named in camelCase. */
  columns: string;
  /** Joins giving readable names (the product, retailer or voucher a row is about). */
  joins?: string;
  /** Columns stored as 0/1, exported as true/false (null stays null). */
  booleans?: readonly string[];
  /** Columns holding JSON text, exported parsed. */
  json?: readonly string[];
  /** What an e-mail key reaches here: rows naming the address, rows of the visitor ids it links, or none. */
  byEmail: "address" | "visitors" | null;
  /** Whether the table is keyed on a visitor id. */
  byVisitor: boolean;
}

const productName = "LEFT JOIN products p ON p.id = t.product_id";

const sources: Record<Exclude<PersonalDataKind, "auditMentions">, Source> = {
  priceAlerts: {
    table: "price_alerts",
    columns: `t.id, t.user_id AS visitorId, t.email, t.product_id AS productId, p.name AS productName, t.kind,
      t.target_price_pence AS targetPricePence, t.drop_percent AS dropPercent, t.reference_price_pence AS referencePricePence,
      t.last_in_stock AS lastInStock, t.is_active AS isActive, t.created_at AS createdAt, t.confirmed_at AS confirmedAt,
      t.last_notified_at AS lastNotifiedAt, t.last_notified_price_pence AS lastNotifiedPricePence`,
    joins: productName,
    booleans: ["lastInStock", "isActive"],
    byEmail: "address",
    byVisitor: true,
  },
  newsletter: {
    table: "email_subscribers",
    columns: "t.id, t.email, t.source, t.subscribed_at AS subscribedAt, t.confirmed_at AS confirmedAt, t.is_active AS isActive",
    booleans: ["isActive"],
    byEmail: "address",
    byVisitor: false,
  },
  emailConsents: {
    table: "email_consents",
    columns: "t.email, t.user_id AS visitorId, t.confirmed_at AS confirmedAt",
    byEmail: "address",
    byVisitor: true,
  },
  // The link's token hash, its seed and the sending claim are the site's own security data, not the person's.
  emailConfirmations: {
    table: "email_confirmations",
    columns: "t.id, t.email, t.purpose, t.user_id AS visitorId, t.created_at AS createdAt, t.expires_at AS expiresAt, t.sent_at AS sentAt, t.confirmed_at AS confirmedAt",
    byEmail: "address",
    byVisitor: true,
  },
  favorites: {
    table: "favorites",
    columns: "t.id, t.user_id AS visitorId, t.product_id AS productId, p.name AS productName, t.notes, t.saved_price_pence AS savedPricePence, t.created_at AS createdAt",
    joins: productName,
    byEmail: "visitors",
    byVisitor: true,
  },
  recentlyViewed: {
    table: "recently_viewed",
    columns: "t.id, t.user_id AS visitorId, t.product_id AS productId, p.name AS productName, t.viewed_at AS viewedAt",
    joins: productName,
    byEmail: "visitors",
    byVisitor: true,
  },
  clicks: {
    table: "user_behaviour",
    columns: `t.id, t.user_id AS visitorId, t.session_id AS sessionId, t.action, t.product_id AS productId, p.name AS productName,
      t.category_id AS categoryId, t.retailer_id AS retailerId, r.name AS retailerName, t.timestamp AS at, t.metadata`,
    joins: `${productName} LEFT JOIN retailers r ON r.id = t.retailer_id`,
    json: ["metadata"],
    byEmail: "visitors",
    byVisitor: true,
  },
  voucherUses: {
    table: "voucher_uses",
    columns: "t.user_id AS visitorId, t.voucher_id AS voucherId, v.code AS voucherCode, v.retailer AS voucherRetailer, t.day",
    joins: "LEFT JOIN vouchers v ON v.id = t.voucher_id",
    byEmail: "visitors",
    byVisitor: true,
  },
  profiles: {
    table: "user_profiles",
    columns: `t.id, t.user_id AS visitorId, t.category_preferences AS categoryPreferences, t.price_range AS priceRange, t.pet_type AS petType,
      t.activity_level AS activityLevel, t.last_updated AS lastUpdated`,
    byEmail: "visitors",
    byVisitor: true,
  },
  recommendations: {
    table: "product_recommendations",
    columns: "t.id, t.user_id AS visitorId, t.product_id AS productId, p.name AS productName, t.score, t.reason, t.created_at AS createdAt, t.expires_at AS expiresAt",
    joins: productName,
    byEmail: "visitors",
    byVisitor: true,
  },
};

const tableKinds = personalDataKinds.filter((kind): kind is Exclude<PersonalDataKind, "auditMentions"> => kind !== "auditMentions");

/**
 * The condition picking a table's rows for a scope (unqualified columns, so SELECT over `t` and
 * DELETE share it), or null when the scope reaches none of its rows. Addresses compare without
 * regard to case on the whole address.
 */
function condition(source: Source, scope: Scope): { where: string; params: unknown[] } | null {
  if (scope.kind === "email") return source.byEmail === "address" ? { where: "email = ? COLLATE NOCASE", params: [scope.email] } : null;
  if (scope.kind === "visitors") {
    return source.byEmail === "visitors" && scope.userIds.length > 0
      ? { where: "user_id IN (SELECT value FROM json_each(?))", params: [JSON.stringify(scope.userIds)] }
      : null;
  }
  return source.byVisitor ? { where: "user_id = ?", params: [scope.userId] } : null;
}

/** The scopes a key reaches: an address reaches its own rows and the visitor ids that confirmed it. */
function scopesOf(key: PrivacyKey, visitors: LinkedVisitor[]): Scope[] {
  if (key.kind === "visitor") return [{ kind: "visitor", userId: key.userId }];
  return [{ kind: "email", email: key.email }, { kind: "visitors", userIds: visitors.filter((visitor) => visitor.confirmed).map((visitor) => visitor.userId) }];
}

/** A row as exported: booleans as true/false, JSON parsed, timestamps ISO-8601. */
function exportRow(row: PersonalDataRow, source: Pick<Source, "booleans" | "json">): PersonalDataRow {
  const result: PersonalDataRow = {};
  for (const [name, value] of Object.entries(row)) {
    if (source.booleans?.includes(name)) result[name] = value === null ? null : value === 1;
    else if (source.json?.includes(name) && typeof value === "string") result[name] = parseJson(value);
    else result[name] = isoTimestamp(value);
  }
  return result;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The visitor ids an address leads to: those that confirmed it (email_consents) and those that
 * only typed it (alerts and confirmation mails), each with how many other addresses it used.
 */
function linkedVisitors(db: Db, email: string): LinkedVisitor[] {
  const rows = statement<{ userId: string; confirmed: number }>(
    db,
    `SELECT user_id AS userId, max(confirmed) AS confirmed FROM (
       SELECT user_id, 1 AS confirmed FROM email_consents WHERE email = ? COLLATE NOCASE
       UNION ALL SELECT user_id, 0 FROM price_alerts WHERE email = ? COLLATE NOCASE
       UNION ALL SELECT user_id, 0 FROM email_confirmations WHERE email = ? COLLATE NOCASE AND user_id IS NOT NULL)
     GROUP BY user_id ORDER BY user_id`,
  ).all(email, email, email);
  return rows.map((row) => ({
    userId: row.userId,
    confirmed: row.confirmed === 1,
    otherAddresses: addressesOfVisitor(db, row.userId).filter((address) => address !== email.toLowerCase()).length,
  }));
}

/** Every address (lower case) a visitor id's alerts, consents and confirmation mails name, sorted. */
function addressesOfVisitor(db: Db, userId: string): string[] {
  return (
    statement<{ email: string }>(
      db,
      `SELECT DISTINCT lower(email) AS email FROM (
         SELECT email FROM price_alerts WHERE user_id = ?
         UNION ALL SELECT email FROM email_consents WHERE user_id = ?
         UNION ALL SELECT email FROM email_confirmations WHERE user_id = ?)
       ORDER BY 1`,
    ).all(userId, userId, userId)
  ).map((row) => row.email);
}

/** `%@domain` for LIKE, with LIKE's wildcards in the domain taken literally. */
const addressesAt = (domain: string) => `%@${domain.replace(/[\\%_]/g, "\\$&")}`;

/** Other addresses stored anywhere that reach the same mailbox as `email` (data/domain/mailbox.ts), sorted. */
function otherSpellings(db: Db, email: string): string[] {
  const [domain, otherDomain = domain] = mailboxDomains(email).map(addressesAt);
  const rows = statement<{ email: string }>(
    db,
    `SELECT DISTINCT lower(email) AS email FROM (
       SELECT email FROM price_alerts UNION ALL SELECT email FROM email_subscribers
       UNION ALL SELECT email FROM email_consents UNION ALL SELECT email FROM email_confirmations)
     WHERE email LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' ORDER BY 1`,
  ).all(domain, otherDomain);
  const mailbox = mailboxKey(email);
  return rows.map((row) => row.email).filter((address) => address !== email.toLowerCase() && mailboxKey(address) === mailbox);
}

interface AuditRow {
  id: number;
  at: string;
  action: string;
  entity: string;
  entityId: number | null;
  summary: string;
  before: string | null;
  after: string | null;
}

/** The audit entries naming the address (as a whole address, in any case), oldest first. */
function auditMentions(db: Db, email: string): AuditRow[] {
  const like = `%${email.replace(/[\\%_]/g, "\\$&")}%`;
  const rows = statement<AuditRow>(
    db,
    `SELECT id, at, action, entity, entity_id AS entityId, summary, before, after FROM audit_log
     WHERE summary LIKE ? ESCAPE '\\' OR before LIKE ? ESCAPE '\\' OR after LIKE ? ESCAPE '\\' ORDER BY id`,
  ).all(like, like, like);
  return rows.filter((row) => [row.summary, row.before, row.after].some((text) => text !== null && mentionsAddress(text, email)));
}

/** Every row linked to the key, by kind (see the linking rule in data/domain/privacy.ts). */
export function findPersonalData(db: Db, key: PrivacyKey): PersonalDataReport {
  const visitors = key.kind === "email" ? linkedVisitors(db, key.email) : [];
  const data = Object.fromEntries(personalDataKinds.map((kind) => [kind, [] as PersonalDataRow[]])) as Record<PersonalDataKind, PersonalDataRow[]>;
  for (const scope of scopesOf(key, visitors)) {
    for (const kind of tableKinds) {
      const source = sources[kind];
      const picked = condition(source, scope);
      if (!picked) continue;
      const rows = statement<PersonalDataRow>(db, `SELECT ${source.columns} FROM ${source.table} t ${source.joins ?? ""} WHERE ${picked.where} ORDER BY t.rowid`).all(
        ...picked.params,
      );
      data[kind].push(...rows.map((row) => exportRow(row, source)));
    }
  }
  if (key.kind === "email") {
    data.auditMentions = auditMentions(db, key.email).map((row) => exportRow({ ...row }, { json: ["before", "after"] }));
  }
  const counts = emptyCounts();
  for (const kind of personalDataKinds) counts[kind] = data[kind].length;
  return {
    keyKind: key.kind,
    visitors,
    otherSpellings: key.kind === "email" ? otherSpellings(db, key.email) : [],
    addressesUsed: key.kind === "visitor" ? addressesOfVisitor(db, key.userId) : [],
    data,
    counts,
    total: personalDataKinds.reduce((sum, kind) => sum + counts[kind], 0),
  };
}

/**
 * Reads everything linked to the key for a lookup or an export and records that in the audit
 * log (the kind of key and the counts, nothing of the key), in one transaction.
 */
export function readPersonalData(db: Db, key: PrivacyKey, action: "lookup" | "export", now = new Date()): PersonalDataReport {
  return db.$client
    .transaction(() => {
      const report = findPersonalData(db, key);
      recordPrivacyAudit(db, action, key, report.counts, now);
      return report;
    })
    .immediate();
}

function recordPrivacyAudit(db: Db, action: "lookup" | "export" | "erase", key: PrivacyKey, counts: KindCounts, now: Date): void {
  recordAudit(
    db,
    { action, entity: "privacy-request", entityId: null, summary: privacyAuditSummary(action, key.kind, counts), after: { keyKind: key.kind, counts } },
    now,
  );
}

/** Deletes every row the key reaches in the tables (not the audit log); the rows deleted of each kind. */
function deleteLinkedRows(db: Db, key: PrivacyKey): KindCounts {
  const visitors = key.kind === "email" ? linkedVisitors(db, key.email) : [];
  const counts = emptyCounts();
  for (const scope of scopesOf(key, visitors)) {
    for (const kind of tableKinds) {
      const source = sources[kind];
      const picked = condition(source, scope);
      if (picked) counts[kind] += statement(db, `DELETE FROM ${source.table} WHERE ${picked.where}`).run(...picked.params).changes;
    }
  }
  return counts;
}

export interface ErasureResult {
  /** Rows deleted by kind; auditMentions counts the audit entries whose address was replaced. */
  counts: KindCounts;
  total: number;
}

/**
 * Erases everything linked to the key in one transaction: deletes the linked rows of every table
 * and replaces the address in the audit entries naming it (the entries stay: they record admin
 * actions), then records the erasure with its counts and nothing of the key.
 */
export function erasePersonalData(db: Db, key: PrivacyKey, now = new Date()): ErasureResult {
  return db.$client
    .transaction((): ErasureResult => {
      const counts = deleteLinkedRows(db, key);
      if (key.kind === "email") {
        const redact = statement(db, "UPDATE audit_log SET summary = ?, before = ?, after = ? WHERE id = ?");
        for (const row of auditMentions(db, key.email)) {
          const clean = (text: string | null) => (text === null ? null : redactAddress(text, key.email));
          redact.run(clean(row.summary), clean(row.before), clean(row.after), row.id);
          counts.auditMentions++;
        }
      }
      recordPrivacyAudit(db, "erase", key, counts, now);
      return { counts, total: personalDataKinds.reduce((sum, kind) => sum + counts[kind], 0) };
    })
    .immediate();
}

/**
 * A visitor clearing their own browser's data: every row keyed on their visitor id goes
 * (favourites, recently viewed, price alerts, consents and confirmation mails of this browser,
 * clicks, voucher uses, profile, recommendations), another visitor's rows stay. Not an admin
 * action, so not in the audit log. Returns the rows deleted of each kind.
 */
export function clearVisitorData(db: Db, userId: string): KindCounts {
  return db.$client.transaction(() => deleteLinkedRows(db, { kind: "visitor", userId })).immediate();
}
