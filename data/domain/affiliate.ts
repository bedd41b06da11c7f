/**
 * The affiliate link builder (SPEC.md section 7, "Affiliate link rules"). One pure function
 * serves the static build and the islands, so every outbound link is tagged the same way.
 */
import type { AffiliateIds, AffiliateKey } from "./catalogue.ts";

type TrackingParams = ReadonlyArray<readonly [name: string, value: string]>;

interface AffiliateRetailer {
  /** The retailer's stable key in the database (`pets-at-home`), which the admin cannot rename. */
  key: string;
  /** The retailer's name reduced to lowercase letters (see retailerToken), for references by name only. */
  token: string;
  idKey: AffiliateKey;
  params: (id: string) => TrackingParams;
}

const affiliateRetailers: readonly AffiliateRetailer[] = [
  { key: "amazon", token: "amazon", idKey: "AMAZON", params: (id) => [["tag", id]] },
  { key: "pets-at-home", token: "petsathome", idKey: "PETS_AT_HOME", params: (id) => [["aff", id]] },
  { key: "jollyes", token: "jollyes", idKey: "JOLLYES", params: (id) => [["ref", id]] },
  { key: "zooplus", token: "zooplus", idKey: "ZOOPLUS", params: (id) => [["partner", id]] },
  {
    key: "ebay",
    token: "ebay",
    idKey: "EBAY",
    params: (id) => [
      ["mkevt", "1"],
      ["mkcid", "1"],
      ["campid", id],
    ],
  },
];

/** Regional suffixes admins add to a retailer's name ("Amazon UK", "ebay.co.uk"). */
const regionSuffixes = ["", "uk", "couk", "com"];

/** Sent with an unwrapped Pets at Home link so the shopper lands on the web shop, not the app. */
const petsAtHomeWebParams: TrackingParams = [
  ["utm_source", "website"],
  ["utm_medium", "affiliate"],
  ["app_redirect", "false"],
  ["force_web", "true"],
];

/** Query parameters in which affiliate redirectors (AWIN's `ued` and others) carry the merchant URL. */
const redirectorParams = new Set(["ued", "url", "u", "murl", "destination"]);
/** Redirectors may wrap redirectors; a few levels is plenty and bounds the work. */
const maxRedirectorDepth = 3;
/** A wrapped URL may be encoded more than once; decode at most this many extra times. */
const maxExtraDecodes = 2;

/** Resolves relative links only to learn their scheme; never part of a result. */
const schemeProbeBase = "https://relative.invalid/";

const retailerToken = (name: string) => name.toLowerCase().replace(/[^a-z]/g, "");

/**
 * The affiliate programme of a retailer given by its key (offers: `pets-at-home`), or by its name
 * where only a name is stored (vouchers: "Pets at Home", "Amazon UK").
 */
function affiliateRetailer(retailer: string): AffiliateRetailer | undefined {
  const byKey = affiliateRetailers.find((candidate) => candidate.key === retailer);
  if (byKey) return byKey;
  const token = retailerToken(retailer);
  return affiliateRetailers.find((candidate) => regionSuffixes.some((suffix) => token === candidate.token + suffix));
}

/** The parameters a retailer's links get; none when its affiliate ID (or the site name) is empty. */
function trackingParams(retailer: AffiliateRetailer | undefined, ids: AffiliateIds, siteName: string): TrackingParams {
  if (retailer === undefined) {
    const site = siteName.trim();
    return site ? [["ref", site]] : [];
  }
  const id = ids[retailer.idKey].trim();
  return id ? retailer.params(id) : [];
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

const isPetsAtHomeHost = (url: URL) => url.hostname === "petsathome.com" || url.hostname.endsWith(".petsathome.com");

/** The value of a redirector parameter that points at Pets at Home, if the link has one. */
function wrappedMerchantValue(url: URL): string | null {
  for (const [name, value] of url.searchParams) {
    if (redirectorParams.has(name.toLowerCase()) && value.toLowerCase().includes("petsathome")) return value;
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

/** Follows redirector parameters until the Pets at Home merchant URL itself is reached. */
function unwrapPetsAtHome(link: URL): Unwrapped {
  let current = link;
  for (let depth = 0; depth < maxRedirectorDepth && !isPetsAtHomeHost(current); depth++) {
    const value = wrappedMerchantValue(current);
    if (value === null) break;
    const inner = parseWrappedUrl(value);
    if (inner === null) return { kind: "unparsable", value };
    current = inner;
  }
  if (current === link) return { kind: "not-wrapped" };
  // Only a real petsathome.com address is trusted as the unwrapped destination.
  return isPetsAtHomeHost(current) ? { kind: "merchant", url: current } : { kind: "unparsable", value: current.href };
}

function petsAtHomeLink(link: string, url: URL, params: TrackingParams): string {
  const unwrapped = unwrapPetsAtHome(url);
  switch (unwrapped.kind) {
    case "not-wrapped":
      return setParams(url, params).href;
    case "merchant":
      return setParams(unwrapped.url, [...petsAtHomeWebParams, ...params]).href;
    case "unparsable":
      console.warn(`Affiliate link: could not unwrap the Pets at Home redirector link ${link} (inner value ${unwrapped.value})`);
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
  if (programme?.idKey === "PETS_AT_HOME") return petsAtHomeLink(link, absolute, params);
  return setParams(absolute, params).href;
}
