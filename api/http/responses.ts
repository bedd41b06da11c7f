/**
 * The bodies the API answers with, named once for the server and the site. Each is derived from
 * the function or type whose value its route returns, so the server and its callers cannot drift
 * apart; where a route builds its answer itself, the route checks it with `satisfies`.
 *
 * Type-only: the site imports it with `import type` only, so nothing server-side reaches the
 * browser (this module itself holds no run-time code and imports only types).
 */
import type { AuditEntry } from "../../data/db/audit.ts";
import type { BackupFile } from "../../data/db/backup.ts";
import type { AdminProduct as StoredAdminProduct, AdminProductRow as StoredAdminProductRow, AdminVoucher as StoredAdminVoucher, readAnalytics, dashboardCounts, listAdminProducts } from "../../data/db/admin-reads.ts";
import type { Written } from "../../data/db/catalogue-writer/transaction.ts";
import type { createProduct } from "../../data/db/catalogue-writer/products.ts";
import type { createCategory } from "../../data/db/catalogue-writer/categories.ts";
import type { createVoucher } from "../../data/db/catalogue-writer/vouchers.ts";
import type { listCategories, getCategoryById, getRetailerById, getAffiliateIds } from "../../data/db/catalogue.ts";
import type { clearDemoCatalogue, demoCounts } from "../../data/db/demo.ts";
import type { listRuns } from "../../data/db/feed-sources.ts";
import type { listMachineTokens, createMachineToken } from "../../data/db/machine-tokens.ts";
import type { listNightlyRuns } from "../../data/db/nightly-runs.ts";
import type { HeldPrice, RefreshRun } from "../../data/db/price-review.ts";
import type { acceptHeldPrice } from "../../data/db/price-writer.ts";
import type { erasePersonalData, readPersonalData } from "../../data/db/privacy.ts";
import type { countProducts, SearchResult as StoredSearchResult } from "../../data/db/products.ts";
import type { CatalogueSearch } from "../../data/db/product-search.ts";
import type { ProductJson } from "../../data/domain/catalogue-json.ts";
import type { BasketQuoteJson } from "../../data/domain/basket-json.ts";
import type { AlternativesJson } from "../../data/domain/alternatives-json.ts";
import type { getCompareProducts } from "../../data/db/compare.ts";
import type { listSubscribersWithConsent } from "../../data/db/subscribers.ts";
import type { BuildRecord as StoredBuildRecord } from "../../data/db/site-builds.ts";
import type { FeedSniff as StoredFeedSniff } from "../../data/feeds/read-feed.ts";
import type { FeedImports } from "../feed-imports.ts";
import type { PricePipeline } from "../price-pipeline.ts";
import type { SiteRebuildStatus } from "../jobs/site-rebuild.ts";
import type { AdminContext } from "../context.ts";
import type { ExtractAnswer } from "../routes/extract-price.post.ts";

/** What a catalogue write hands its route once committed (commitWrite answers with it). */
type Committed<F extends (...args: never[]) => Written<unknown>> = ReturnType<F>["value"];
/** The element of a list a read returns. */
type Item<F extends (...args: never[]) => readonly unknown[]> = ReturnType<F>[number];

// Session

/** POST /api/admin/login, POST /api/admin/logout. */
export interface OkResponse {
  ok: true;
}

/** GET /api/admin/session (a 401 otherwise). */
export interface SessionResponse {
  authenticated: true;
}

// Dashboard and site builds

/** One admin change as the dashboard lists it (the audit entry without its before and after). */
export type DashboardChange = Pick<AuditEntry, "id" | "at" | "action" | "entity" | "entityId" | "summary">;

/** GET /api/admin/dashboard: the catalogue's counts and the latest admin changes. */
export interface DashboardResponse {
  counts: ReturnType<typeof dashboardCounts>;
  recentChanges: DashboardChange[];
}

/** idle, scheduled (a build starts after the gathering delay) or building. */
export type BuildState = SiteRebuildStatus["state"];

/** One site build: when, how long, full or fast, how it ended and the last lines of its output. */
export type BuildRecord = StoredBuildRecord;

/**
 * GET /api/admin/build-status, POST /api/admin/rebuild: what the site build is doing and how the
 * last one went; the rebuild job also names the release it serves.
 */
export type BuildStatus = Pick<SiteRebuildStatus, "state" | "lastBuild"> & Partial<Pick<SiteRebuildStatus, "current">>;

// The demo catalogue

/** GET /api/admin/demo: what is left of the seeded demo catalogue. */
export type DemoState = ReturnType<typeof demoCounts>;
/** POST /api/admin/demo/clear: what clearing removed, and the demo products kept as the owner's. */
export type DemoCleared = Committed<typeof clearDemoCatalogue>;

// Products

/** A row of the admin product table. */
export type AdminProductRow = StoredAdminProductRow;
/** GET /api/admin/products: one page of the table, with the total and the page size. */
export type AdminProductPage = ReturnType<typeof listAdminProducts> & { page: number; pageSize: number };
/** GET /api/admin/products/:id: a product as the edit form loads it. */
export type AdminProduct = StoredAdminProduct;
/** POST /api/products, PUT /api/products/:id. */
export type ProductSaved = Committed<typeof createProduct>;

// Categories, retailers, affiliate IDs

/** GET /api/categories. */
export type CategoryList = ReturnType<typeof listCategories>;
/** GET /api/categories/:id. */
export type CategoryResponse = NonNullable<ReturnType<typeof getCategoryById>>;
/** POST /api/categories, PUT /api/categories/:id. */
export type CategorySaved = Committed<typeof createCategory>;
/** GET /api/retailers/:id, and POST and PUT (they answer as the GET reads it). */
export type RetailerResponse = NonNullable<ReturnType<typeof getRetailerById>>;
/** GET and PUT /api/admin/affiliate-ids. */
export type AffiliateIdsResponse = ReturnType<typeof getAffiliateIds>;

