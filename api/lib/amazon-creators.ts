/**
 * The Amazon Creators API as a product source (the successor of the Product Advertising API 5,
 * retired in 2026): best-selling pet products searched by category, as feed offers the importer
 * treats like any affiliate feed's rows.
 *
 * Protocol (Associates Central's Creators API documentation):
 * - a token by OAuth 2.0 client credentials: POST the token URL with JSON { grant_type:
 *   "client_credentials", client_id, client_secret, scope: "creatorsapi::default" }; it lasts an
 *   hour and is reused until a minute before it ends;
 * - POST {api}/catalog/v1/searchItems with `Authorization: Bearer <token>` and
 *   `x-marketplace: www.amazon.co.uk`, a lowerCamelCase body (partnerTag, partnerType,
 *   marketplace, keywords, searchIndex, resources, itemCount up to 10, itemPage);
 * - items come back under searchResult.items (itemsResult.items in some answers): asin,
 *   detailPageURL, itemInfo.title / byLineInfo.brand / externalIds.eans, images.primary.large,
 *   offersV2.listings[].price.money { amount, currency } and availability.type.
 * Only GBP offers are kept (others are reported, never stored as pounds). Errors the API
 * answers (a 401, an account not yet eligible for lack of qualifying sales) stop the import with
 * the API's own message, so the admin sees why.
 *
 * The endpoints are configurable (AMAZON_CREATORS_TOKEN_URL, AMAZON_CREATORS_API_URL): tests
 * run the same code against a local server speaking this protocol. It has not been exercised
 * against a live Amazon account from here.
 */
import type { FeedItem, FeedOffer } from "../../data/domain/feed-row.ts";
import { normaliseGtin, packSizeOf } from "../../data/domain/feed-row.ts";
import { parseCurrency, parseSchemaPrice } from "../../data/domain/price-text.ts";

export interface AmazonCreatorsConfig {
  credentialId: string;
  credentialSecret: string;
  partnerTag: string;
  /** Default: Login with Amazon's EU token endpoint (credential version 3.x). */
  tokenUrl?: string;
  /** Default: https://creatorsapi.amazon */
  apiUrl?: string;
  marketplace?: string;
  /** The searches run, each with the catalogue category its results go into. */
  searches?: readonly { keywords: string; category: string }[];
  /** Result pages per search (10 items each; default 2). */
  pages?: number;
  timeoutMs?: number;
}

/** An answer from the API that is not the data asked for: the import stops with its message. */
export class AmazonApiError extends Error {
  override name = "AmazonApiError";
}

export const defaultTokenUrl = "https://api.amazon.co.uk/auth/o2/token";
export const defaultApiUrl = "https://creatorsapi.amazon";

/** Best sellers in the aisles this site compares. */
export const defaultSearches: readonly { keywords: string; category: string }[] = [
  { keywords: "dry dog food", category: "Dog Food" },
  { keywords: "wet cat food", category: "Cat Food" },
  { keywords: "dog treats", category: "Dog Treats" },
  { keywords: "dog toys", category: "Dog Toys" },
  { keywords: "cat litter", category: "Cat Litter" },
  { keywords: "flea treatment for dogs", category: "Flea & Tick" },
];

const resources = [
  "itemInfo.title",
  "itemInfo.byLineInfo",
  "itemInfo.externalIds",
  "itemInfo.features",
  "images.primary.large",
  "offersV2.listings.price",
  "offersV2.listings.availability",
];

type Json = Record<string, unknown>;
const object = (value: unknown): Json => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

async function postJson(url: string, body: unknown, headers: Record<string, string>, timeoutMs: number): Promise<Json> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new AmazonApiError(`The Amazon Creators API could not be reached (${error instanceof Error ? error.message : String(error)})`);
  }
  const raw = await response.text();
  let data: Json = {};
  try {
    data = object(JSON.parse(raw));
  } catch {
    // Not JSON: the status says enough.
  }
  const errors = list(data.errors).map((entry) => text(object(entry).message) ?? text(object(entry).code)).filter((message) => message !== null);
  if (!response.ok || (errors.length > 0 && list(object(data.searchResult).items).length === 0)) {
    const reason = errors[0] ?? text(data.error_description) ?? text(data.message) ?? `${response.status} ${response.statusText}`;
    throw new AmazonApiError(`The Amazon Creators API refused the request: ${reason}`);
  }
  return data;
}

