/**
 * One row type per table, derived from data/db/schema.ts: what hand-written SQL reads from it.
 * Keys are the SQL column names (snake_case, as `SELECT price_pence` returns them) and values are
 * what SQLite gives back: integers for boolean columns (1 true, 0 false), null where a column may
 * be null, a text column's enum as its union. A query picks the columns it selects with `Pick<>`,
 * so a column renamed or dropped in schema.ts breaks the type check at every query that reads it.
 *
 * Type-only: nothing here runs, and the schema is not loaded by importing it.
 */
import type { Column, Table } from "drizzle-orm";
import type * as schema from "./schema.ts";

/** A column's value as SQLite returns it: a boolean column's 0/1 integer, null when the column allows it. */
type SqlValue<C extends Column> =
  | (C["_"]["columnType"] extends "SQLiteBoolean" ? number : C["_"]["data"])
  | (C["_"]["notNull"] extends true ? never : null);

/** A table's row as raw SQL reads it, keyed by column name. */
export type SqlRow<T extends Table> = {
  [K in keyof T["_"]["columns"] as T["_"]["columns"][K]["_"]["name"]]: SqlValue<T["_"]["columns"][K]>;
};

export type CategoryRow = SqlRow<typeof schema.categories>;
export type RetailerRow = SqlRow<typeof schema.retailers>;
export type ProductRow = SqlRow<typeof schema.products>;
export type ProductPriceRow = SqlRow<typeof schema.productPrices>;
export type PriceHistoryRow = SqlRow<typeof schema.priceHistory>;
export type RecentlyViewedRow = SqlRow<typeof schema.recentlyViewed>;
export type FavoriteRow = SqlRow<typeof schema.favorites>;
export type PriceAlertRow = SqlRow<typeof schema.priceAlerts>;
export type EmailSubscriberRow = SqlRow<typeof schema.emailSubscribers>;
export type EmailConsentRow = SqlRow<typeof schema.emailConsents>;
export type EmailConfirmationRow = SqlRow<typeof schema.emailConfirmations>;
export type UserBehaviourRow = SqlRow<typeof schema.userBehaviour>;
export type ProductRecommendationRow = SqlRow<typeof schema.productRecommendations>;
export type UserProfileRow = SqlRow<typeof schema.userProfiles>;
export type VoucherRow = SqlRow<typeof schema.vouchers>;
export type VoucherUseRow = SqlRow<typeof schema.voucherUses>;
export type AffiliateSettingRow = SqlRow<typeof schema.affiliateSettings>;
export type AppSettingRow = SqlRow<typeof schema.appSettings>;
export type AdminSessionRow = SqlRow<typeof schema.adminSessions>;
export type AuditLogRow = SqlRow<typeof schema.auditLog>;
export type SiteBuildRow = SqlRow<typeof schema.siteBuilds>;
export type PriceHoldRow = SqlRow<typeof schema.priceHolds>;
export type PriceRefreshRunRow = SqlRow<typeof schema.priceRefreshRuns>;
export type FeedSourceRow = SqlRow<typeof schema.feedSources>;
export type FeedImportRunRow = SqlRow<typeof schema.feedImportRuns>;
export type CrawlHostRow = SqlRow<typeof schema.crawlHosts>;
export type MachineTokenRow = SqlRow<typeof schema.machineTokens>;
export type NightlyRunRow = SqlRow<typeof schema.nightlyRuns>;

/** A count or other single number a query names (`SELECT count(*) AS n`). */
export type CountRow<K extends string = "n"> = Record<K, number>;