// Subscribers and vouchers

/** A row of GET /api/admin/email-subscribers. */
export type EmailSubscriber = Item<typeof listSubscribersWithConsent>;
/** A row of GET /api/admin/vouchers (expired ones included). */
export type AdminVoucher = StoredAdminVoucher;
/** POST /api/admin/vouchers, PUT /api/admin/vouchers/:id: the voucher as saved (without its uses). */
export type VoucherSaved = Committed<typeof createVoucher>;

// Analytics

/** One run of the scheduled price refresh as Platform Health shows it (its failure lines stay in the database). */
export type PriceRefreshRun = Omit<RefreshRun, "id" | "failures">;

/** Platform Health, as measured when asked. */
export interface PlatformHealth {
  database: { ok: boolean; sizeBytes: number | null };
  lastPriceRefresh: PriceRefreshRun | null;
  /** When the server reads retailer pages next (ISO; null: not scheduled). */
  nextPriceRefresh: string | null;
  /** How long a confirmed price counts as current. */
  freshForHours: number;
  lastBuild: BuildRecord | null;
  build: { state: BuildState };
  mail: { transport: AdminContext["mailTransport"] };
  /** The newest database backup (its time and size, never its path); null: none yet. */
  lastBackup: Pick<BackupFile, "takenAt" | "bytes"> | null;
}

/** GET /api/admin/analytics: the analytics cards and Platform Health. */
export type AnalyticsResponse = ReturnType<typeof readAnalytics> & { health: PlatformHealth };

// The price pipeline

/** POST /api/extract-price: what the server read from a retailer page. */
export type ExtractedPrice = ExtractAnswer;
/** One price a page lists when nothing on it picks one. */
export type ExtractedCandidate = NonNullable<ExtractAnswer["candidates"]>[number];

/** The hold rule: a new price below `below` or above `above` times the published price is held. */
export type HoldFactor = PricePipeline["holdPolicy"];

/** A price check held for review, its prices in pounds (null: the offer had no published price). */
export type PriceHold = Omit<HeldPrice, "publishedPricePence" | "heldPricePence"> & { publishedPrice: number | null; heldPrice: number };

/** GET /api/admin/price-holds: the held prices, oldest first, and the factor that held them. */
export interface PriceHoldsResponse {
  holds: PriceHold[];
  factor: HoldFactor;
}

/** POST /api/admin/price-holds/:id/accept and .../reject. */
export type HoldDecided = Committed<typeof acceptHeldPrice>;

// Feed sources and their import runs

/** A feed import run with its counters or result. */
export type FeedRunResponse = ReturnType<FeedImports["start"]>;
/** POST /api/admin/import-amazon-products, POST /api/admin/feed-sources/:id/runs: a run started in the background. */
export interface StartedRun {
  runId: FeedRunResponse["id"];
  run: FeedRunResponse;
}
/** A feed source as the list shows it (its URL masked, its last and next run). */
export type FeedSourceResponse = ReturnType<FeedImports["views"]>[number];
/** GET /api/admin/feed-sources. */
export interface FeedSourceList {
  sources: FeedSourceResponse[];
}
/** GET /api/admin/feed-sources/:id/runs: the latest runs, newest first. */
export interface FeedRunList {
  runs: ReturnType<typeof listRuns>;
}
/** POST /api/admin/feed-sources/:id/detect: what the server detected from a feed's first bytes. */
export type FeedSniff = StoredFeedSniff;
/** PUT /api/admin/feed-sources/:id/file: the source and what its new file was detected to be. */
export interface FeedFileUploaded {
  source: FeedSourceResponse;
  detected: FeedSniff;
}

// Machine tokens and the nightly job

/** GET /api/admin/machine-tokens (DELETE answers one of them, revoked). */
export type MachineTokenList = ReturnType<typeof listMachineTokens>;
/** POST /api/admin/machine-tokens: the token itself, shown this once. */
export type CreatedMachineTokenResponse = ReturnType<typeof createMachineToken>;
/** GET /api/admin/nightly-runs: the latest runs, newest first. */
export type NightlyRunList = ReturnType<typeof listNightlyRuns>;

// Data-rights requests

/** POST /api/admin/privacy/lookup: every row linked to the key, and how mail leaves this server. */
export type PersonalDataLookup = ReturnType<typeof readPersonalData> & { mailTransport: AdminContext["mailTransport"] };
/** POST /api/admin/privacy/erase: rows deleted by kind, and their total. */
export type PersonalDataErasure = ReturnType<typeof erasePersonalData>;

// Public catalogue reads the islands make

/** GET /api/search: a page of matches in the API's product shape, how many match, and a correction of a mistyped text. */
export interface SearchResponse {
  products: ProductJson[];
  total: StoredSearchResult["total"];
  suggestion: CatalogueSearch["suggestion"];
}
/** GET /api/products/count. */
export interface ProductCountResponse {
  count: ReturnType<typeof countProducts>;
}
/** POST /api/basket/quote: the cheapest split of a basket, its cheapest single shop and the saving. */
export type BasketQuoteResponse = BasketQuoteJson;
export type AlternativesResponse = AlternativesJson;
/** GET /api/compare: the products side by side, in the order asked for. */
export interface CompareResponse {
  products: ReturnType<typeof getCompareProducts>;
}
