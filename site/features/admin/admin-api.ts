/**
 * The admin app's calls to the API. Same-origin, JSON bodies with a JSON content type, the
 * session cookie sent by the browser. A non-OK answer throws `ApiError` (its `error` is the
 * server's message). A 401 means the session is gone: the app is sent to the login screen and
 * the call never settles, so the screen that made it shows no error of its own.
 */
import { apiPath, type ApiParams } from "../../../data/domain/paths.ts";
import type { AffiliateIds, Category, Retailer } from "../../../data/domain/catalogue.ts";
import type { LegalCategory } from "../../../data/domain/legal-category.ts";
import { ApiError } from "../../lib/api.ts";
import type { ColumnMapping, FeedLayoutChoice, FeedRun, FeedSourceView } from "../../../data/domain/feed-sources.ts";
import type { CreatedMachineToken, MachineScope, MachineTokenView } from "../../../data/domain/machine-tokens.ts";
import type { NightlyRun } from "../../../data/domain/nightly.ts";
import type { KindCounts, PersonalDataReport } from "../../../data/domain/privacy.ts";
import { uploadContentType } from "./feeds.ts";
import { sessionExpired } from "./session.store.ts";

type Method = "GET" | "POST" | "PUT" | "DELETE";

async function send(method: Method, path: string, body?: unknown, params?: ApiParams): Promise<Response> {
  const response = await fetch(apiPath(path, params), {
    method,
    credentials: "same-origin",
    headers: body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) {
    sessionExpired();
    return new Promise<never>(() => undefined);
  }
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
  return response;
}

async function json<T>(method: Method, path: string, body?: unknown, params?: ApiParams): Promise<T> {
  const response = await send(method, path, body, params);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** What went wrong, in a few words: the server's message, else the error's own text. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.error ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The server's own message for a failed call, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.error ?? fallback;
  return fallback;
}

// Session

/** Logs in; answers the 401 of a wrong password itself (it is not an expired session). */
export async function login(password: string): Promise<void> {
  const response = await fetch(apiPath("/api/admin/login"), {
    method: "POST",
    credentials: "same-origin",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify({ password }),
  });
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
}

/** Whether the browser holds a valid admin session (asked without the 401 redirect). */
export async function hasSession(): Promise<boolean> {
  const response = await fetch(apiPath("/api/admin/session"), { credentials: "same-origin", headers: { accept: "application/json" } });
  if (response.status === 401) return false;
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
  return true;
}

export const logout = () => json<{ ok: true }>("POST", "/api/admin/logout", {});

// Dashboard and site builds

export interface AuditEntry {
  id: number;
  at: string;
  action: string;
  entity: string;
  entityId: number | null;
  summary: string;
}

export interface Dashboard {
  counts: { products: number; categories: number; retailers: number };
  recentChanges: AuditEntry[];
}

export type BuildState = "idle" | "scheduled" | "building";

export interface BuildRecord {
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  /** full: every page; fast: only the pages a few products' changes affect. */
  kind: "full" | "fast";
  result: "running" | "succeeded" | "failed";
  /** The last lines of the build's output. */
  logTail: string | null;
}

export interface BuildStatus {
  state: BuildState;
  lastBuild: BuildRecord | null;
}

export const fetchDashboard = () => json<Dashboard>("GET", "/api/admin/dashboard");
export const fetchBuildStatus = () => json<BuildStatus>("GET", "/api/admin/build-status");
export const requestRebuild = () => json<BuildStatus>("POST", "/api/admin/rebuild", {});

// The demo catalogue

/** What is left of the seeded demo catalogue. */
export interface DemoState {
  demo: boolean;
  /** Demo products, of which `keptProducts` have an offer of the owner's (clearing keeps those). */
  products: number;
  keptProducts: number;
  offers: number;
  vouchers: number;
}

/** What clearing the demo removed, and the demo products it kept as the owner's. */
export interface DemoCleared {
  products: number;
  keptProducts: number;
  offers: number;
  historyPoints: number;
  vouchers: number;
}

export const fetchDemo = () => json<DemoState>("GET", "/api/admin/demo");
export const clearDemo = () => json<DemoCleared>("POST", "/api/admin/demo/clear", {});

// Products

export interface AdminProductRow {
  id: number;
  name: string;
  slug: string;
  category: { id: number; name: string };
  bestRetailer: { id: number; name: string } | null;
  bestPrice: number | null;
  rating: number;
  reviewCount: number;
  isFeatured: boolean;
  lastEditedAt: string | null;
  createdAt: string;
}

export interface AdminProductPage {
  products: AdminProductRow[];
  total: number;
  page: number;
  pageSize: number;
}

export interface RetailerLink {
  retailerId: number;
  affiliateUrl: string;
  price: number;
  originalPrice: number | null;
  inStock: boolean;
  priceOverride: boolean;
  manualPrice: number | null;
  freeDelivery: boolean;
  /** The repeat-delivery item price (at most the one-off price); null or absent: none. */
  repeatPrice?: number | null;
  /** The repeat-delivery scheme's terms; only with a repeat price. */
  repeatTerms?: string | null;
}

export interface ProductInput {
  name: string;
  slug: string;
  description: string;
  image: string;
  brand: string | null;
  categoryId: number;
  /** The reviews' average, 0 to 5; null for none (a rating is kept only with reviews). */
  rating: number | null;
  reviewCount: number;
  isFeatured: boolean;
  retailerLinks: RetailerLink[];
  /** The family its sizes share (a slug); null for none. */
  familyKey: string | null;
  /** A food's energy, whole kcal per kg as fed; null for none. */
  kcalPerKg: number | null;
  /** A food's feeding guide: daily grams by body weight, weights rising; null for none. */
  feedingGuide: FeedingGuideRows | null;
  /** Its legal category as a veterinary medicine; "none" when it is not one. POM-V and POM-VPS cannot be featured. */
  legalCategory: LegalCategory;
}

export interface FeedingGuideRows {
  rows: { weightKg: number; gramsPerDay: number }[];
}

export type AdminProduct = Omit<ProductInput, "slug"> & { id: number; slug: string };

export const fetchAdminProducts = (params: { page: number; q: string }) => json<AdminProductPage>("GET", "/api/admin/products", undefined, params);
export const fetchAdminProduct = (id: number) => json<AdminProduct>("GET", `/api/admin/products/${id}`);
export const createProduct = (input: ProductInput) => json<{ id: number; slug: string }>("POST", "/api/products", input);
export const updateProduct = (id: number, input: ProductInput) => json<{ id: number; slug: string }>("PUT", `/api/products/${id}`, input);
export const deleteProduct = (id: number) => json<void>("DELETE", `/api/products/${id}`);

/** Brand names for the product form; a failed load gives an empty list (a new brand can still be typed). */
export const fetchBrands = () => json<string[]>("GET", "/api/brands").catch(() => [] as string[]);

/** A download's body with the file name the server gives it (Content-Disposition), else `fallback`. */
async function downloaded(response: Response, fallback: string): Promise<{ blob: Blob; fileName: string }> {
  const disposition = response.headers.get("content-disposition") ?? "";
  const match = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition);
  const fileName = match ? decodeURIComponent(match[1] ?? match[2] ?? "") : fallback;
  return { blob: await response.blob(), fileName: fileName || fallback };
}

