/**
 * The admin app's calls to the API. Same-origin, JSON bodies with a JSON content type, the
 * session cookie sent by the browser. A non-OK answer throws `ApiError` (its `error` is the
 * server's message). A 401 means the session is gone: the app is sent to the login screen and
 * the call never settles, so the screen that made it shows no error of its own.
 */
import { apiPath, type ApiParams } from "../../../data/domain/paths.ts";
import type { AffiliateIds } from "../../../data/domain/catalogue.ts";
import type { LegalCategory } from "../../../data/domain/legal-category.ts";
import type { ProductDetailValues } from "../../../data/domain/product-details.ts";
import { ApiError } from "../../lib/api.ts";
import type { ColumnMapping, FeedLayoutChoice } from "../../../data/domain/feed-sources.ts";
import type { MachineScope } from "../../../data/domain/machine-tokens.ts";
import type * as Api from "../../../api/http/responses.ts";
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

/**
 * The calls of one list-and-form resource at `path`: list (GET path), get (GET path/{id}),
 * create (POST path), update (PUT path/{id}) and remove (DELETE path/{id}). `T` is an item as the
 * server answers it, `Input` what the form sends, `Saved` the answer to a create or update and
 * `List` the answer to the list. A screen declares its resource's calls in its own file.
 * @example const widgets = resource<Widget, WidgetInput>("/api/admin/widgets"); await widgets.list();
 */
export function resource<T, Input, Saved = T, List = T[]>(path: string) {
  const item = (id: number) => `${path}/${id}`;
  return {
    list: (params?: ApiParams) => json<List>("GET", path, undefined, params),
    get: (id: number) => json<T>("GET", item(id)),
    create: (input: Input) => json<Saved>("POST", path, input),
    update: (id: number, input: Input) => json<Saved>("PUT", item(id), input),
    remove: (id: number) => json<void>("DELETE", item(id)),
  };
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

export const logout = () => json<Api.OkResponse>("POST", "/api/admin/logout", {});

// Dashboard and site builds

export type {
  AdminProduct,
  AdminProductPage,
  AdminProductRow,
  AdminVoucher,
  BuildRecord,
  BuildState,
  BuildStatus,
  DemoCleared,
  DemoState,
  EmailSubscriber,
  ExtractedCandidate,
  ExtractedPrice,
  FeedSniff,
  HoldFactor,
  PersonalDataErasure,
  PersonalDataLookup,
  PriceHold,
  PriceRefreshRun,
  StartedRun,
} from "../../../api/http/responses.ts";
export type { FeedRunResponse as FeedRun, FeedSourceResponse as FeedSourceView, DashboardResponse as Dashboard, AnalyticsResponse as Analytics } from "../../../api/http/responses.ts";
export type { ColumnMapping, FeedLayoutChoice } from "../../../data/domain/feed-sources.ts";

export const fetchDashboard = () => json<Api.DashboardResponse>("GET", "/api/admin/dashboard");
export const fetchBuildStatus = () => json<Api.BuildStatus>("GET", "/api/admin/build-status");
export const requestRebuild = () => json<Api.BuildStatus>("POST", "/api/admin/rebuild", {});

// The demo catalogue

export const fetchDemo = () => json<Api.DemoState>("GET", "/api/admin/demo");
export const clearDemo = () => json<Api.DemoCleared>("POST", "/api/admin/demo/clear", {});

// Products

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
  /** The multi-buy ("3 for 2", "2 for £20"); null or absent: none. */
  multiBuy?: string | null;
  /** What members of memberScheme pay (below the one-off price); null or absent: none. */
  memberPrice?: number | null;
  /** The loyalty scheme ("Pets Club"); only with a member price. */
  memberScheme?: string | null;
}

