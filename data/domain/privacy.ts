/**
 * Data rights (access, portability, erasure): the kinds of personal data the site keeps, how a
 * request's key links to them, and the texts the admin screen, the export and the audit log use.
 * No dependencies, so the admin screen can share it.
 *
 * The linking rule:
 * - An e-mail address finds every row holding that address, compared case-insensitively on the
 *   whole address: price alerts, the newsletter sign-up, consents and confirmation mails, and the
 *   audit entries naming it. It finds the visitor ids that confirmed the address (they followed the
 *   link mailed to it), and with them those visitors' browser data: favourites, recently viewed,
 *   clicks, voucher uses, profiles and recommendations. A visitor id that only typed the address
 *   (never confirmed it) is listed, but its browser data is not included: anybody can type any
 *   address, so typing one proves nothing about who owns the browser.
 * - Other spellings of the same mailbox (plus-tags, dots at Gmail) are listed, never included: only
 *   some providers deliver them to one mailbox, so they may be another person's address. The
 *   admin looks each up on its own once the requester shows they receive mail there.
 * - A visitor id finds every row keyed on it, including its price alerts with the address it typed
 *   and its consents and confirmations. It does not reach the newsletter or anything keyed only on
 *   an address: holding a browser proves nothing about an address. The addresses it used are listed.
 */

/** Every kind of personal data, in the order the screen and the export show them. */
export const personalDataKinds = [
  "priceAlerts",
  "newsletter",
  "emailConsents",
  "emailConfirmations",
  "favorites",
  "recentlyViewed",
  "clicks",
  "voucherUses",
  "profiles",
  "recommendations",
  "auditMentions",
] as const;

export type PersonalDataKind = (typeof personalDataKinds)[number];

/** What each kind is, for the admin screen and the export (table in brackets). */
export const personalDataLabels: Record<PersonalDataKind, { label: string; description: string }> = {
  priceAlerts: { label: "Price alerts", description: "Alerts with the address they mail, the product and the condition; the last time one was mailed (price_alerts)." },
  newsletter: { label: "Newsletter sign-ups", description: "The sign-up, when it was made and confirmed, and whether it is active (email_subscribers)." },
  emailConsents: { label: "E-mail consents", description: "Which visitor confirmed the address for price alerts, and when (email_consents)." },
  emailConfirmations: {
    label: "Confirmation mails",
    description: "Each confirmation mail asked for: when it was sent and when its link was followed (email_confirmations).",
  },
  favorites: { label: "Favourites", description: "Saved products with their notes and the price when saved (favorites)." },
  recentlyViewed: { label: "Recently viewed", description: "Products viewed and when (recently_viewed)." },
  clicks: { label: "Affiliate clicks", description: "Retailer links followed: retailer, product, price shown, link and time (user_behaviour)." },
  voucherUses: { label: "Voucher uses", description: "Which voucher was copied on which day (voucher_uses)." },
  profiles: { label: "Visitor profiles", description: "Stored preferences of a visitor (user_profiles)." },
  recommendations: { label: "Product recommendations", description: "Products suggested to a visitor (product_recommendations)." },
  auditMentions: {
    label: "Admin audit entries naming the address",
    description: "Entries of the admin's audit log that name the address; erasure replaces the address in them and keeps the entry (audit_log).",
  },
};

/**
 * There is no log of the mails sent beyond the rows above: when a confirmation mail was sent and
 * when an alert last mailed are columns of their rows.
 */
export const mailRecordNote =
  "The site keeps no copy of the mails it sends: when a confirmation mail was sent and when a price alert last mailed are recorded on their rows above.";

/** Said besides the note when the server writes mails to its outbox folder instead of sending them. */
export const outboxNote = "This server writes mails to its outbox folder (no SMTP server is set): delete the .eml files to this address there by hand.";

export type PrivacyKeyKind = "email" | "visitor";

export const privacyKeyLabels: Record<PrivacyKeyKind, string> = { email: "e-mail address", visitor: "visitor id" };

export type PrivacyAction = "lookup" | "export" | "erase";

export type KindCounts = Record<PersonalDataKind, number>;