/** The spreadsheet of all products, with the file name the server gives it. */
export async function exportProducts(): Promise<{ blob: Blob; fileName: string }> {
  return downloaded(await send("GET", "/api/admin/export-products"), "products.xlsx");
}

// Categories and retailers

export type AdminCategory = Category & { description: string };
export type CategoryInput = Omit<AdminCategory, "id">;
export type AdminRetailer = Retailer & { description: string };
/** Delivery amounts go as typed (pounds; the API validates them); null: not known / never free by value. */
export type RetailerInput = Pick<AdminRetailer, "name" | "logo" | "website" | "description" | "comparesPrices" | "hosts" | "feedNames"> & {
  deliveryCharge: string | null;
  freeDeliveryFrom: string | null;
};

export const fetchCategories = () => json<AdminCategory[]>("GET", "/api/categories");
export const fetchCategory = (id: number) => json<AdminCategory>("GET", `/api/categories/${id}`);
export const createCategory = (input: CategoryInput) => json<AdminCategory>("POST", "/api/categories", input);
export const updateCategory = (id: number, input: CategoryInput) => json<AdminCategory>("PUT", `/api/categories/${id}`, input);
export const deleteCategory = (id: number) => json<void>("DELETE", `/api/categories/${id}`);

export const fetchRetailers = () => json<AdminRetailer[]>("GET", "/api/retailers");
export const fetchRetailer = (id: number) => json<AdminRetailer>("GET", `/api/retailers/${id}`);
export const createRetailer = (input: RetailerInput) => json<AdminRetailer>("POST", "/api/retailers", input);
export const updateRetailer = (id: number, input: RetailerInput) => json<AdminRetailer>("PUT", `/api/retailers/${id}`, input);
export const deleteRetailer = (id: number) => json<void>("DELETE", `/api/retailers/${id}`);

