/**
 * The affiliate link builder. One pure function serves the static build and the islands, so every
 * outbound link is tagged the same way; each retailer's programme (its parameters, whether its
 * redirector links are unwrapped) is in the retailer registry.
 */
import type { AffiliateIds } from "./catalogue.ts";
import { isOnHost, registryEntry, registryEntryByName, type RetailerEntry, type TrackingParams } from "./retailers.ts";

/**
 * The affiliate programme of a retailer given by its key (offers: `pets-at-home`), or by its name
 * where only a name is stored (vouchers: "Pets at Home", "Amazon UK"); programmes come from the
 * retailer registry.
 */
function affiliateRetailer(retailer: string): RetailerEntry | undefined {
  const entry = registryEntry(retailer) ?? registryEntryByName(retailer);
  return entry?.affiliate ? entry : undefined;
}

/** Query parameters in which affiliate redirectors (AWIN's `ued` and others) carry the merchant URL. */
const redirectorParams = new Set(["ued", "url", "u", "murl", "destination"]);
/** Redirectors may wrap redirectors; a few levels is plenty and bounds the work. */
const maxRedirectorDepth = 3;
/** A wrapped URL may be encoded more than once; decode at most this many extra times. */
const maxExtraDecodes = 2;

/** Resolves relative links only to learn their scheme; never part of a result. */
const schemeProbeBase = "https://relative.invalid/";

/** The parameters a retailer's links get; none when its affiliate ID (or the site name) is empty. */
function trackingParams(retailer: RetailerEntry | undefined, ids: AffiliateIds, siteName: string): TrackingParams {
  if (retailer?.affiliate == null) {
    const site = siteName.trim();
    return site ? [["ref", site]] : [];
  }
  const id = ids[retailer.affiliate.idKey].trim();
  return id ? retailer.affiliate.params(id) : [];
}

const isHttp = (url: URL) => url.protocol === "http:" || url.protocol === "https:";

/**
 * Whether a link may be emitted as an href: absolute http(s), or relative (which the browser
 * resolves against the site's own http(s) origin). Other schemes (javascript:, data:) and
 * text that no browser could resolve are refused.
 */
function isSafeHref(link: string): boolean {
  if (link === "") return false;
  try {
    return isHttp(new URL(link, schemeProbeBase));
  } catch {
    return false;
  }
}

function parseAbsoluteHttp(text: string): URL | null {
  try {
    const url = new URL(text);
    return isHttp(url) ? url : null;
  } catch {
    return null;
  }
}

function setParams(url: URL, params: TrackingParams): URL {
  for (const [name, value] of params) url.searchParams.set(name, value);
  return url;
}

/** The fallback for links that are not absolute URLs: append with ? or &, before any #fragment. */
function appendParams(link: string, params: TrackingParams): string {
  const hashAt = link.indexOf("#");
  const base = hashAt === -1 ? link : link.slice(0, hashAt);
  const fragment = hashAt === -1 ? "" : link.slice(hashAt);
  const query = params.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&");
  const separator = !base.includes("?") ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&";
  return base + separator + query + fragment;
}

const onRetailerHost = (url: URL, retailer: RetailerEntry) => retailer.hosts.some((base) => isOnHost(url.hostname, base));

/**
 * The value of a redirector parameter that names the retailer (its host's first label, as
 * "petsathome"), if the link has one; whether it really leads there is checked once parsed.
 */
function wrappedMerchantValue(url: URL, retailer: RetailerEntry): string | null {
  const labels = retailer.hosts.map((host) => host.split(".")[0]!);
  for (const [name, value] of url.searchParams) {
    if (redirectorParams.has(name.toLowerCase()) && labels.some((label) => value.toLowerCase().includes(label))) return value;
  }
  return null;
}