/** What the product form saves, its details (product-details.ts) among its fields. */
export interface ProductInput extends ProductDetailValues {
  name: string;
  slug: string;
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

export const fetchAdminProducts = (params: { page: number; q: string }) => json<Api.AdminProductPage>("GET", "/api/admin/products", undefined, params);
export const fetchAdminProduct = (id: number) => json<Api.AdminProduct>("GET", `/api/admin/products/${id}`);
export const createProduct = (input: ProductInput) => json<Api.ProductSaved>("POST", "/api/products", input);
export const updateProduct = (id: number, input: ProductInput) => json<Api.ProductSaved>("PUT", `/api/products/${id}`, input);
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

export type AdminCategory = Api.CategoryResponse;
export type CategoryInput = Omit<AdminCategory, "id">;
export type AdminRetailer = Api.RetailerResponse;
/** Delivery amounts go as typed (pounds; the API validates them); null: not known / never free by value. */
export type RetailerInput = Pick<AdminRetailer, "name" | "logo" | "website" | "description" | "comparesPrices" | "hosts" | "feedNames"> & {
  deliveryCharge: string | null;
  freeDeliveryFrom: string | null;
};

const categories = resource<Api.CategoryResponse, CategoryInput, Api.CategorySaved, Api.CategoryList>("/api/categories");
export const fetchCategories = () => categories.list();
export const { get: fetchCategory, create: createCategory, update: updateCategory, remove: deleteCategory } = categories;

const retailers = resource<Api.RetailerResponse, RetailerInput>("/api/retailers");
export const fetchRetailers = () => retailers.list();
export const { get: fetchRetailer, create: createRetailer, update: updateRetailer, remove: deleteRetailer } = retailers;

// Affiliate IDs, subscribers, vouchers, analytics

export const fetchAffiliateIds = () => json<Api.AffiliateIdsResponse>("GET", "/api/admin/affiliate-ids");
export const saveAffiliateIds = (ids: AffiliateIds) => json<Api.AffiliateIdsResponse>("PUT", "/api/admin/affiliate-ids", ids);

export const fetchSubscribers = () => json<Api.EmailSubscriber[]>("GET", "/api/admin/email-subscribers");
export const deleteSubscriber = (id: number) => json<void>("DELETE", `/api/admin/email-subscribers/${id}`);

export type VoucherInput = Pick<Api.AdminVoucher, "code" | "description" | "retailer" | "url" | "discount" | "expiryDate">;

const vouchers = resource<Api.AdminVoucher, VoucherInput, Api.VoucherSaved>("/api/admin/vouchers");
export const fetchVouchers = () => vouchers.list();
export const { create: createVoucher, update: updateVoucher, remove: deleteVoucher } = vouchers;

export const fetchAnalytics = () => json<Api.AnalyticsResponse>("GET", "/api/admin/analytics");

// The price pipeline: extraction, import and held prices

export const extractPrice = (url: string) => json<Api.ExtractedPrice>("POST", "/api/extract-price", { url });

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

/** Starts an import of the configured product source (the Import button): answered at once. */
export const importProducts = () => json<Api.StartedRun>("POST", "/api/admin/import-amazon-products", {});

// Feed sources and their import runs

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

export const fetchFeedSources = () => json<Api.FeedSourceList>("GET", "/api/admin/feed-sources").then((body) => body.sources);
export const fetchFeedSource = (id: number) => json<Api.FeedSourceResponse>("GET", `/api/admin/feed-sources/${id}`);
export const createFeedSource = (input: FeedSourceInput) => json<Api.FeedSourceResponse>("POST", "/api/admin/feed-sources", input);
export const updateFeedSource = (id: number, changes: Partial<Omit<FeedSourceInput, "kind">>) => json<Api.FeedSourceResponse>("PUT", `/api/admin/feed-sources/${id}`, changes);
export const deleteFeedSource = (id: number) => json<void>("DELETE", `/api/admin/feed-sources/${id}`);
export const detectFeed = (id: number) => json<Api.FeedSniff>("POST", `/api/admin/feed-sources/${id}/detect`, {});
export const startFeedRun = (id: number | "awin") => json<Api.StartedRun>("POST", `/api/admin/feed-sources/${id}/runs`, {});
export const fetchFeedRuns = (id: number | "awin") => json<Api.FeedRunList>("GET", `/api/admin/feed-sources/${id}/runs`).then((body) => body.runs);
export const fetchFeedRun = (id: number) => json<Api.FeedRunResponse>("GET", `/api/admin/feed-runs/${id}`);

/**
 * Uploads a file source's feed: the file itself is the body (streamed by the browser, not read
 * into the page), with a content type the server takes for uploads.
 */
export async function uploadFeedFile(id: number, file: File): Promise<Api.FeedFileUploaded> {
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
  return (await response.json()) as Api.FeedFileUploaded;
}

export type HoldDecision = "accept" | "reject";

export const fetchPriceHolds = () => json<Api.PriceHoldsResponse>("GET", "/api/admin/price-holds");
export const acceptPriceHold = (id: number) => json<Api.HoldDecided>("POST", `/api/admin/price-holds/${id}/accept`, {});
export const rejectPriceHold = (id: number) => json<Api.HoldDecided>("POST", `/api/admin/price-holds/${id}/reject`, {});

// Machine tokens and the nightly job

export const fetchMachineTokens = () => json<Api.MachineTokenList>("GET", "/api/admin/machine-tokens");
/** Creates a token: the answer carries the token itself, shown this once. */
export const createMachineToken = (input: { name: string; scopes: MachineScope[] }) => json<Api.CreatedMachineTokenResponse>("POST", "/api/admin/machine-tokens", input);
export const revokeMachineToken = (id: number) => json<Api.MachineTokenList[number]>("DELETE", `/api/admin/machine-tokens/${id}`);
/** The latest nightly runs, newest first. */
export const fetchNightlyRuns = () => json<Api.NightlyRunList>("GET", "/api/admin/nightly-runs");

// Data-rights requests (access, portability, erasure)

/** Whom a request is about: an e-mail address or an anonymous visitor id (the body of each call, never in a URL). */
export type PrivacyKeyInput = { email: string } | { userId: string };

export const lookUpPersonalData = (key: PrivacyKeyInput) => json<Api.PersonalDataLookup>("POST", "/api/admin/privacy/lookup", key);
/** The subject access export as a JSON file, with the file name the server gives it. */
export async function exportPersonalData(key: PrivacyKeyInput): Promise<{ blob: Blob; fileName: string }> {
  return downloaded(await send("POST", "/api/admin/privacy/export", key), "personal-data.json");
}
export const erasePersonalData = (key: PrivacyKeyInput) => json<Api.PersonalDataErasure>("POST", "/api/admin/privacy/erase", key);