// Affiliate IDs, subscribers, vouchers, analytics

export const fetchAffiliateIds = () => json<AffiliateIds>("GET", "/api/admin/affiliate-ids");
export const saveAffiliateIds = (ids: AffiliateIds) => json<AffiliateIds>("PUT", "/api/admin/affiliate-ids", ids);

export interface EmailSubscriber {
  id: number;
  email: string;
  isActive: boolean;
  /** Whether the address followed its confirmation link (only confirmed addresses are mailed). */
  isConfirmed: boolean;
  subscribedAt: string;
  source: string;
}

export const fetchSubscribers = () => json<EmailSubscriber[]>("GET", "/api/admin/email-subscribers");
export const deleteSubscriber = (id: number) => json<void>("DELETE", `/api/admin/email-subscribers/${id}`);

export interface AdminVoucher {
  id: number;
  code: string;
  description: string;
  retailer: string;
  url: string;
  discount: string;
  expiryDate: string;
  uses: number;
  isValid: boolean;
}

export type VoucherInput = Pick<AdminVoucher, "code" | "description" | "retailer" | "url" | "discount" | "expiryDate">;

export const fetchVouchers = () => json<AdminVoucher[]>("GET", "/api/admin/vouchers");
export const createVoucher = (input: VoucherInput) => json<AdminVoucher>("POST", "/api/admin/vouchers", input);
export const updateVoucher = (id: number, input: VoucherInput) => json<AdminVoucher>("PUT", `/api/admin/vouchers/${id}`, input);
export const deleteVoucher = (id: number) => json<void>("DELETE", `/api/admin/vouchers/${id}`);

/** One run of the scheduled price refresh (feeds and retailer pages checked). */
export interface PriceRefreshRun {
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  checked: number;
  changed: number;
  /** Prices that moved beyond the hold factor: waiting on /admin/price-review, not published. */
  held: number;
  failed: number;
  result: "running" | "succeeded" | "partial" | "failed";
}

export interface Analytics {
  totals: { products: number; featuredProducts: number; categories: number; retailers: number; emailSubscribers: number; activeVouchers: number };
  distribution: { categoryId: number; name: string; products: number; percent: number }[];
  clicks: { days: number; byRetailer: { retailer: string; clicks: number }[]; topProducts: { productId: number; name: string; slug: string; clicks: number }[] };
  health: {
    database: { ok: boolean; sizeBytes: number | null };
    lastPriceRefresh: PriceRefreshRun | null;
    /** When the server reads retailer pages next (ISO; null: not scheduled). */
    nextPriceRefresh: string | null;
    /** How long a confirmed price counts as current. */
    freshForHours: number;
    lastBuild: BuildRecord | null;
    build: { state: BuildState };
    mail: { transport: "smtp" | "outbox" };
    /** The newest database backup (ISO time, bytes); null: none yet. */
    lastBackup: { takenAt: string; bytes: number } | null;
  };
}