/** Parses a wrapped URL, decoding again when the redirector encoded it more than once. */
function parseWrappedUrl(value: string): URL | null {
  let text = value.trim();
  for (let extra = 0; extra <= maxExtraDecodes; extra++) {
    const url = parseAbsoluteHttp(text);
    if (url !== null) return url;
    try {
      text = decodeURIComponent(text);
    } catch {
      return null;
    }
  }
  return null;
}

type Unwrapped = { kind: "not-wrapped" } | { kind: "merchant"; url: URL } | { kind: "unparsable"; value: string };

/** Follows redirector parameters until the retailer's own URL is reached. */
function unwrapRedirector(link: URL, retailer: RetailerEntry): Unwrapped {
  let current = link;
  for (let depth = 0; depth < maxRedirectorDepth && !onRetailerHost(current, retailer); depth++) {
    const value = wrappedMerchantValue(current, retailer);
    if (value === null) break;
    const inner = parseWrappedUrl(value);
    if (inner === null) return { kind: "unparsable", value };
    current = inner;
  }
  if (current === link) return { kind: "not-wrapped" };
  // Only an address on the retailer's own hosts is trusted as the unwrapped destination.
  return onRetailerHost(current, retailer) ? { kind: "merchant", url: current } : { kind: "unparsable", value: current.href };
}

function unwrappedLink(link: string, url: URL, retailer: RetailerEntry, unwrappedParams: TrackingParams, params: TrackingParams): string {
  const unwrapped = unwrapRedirector(url, retailer);
  switch (unwrapped.kind) {
    case "not-wrapped":
      return setParams(url, params).href;
    case "merchant":
      return setParams(unwrapped.url, [...unwrappedParams, ...params]).href;
    case "unparsable":
      console.warn(`Affiliate link: could not unwrap the ${retailer.name} redirector link ${link} (inner value ${unwrapped.value})`);
      return appendParams(link, params);
  }
}

/**
 * Builds the outbound link for a retailer's URL, adding the site's affiliate tracking:
 * Amazon `tag`, Pets at Home `aff` (redirector links unwrapped to the merchant URL first),
 * Jollyes `ref`, Zooplus `partner`, eBay `mkevt=1&mkcid=1&campid`; any other retailer gets
 * `ref={siteName}`. An existing parameter of the same name is replaced. A retailer whose ID
 * is empty keeps its URL untagged. A URL that is not absolute gets the parameters appended
 * as text. Only http(s) (or relative) links come back; any other scheme returns "#".
 * @example buildAffiliateUrl("Amazon UK", "https://www.amazon.co.uk/dp/B0?tag=x", ids, "PawPrice") // "https://www.amazon.co.uk/dp/B0?tag=pawprice-21"
 * @example buildAffiliateUrl("eBay", "https://www.ebay.co.uk/itm/1", ids, "PawPrice") // "https://www.ebay.co.uk/itm/1?mkevt=1&mkcid=1&campid=533"
 * @example buildAffiliateUrl("Viovet", "https://www.viovet.co.uk/p/1", ids, "PawPrice") // "https://www.viovet.co.uk/p/1?ref=PawPrice"
 * @example buildAffiliateUrl("Amazon", "foo", ids, "PawPrice") // "foo?tag=pawprice-21"
 * @example buildAffiliateUrl("Amazon", "javascript:alert(1)", ids, "PawPrice") // "#"
 */
export function buildAffiliateUrl(retailer: string, url: string, ids: AffiliateIds, siteName: string): string {
  const link = url.trim();
  if (!isSafeHref(link)) return "#";
  const programme = affiliateRetailer(retailer);
  const params = trackingParams(programme, ids, siteName);
  if (params.length === 0) return link;
  const absolute = parseAbsoluteHttp(link);
  if (absolute === null) return appendParams(link, params);
  const unwrappedParams = programme?.affiliate?.unwrappedParams;
  if (programme && unwrappedParams) return unwrappedLink(link, absolute, programme, unwrappedParams, params);
  return setParams(absolute, params).href;
}