/** Zero of every kind. */
export function emptyCounts(): KindCounts {
  return Object.fromEntries(personalDataKinds.map((kind) => [kind, 0])) as KindCounts;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString("en-GB")} ${count === 1 ? one : many}`;

/**
 * The audit log's line for a privacy request: the action, the key's kind and the counts, never
 * the key itself (the log must not keep what an erasure removed).
 * @example privacyAuditSummary("lookup", "email", { ...emptyCounts(), priceAlerts: 2, favorites: 1 }) // "Privacy lookup (e-mail address): 3 rows of 2 kinds"
 * @example privacyAuditSummary("erase", "visitor", emptyCounts()) // "Privacy erasure (visitor id): nothing found"
 * @example privacyAuditSummary("erase", "email", { ...emptyCounts(), newsletter: 1, auditMentions: 2 }) // "Privacy erasure (e-mail address): 1 row deleted, 2 audit entries redacted"
 */
export function privacyAuditSummary(action: PrivacyAction, keyKind: PrivacyKeyKind, counts: KindCounts): string {
  const title = { lookup: "Privacy lookup", export: "Privacy export", erase: "Privacy erasure" }[action];
  const head = `${title} (${privacyKeyLabels[keyKind]})`;
  const rows = personalDataKinds.filter((kind) => kind !== "auditMentions").reduce((sum, kind) => sum + counts[kind], 0);
  const mentions = counts.auditMentions;
  if (rows + mentions === 0) return `${head}: nothing found`;
  if (action === "erase") {
    const parts = [`${plural(rows, "row")} deleted`, ...(mentions > 0 ? [`${plural(mentions, "audit entry", "audit entries")} redacted`] : [])];
    return `${head}: ${parts.join(", ")}`;
  }
  const kinds = personalDataKinds.filter((kind) => counts[kind] > 0).length;
  return `${head}: ${plural(rows + mentions, "row")} of ${plural(kinds, "kind")}`;
}

/** What an erased address is replaced with in the audit log. */
export const erasedAddress = "[erased address]";

/** Characters that may stand around an address as part of a longer one. */
const addressChar = "[A-Za-z0-9._%+\\-]";

function addressPattern(email: string): RegExp {
  const literal = email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // Not inside a longer address: no address character before it, and after it neither a
  // character of a host name nor a dot going on into one (x@example.com.evil is another address).
  return new RegExp(`(?<!${addressChar})${literal}(?![A-Za-z0-9\\-]|\\.[A-Za-z0-9])`, "gi");
}

/**
 * Whether the text names this address as a whole, in any case; a longer address containing it
 * (xalice@example.com, alice@example.com.au) does not count.
 * @example mentionsAddress("Removed subscriber Alice@Example.com", "alice@example.com") // true
 * @example mentionsAddress("Removed subscriber malice@example.com", "alice@example.com") // false
 */
export function mentionsAddress(text: string, email: string): boolean {
  return addressPattern(email).test(text);
}

/**
 * The text with every whole mention of the address replaced by `erasedAddress`.
 * @example redactAddress("Removed subscriber alice@example.com", "alice@example.com") // "Removed subscriber [erased address]"
 */
export function redactAddress(text: string, email: string): string {
  return text.replace(addressPattern(email), erasedAddress);
}

/**
 * The export's file name: site, purpose and UK date, nothing of the person (downloads folders
 * and mail attachments show it).
 * @example personalDataFileName("pawprice", "2026-11-22") // "pawprice-personal-data-2026-11-22.json"
 */
export function personalDataFileName(siteSlug: string, ukDate: string): string {
  return `${siteSlug || "site"}-personal-data-${ukDate}.json`;
}


/** The linking rule in the words the admin screen and the export give it. */
export const linkingRule: readonly string[] = [
  "An e-mail address finds every row holding that address, compared case-insensitively on the whole address.",
  "It also finds the browser data (favourites, recently viewed, clicks, voucher uses) of the visitor ids that confirmed the address by its e-mailed link; a visitor id that only typed the address is listed without its browser data.",
  "Other spellings of the same mailbox (a plus-tag, dots at Gmail) are listed, not included: look each up on its own once the person shows they receive mail there.",
  "A visitor id finds every row keyed on it, including its price alerts with the address typed in them; it does not reach the newsletter, which is keyed on the address alone.",
];

/** A visitor id an address led to. */
export interface LinkedVisitor {
  userId: string;
  /** Whether it confirmed the address (its browser data is then included). */
  confirmed: boolean;
  /** How many other addresses this visitor id used (a shared browser): those rows are not included. */
  otherAddresses: number;
}

export type PersonalDataRow = Record<string, unknown>;

/** Everything linked to one key (see the linking rule above). */
export interface PersonalDataReport {
  keyKind: PrivacyKeyKind;
  /** E-mail key: the visitor ids that confirmed or typed the address. Visitor key: empty. */
  visitors: LinkedVisitor[];
  /** E-mail key: other addresses in the database reaching the same mailbox, not included. */
  otherSpellings: string[];
  /** Visitor key: the addresses its alerts, consents and confirmations name. */
  addressesUsed: string[];
  data: Record<PersonalDataKind, PersonalDataRow[]>;
  counts: KindCounts;
  /** Rows of every kind together. */
  total: number;
}

const timestampPattern = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A stored timestamp as ISO-8601 UTC: the database writes them so, but a row written by hand in
 * SQLite's own format ("2026-11-22 10:00:00", which is UTC) is brought to the same form. Anything
 * else (a date alone, null, text) is returned as it is.
 * @example isoTimestamp("2026-11-22 10:00:00") // "2026-11-22T10:00:00.000Z"
 * @example isoTimestamp("2026-11-22T10:00:00.123Z") // "2026-11-22T10:00:00.123Z"
 * @example isoTimestamp("2026-11-22") // "2026-11-22"
 */
export function isoTimestamp<T>(value: T): T | string {
  if (typeof value !== "string") return value;
  const match = timestampPattern.exec(value);
  if (!match) return value;
  const date = new Date(`${match[1]}T${match[2]}${match[3] ?? "Z"}`);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

export interface PersonalDataDocument {
  about: string;
  site: string;
  generatedAt: string;
  request: { kind: PrivacyKeyKind; value: string };
  linkingRule: readonly string[];
  mail: string;
  kinds: Record<PersonalDataKind, { label: string; description: string }>;
  visitors: LinkedVisitor[];
  otherSpellings: string[];
  addressesUsed: string[];
  counts: KindCounts;
  total: number;
  data: Record<PersonalDataKind, PersonalDataRow[]>;
}

/** The subject access export: the report with what it is, for whom, when, and how it was linked. */
export function personalDataDocument(report: PersonalDataReport, key: string, options: { siteName: string; now: Date }): PersonalDataDocument {
  return {
    about: `The personal data ${options.siteName} holds linked to this ${privacyKeyLabels[report.keyKind]}.`,
    site: options.siteName,
    generatedAt: options.now.toISOString(),
    request: { kind: report.keyKind, value: key },
    linkingRule,
    mail: mailRecordNote,
    kinds: personalDataLabels,
    visitors: report.visitors,
    otherSpellings: report.otherSpellings,
    addressesUsed: report.addressesUsed,
    counts: report.counts,
    total: report.total,
    data: report.data,
  };
}