export const fetchAnalytics = () => json<Analytics>("GET", "/api/admin/analytics");

// The price pipeline: extraction, import and held prices

/** What the server read from a retailer page; every field null when it found nothing. */
/** One price a page lists when nothing on it picks one; price in pounds when it is in pounds. */
export interface ExtractedCandidate {
  price: number | null;
  currency: string | null;
  inStock: boolean | null;
  label: string;
}

export interface ExtractedPrice {
  /** Pounds, e.g. 12.99. */
  price: number | null;
  currency: string | null;
  inStock: boolean | null;
  source: string | null;
  /** The rule that found the price ("json-ld Product offers[2] matched by pack size 4kg in h1"). */
  evidence?: { source: string; rule: string; snippet: string | null } | null;
  confidence?: "high" | "medium" | "low" | null;
  /** The prices the page lists when nothing on it picks one (price is then null). */
  candidates?: ExtractedCandidate[];
  /** Why there is no price. */
  reason?: string;
}

export const extractPrice = (url: string) => json<ExtractedPrice>("POST", "/api/extract-price", { url });

/** What an import did, as the results card shows it (made from a finished run: feeds.ts importResultOf). */
export interface ImportResult {
  /** Products imported. */
  success: number;
  /** Messages about skipped rows; capped by the server (see totalErrors). */
  errors: string[];
  source: { label: string };
  /** Rows skipped (already in the catalogue, unmatched, or refused). */
  skipped: number;
  /** The real number of error messages, of which `errors` may hold only the first ones. */
  totalErrors: number;
}

/** A run started: it goes on in the background; follow it with fetchFeedRun. */
export interface StartedRun {
  runId: number;
  run: FeedRun;
}

/** Starts an import of the configured product source (the Import button): answered at once. */
export const importProducts = () => json<StartedRun>("POST", "/api/admin/import-amazon-products", {});

// Feed sources and their import runs

export type { ColumnMapping, FeedLayoutChoice, FeedRun, FeedSourceView } from "../../../data/domain/feed-sources.ts";

/** What the server detected from a feed's first bytes. */
export interface FeedSniff {
  format: "csv" | "tsv" | "xml";
  layout: Exclude<FeedLayoutChoice, "auto"> | null;
  columns: string[];
  sample: Record<string, string>[];
  description: string;
}

/** A new source's settings; left out of an update, a field keeps its value (the URL above all). */
export interface FeedSourceInput {
  name: string;
  kind: "url" | "file";
  url?: string;
  layout: FeedLayoutChoice;
  mapping?: ColumnMapping | null;
  retailerKey: string | null;
  createProducts: boolean;
  schedule: string | null;
  enabled: boolean;
}

export const fetchFeedSources = () => json<{ sources: FeedSourceView[] }>("GET", "/api/admin/feed-sources").then((body) => body.sources);
export const fetchFeedSource = (id: number) => json<FeedSourceView>("GET", `/api/admin/feed-sources/${id}`);
export const createFeedSource = (input: FeedSourceInput) => json<FeedSourceView>("POST", "/api/admin/feed-sources", input);
export const updateFeedSource = (id: number, changes: Partial<Omit<FeedSourceInput, "kind">>) => json<FeedSourceView>("PUT", `/api/admin/feed-sources/${id}`, changes);
export const deleteFeedSource = (id: number) => json<void>("DELETE", `/api/admin/feed-sources/${id}`);
export const detectFeed = (id: number) => json<FeedSniff>("POST", `/api/admin/feed-sources/${id}/detect`, {});
export const startFeedRun = (id: number | "awin") => json<StartedRun>("POST", `/api/admin/feed-sources/${id}/runs`, {});
export const fetchFeedRuns = (id: number | "awin") => json<{ runs: FeedRun[] }>("GET", `/api/admin/feed-sources/${id}/runs`).then((body) => body.runs);
export const fetchFeedRun = (id: number) => json<FeedRun>("GET", `/api/admin/feed-runs/${id}`);

