/**
 * Typed calls to our API for the islands: credentials included, JSON bodies,
 * empty parameters skipped. A non-OK response throws `ApiError` whose message is
 * "{status}: {body text or status text}"; `error` holds the server's `{ error }` message.
 */
import { apiPath, type ApiParams } from "../../data/domain/paths.ts";
import type { Voucher } from "../../data/domain/catalogue.ts";
import type { ProductJson } from "../../data/domain/catalogue-json.ts";
import type { BrandCount } from "../../data/domain/facets.ts";
import type { AlternativesResponse, CompareResponse, ProductCountResponse, SearchResponse } from "../../api/http/responses.ts";

export class ApiError extends Error {
  readonly status: number;
  /** The server's own message (`{ "error": "..." }`), when it sent one. */
  readonly error: string | undefined;
  constructor(status: number, body: string, statusText: string) {
    super(`${status}: ${body || statusText}`);
    this.status = status;
    try {
      this.error = (JSON.parse(body) as { error?: string }).error;
    } catch {
      this.error = undefined;
    }
  }
}

async function request<T>(method: string, path: string, params?: ApiParams, body?: unknown): Promise<{ data: T; response: Response }> {
  const response = await fetch(apiPath(path, params), {
    method,
    credentials: "include",
    headers: body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
  const data = (response.status === 204 ? undefined : await response.json()) as T;
  return { data, response };
}

export const api = {
  get: <T>(path: string, params?: ApiParams) => request<T>("GET", path, params).then((r) => r.data),
  post: <T>(path: string, body: unknown) => request<T>("POST", path, undefined, body).then((r) => r.data),
  patch: <T>(path: string, body: unknown, params?: ApiParams) => request<T>("PATCH", path, params, body).then((r) => r.data),
  delete: <T>(path: string, params?: ApiParams) => request<T>("DELETE", path, params).then((r) => r.data),
  /** GET that also returns the response headers (e.g. X-Total-Count). */
  getWithResponse: <T>(path: string, params?: ApiParams) => request<T>("GET", path, params),
};

export type SearchResult = SearchResponse;

export const fetchProducts = (params: ApiParams) => api.get<ProductJson[]>("/api/products", params);
export const fetchProductCount = (params: ApiParams) => api.get<ProductCountResponse>("/api/products/count", params).then((r) => r.count);
export const fetchSearch = (params: ApiParams) => api.get<SearchResult>("/api/search", params);
export const fetchBrandCounts = (params: ApiParams) => api.get<BrandCount[]>("/api/brands/counts", params);
export async function fetchVouchers(params: ApiParams): Promise<{ vouchers: Voucher[]; total: number }> {
  const { data, response } = await api.getWithResponse<Voucher[]>("/api/vouchers", params);
  return { vouchers: data, total: Number(response.headers.get("x-total-count") ?? data.length) };
}

/** The compare page's products, in the order of `ids` (unknown ids left out). */
export const fetchCompare = (ids: readonly number[]) =>
  api.get<CompareResponse>("/api/compare", { ids: ids.join(",") }).then((body) => body.products);
export const fetchAlternatives = (slug: string, params: ApiParams) => api.get<AlternativesResponse>(`/api/products/${encodeURIComponent(slug)}/alternatives`, params);