/** One search result as a feed offer, or why it cannot be one. */
export function itemToOffer(item: unknown, category: string, index: number): FeedItem {
  const entry = object(item);
  const info = object(entry.itemInfo);
  const asin = text(entry.asin) ?? "";
  const name = text(object(info.title).displayValue);
  const line = index + 1;
  if (name === null) return { kind: "error", line, error: `item ${asin || line}: no title` };
  const listings = list(object(entry.offersV2).listings).map(object);
  const listing = listings.find((candidate) => object(object(candidate.price).money).amount !== undefined);
  if (!listing) return { kind: "error", line, error: `"${name}": no price offered` };
  const money = object(object(listing.price).money);
  const currency = parseCurrency(money.currency);
  if (currency !== "GBP") return { kind: "error", line, error: `"${name}": priced in ${currency ?? "an unknown currency"}, not GBP (not imported)` };
  const pricePence = parseSchemaPrice(money.amount);
  if (pricePence === null) return { kind: "error", line, error: `"${name}": price ${JSON.stringify(money.amount)} is not a price` };
  const url = text(entry.detailPageURL);
  if (url === null || !/^https:\/\/www\.amazon\.co\.uk\//.test(url)) return { kind: "error", line, error: `"${name}": no amazon.co.uk page` };
  const availability = text(object(listing.availability).type)?.toUpperCase() ?? null;
  const eans = list(object(object(info.externalIds).eans).displayValues);
  const brand = text(object(object(info.byLineInfo).brand).displayValue);
  const features = list(object(info.features).displayValues).map(text).filter((feature) => feature !== null);
  const offer: FeedOffer = {
    line,
    merchantName: "Amazon UK",
    merchantId: "",
    merchantKey: "amazon",
    externalId: asin,
    name,
    brand,
    description: features.join(" "),
    image: text(object(object(object(entry.images).primary).large).url) ?? "",
    categoryName: category,
    url,
    affiliateUrl: url,
    pricePence,
    originalPricePence: null,
    deliveryPence: null,
    currency: "GBP",
    inStock: availability === null ? null : availability === "IN_STOCK",
    gtin: eans.map((ean) => normaliseGtin(typeof ean === "string" ? ean : null)).find((gtin) => gtin !== null) ?? null,
    mpn: null,
    packSize: packSizeOf(name),
    lastUpdated: null,
  };
  return { kind: "offer", offer };
}

/** Streams the configured searches' results as feed items (one API page at a time). */
export async function* amazonBestSellers(config: AmazonCreatorsConfig): AsyncGenerator<FeedItem, void, undefined> {
  const timeoutMs = config.timeoutMs ?? 10_000;
  const marketplace = config.marketplace ?? "www.amazon.co.uk";
  const token = await postJson(
    config.tokenUrl ?? defaultTokenUrl,
    { grant_type: "client_credentials", client_id: config.credentialId, client_secret: config.credentialSecret, scope: "creatorsapi::default" },
    {},
    timeoutMs,
  );
  const accessToken = text(token.access_token);
  if (accessToken === null) throw new AmazonApiError("The Amazon Creators API gave no access token");
  let index = 0;
  for (const search of config.searches ?? defaultSearches) {
    for (let page = 1; page <= (config.pages ?? 2); page += 1) {
      const data = await postJson(
        `${(config.apiUrl ?? defaultApiUrl).replace(/\/+$/, "")}/catalog/v1/searchItems`,
        {
          partnerTag: config.partnerTag,
          partnerType: "Associates",
          marketplace,
          keywords: search.keywords,
          searchIndex: "PetSupplies",
          resources,
          itemCount: 10,
          itemPage: page,
        },
        { authorization: `Bearer ${accessToken}`, "x-marketplace": marketplace },
        timeoutMs,
      );
      const items = list(object(data.searchResult).items).length > 0 ? list(object(data.searchResult).items) : list(object(data.itemsResult).items);
      for (const item of items) {
        yield itemToOffer(item, search.category, index);
        index += 1;
      }
      if (items.length < 10) break;
    }
  }
}