/**
 * Uploads a file source's feed: the file itself is the body (streamed by the browser, not read
 * into the page), with a content type the server takes for uploads.
 */
export async function uploadFeedFile(id: number, file: File): Promise<{ source: FeedSourceView; detected: FeedSniff }> {
  const response = await fetch(apiPath(`/api/admin/feed-sources/${id}/file`, { name: file.name }), {
    method: "PUT",
    credentials: "same-origin",
    headers: { accept: "application/json", "content-type": uploadContentType(file.name) },
    body: file,
  });
  if (response.status === 401) {
    sessionExpired();
    return new Promise<never>(() => undefined);
  }
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
  return (await response.json()) as { source: FeedSourceView; detected: FeedSniff };
}

/** A price check that moved too far from the published price, so it was held rather than published. */
export interface PriceHold {
  id: number;
  product: { id: number; name: string; slug: string };
  retailer: { id: number; name: string };
  /** Pounds; null when the offer had no published price. */
  publishedPrice: number | null;
  /** Pounds. */
  heldPrice: number;
  inStock: boolean | null;
  /** Where the price came from: "page" (the retailer page) or "feed:{name}". */
  source: string;
  url: string;
  observedAt: string;
  /** A first offer at this retailer: publishedPrice is then the product's best price, and accepting adds the offer. */
  newOffer: boolean;
  /** Why it was held besides a jump beyond the hold factor (a price read with low confidence); null: the jump. */
  reason: string | null;
}

/** The hold rule: a new price below `below` or above `above` times the published price is held. */
export interface HoldFactor {
  below: number;
  above: number;
}

export interface PriceHolds {
  holds: PriceHold[];
  factor: HoldFactor;
}

export type HoldDecision = "accept" | "reject";

export const fetchPriceHolds = () => json<PriceHolds>("GET", "/api/admin/price-holds");
export const acceptPriceHold = (id: number) => json<{ id: number; status: "accepted" }>("POST", `/api/admin/price-holds/${id}/accept`, {});
export const rejectPriceHold = (id: number) => json<{ id: number; status: "rejected" }>("POST", `/api/admin/price-holds/${id}/reject`, {});

// Machine tokens and the nightly job

export const fetchMachineTokens = () => json<MachineTokenView[]>("GET", "/api/admin/machine-tokens");
/** Creates a token: the answer carries the token itself, shown this once. */
export const createMachineToken = (input: { name: string; scopes: MachineScope[] }) => json<CreatedMachineToken>("POST", "/api/admin/machine-tokens", input);
export const revokeMachineToken = (id: number) => json<MachineTokenView>("DELETE", `/api/admin/machine-tokens/${id}`);
/** The latest nightly runs, newest first. */
export const fetchNightlyRuns = () => json<NightlyRun[]>("GET", "/api/admin/nightly-runs");

// Data-rights requests (access, portability, erasure)

/** Whom a request is about: an e-mail address or an anonymous visitor id (the body of each call, never in a URL). */
export type PrivacyKeyInput = { email: string } | { userId: string };

export type PersonalDataLookup = PersonalDataReport & { mailTransport: "smtp" | "outbox" };

export interface PersonalDataErasure {
  /** Rows deleted by kind; auditMentions: audit entries whose address was replaced. */
  counts: KindCounts;
  total: number;
}

export const lookUpPersonalData = (key: PrivacyKeyInput) => json<PersonalDataLookup>("POST", "/api/admin/privacy/lookup", key);
/** The subject access export as a JSON file, with the file name the server gives it. */
export async function exportPersonalData(key: PrivacyKeyInput): Promise<{ blob: Blob; fileName: string }> {
  return downloaded(await send("POST", "/api/admin/privacy/export", key), "personal-data.json");
}
export const erasePersonalData = (key: PrivacyKeyInput) => json<PersonalDataErasure>("POST", "/api/admin/privacy/erase", key);
