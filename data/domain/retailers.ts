/**
 * The retailer registry: everything the code knows about a retailer, in one record per retailer,
 * keyed by its stable key (`amazon`, `pets-at-home`). Affiliate tagging, the hosts its offer URLs
 * may use, the merchant names feeds give it, where its pages print a price, its chart colour and
 * its seed row all derive from here. A retailer the site owner adds in the admin needs no entry:
 * its row in the `retailers` table carries its hosts and feed names.
 *
 * Pure data and small lookups, no I/O: the build, the islands and the API all read it.
 */

import type { AffiliateKey } from "./catalogue.ts";
import { noDeliveryRule, type DeliveryRule } from "./delivery.ts";

/** Where a retailer's product pages print the price when they carry no structured data. */
export interface ExtractionHints {
  /** Descendant selectors (`#id`, `.class`, `[attr="value"]` steps), most specific first. */
  price: readonly string[];
  /** Where the stock message stands. */
  stock: readonly string[];
}

/** Query parameters an affiliate programme adds to a link, given the site's ID for it. */
export type TrackingParams = ReadonlyArray<readonly [name: string, value: string]>;

/** A retailer's affiliate programme: which stored ID it uses, and how links are tagged with it. */
export interface AffiliateProgramme {
  idKey: AffiliateKey;
  /** The admin's field label and the message when it is left empty. */
  label: string;
  required: string;
  placeholder: string;
  params: (id: string) => TrackingParams;
  /**
   * Parameters for a link unwrapped from an affiliate network's redirector (the merchant's own
   * page, sent to the web shop rather than the app); absent: redirector links are tagged as they are.
   */
  unwrappedParams?: TrackingParams;
}

export interface RetailerEntry {
  key: string;
  name: string;
  website: string;
  /** Whether the site compares product prices here (else it only has vouchers). */
  comparesPrices: boolean;
  /** Standard home delivery as the retailer advertises it to a customer without a membership. */
  delivery: DeliveryRule;
  /** Hosts its product pages live on; a subdomain of one (www., m.) matches it. */
  hosts: readonly string[];
  /** How affiliate feeds name it as a merchant, besides its name ("Amazon UK", "Jollyes - The Pet People"). */
  feedNames: readonly string[];
  affiliate: AffiliateProgramme | null;
  /** Where its pages print the price when they carry no structured data (null: none known). */
  extraction: ExtractionHints | null;
  /** Its line in price charts: a colour with at least 4.5:1 contrast on white, and a dash pattern. */
  style: { color: string; dash: string } | null;
  /** Its loyalty scheme, whose members may pay less: the name a feed's member price is shown under when the feed names none. */
  memberScheme?: string;
}

const delivery = (standardPence: number | null, freeFromPence: number | null): DeliveryRule => ({ standardPence, freeFromPence });

const amazonHints: ExtractionHints = {
  price: [
    "#corePrice_feature_div .a-price .a-offscreen",
    "#corePriceDisplay_desktop_feature_div .priceToPay .a-offscreen",
    "#corePriceDisplay_desktop_feature_div .a-price .a-offscreen",
    "#priceblock_dealprice",
    "#priceblock_ourprice",
  ],
  stock: ["#availability"],
};

/**
 * Every retailer the code knows, in the order they were added (ids follow it on a fresh seed):
 * the five whose prices are compared first, then the ones that only appear on vouchers.
 * Delivery: typical UK standard delivery, a charge per order, free from a basket value; eBay
 * sellers each set their own postage, so eBay has no rule and its offers state theirs.
 * Colours: the five compared retailers take the Okabe-Ito colour-blind-safe palette, darkened to
 * 4.5:1 on white; orange and green, the pair most alike to some colour-blind eyes, also differ in dash.
 */
export const retailerRegistry: readonly RetailerEntry[] = [
  {
    key: "amazon",
    name: "Amazon",
    website: "https://www.amazon.co.uk",
    comparesPrices: true,
    delivery: delivery(299, 3500),
    hosts: ["amazon.co.uk"],
    feedNames: ["Amazon UK", "Amazon.co.uk"],
    affiliate: { idKey: "AMAZON", label: "Amazon Affiliate ID", required: "Amazon affiliate ID is required", placeholder: "yourtag-21", params: (id) => [["tag", id]] },
    extraction: amazonHints,
    style: { color: "#b45309", dash: "" }, // orange, 5.0:1
  },
  {
    key: "pets-at-home",
    name: "Pets at Home",
    website: "https://www.petsathome.com",
    comparesPrices: true,
    delivery: delivery(399, 3900),
    hosts: ["petsathome.com"],
    feedNames: ["Pets at Home UK", "petsathome.com"],
    affiliate: {
      idKey: "PETS_AT_HOME",
      label: "Pets at Home Affiliate ID",
      required: "Pets at Home affiliate ID is required",
      placeholder: "AWIN publisher ID",
      params: (id) => [["aff", id]],
      unwrappedParams: [
        ["utm_source", "website"],
        ["utm_medium", "affiliate"],
        ["app_redirect", "false"],
        ["force_web", "true"],
      ],
    },
    extraction: {
      // From a saved product page (Next.js, CSS-module class names with a build hash after "__").
      price: ['[class*="overview_prices__"] [class*="product-price_price__"]'],
      stock: [],
    },
    style: { color: "#0072b2", dash: "" }, // blue, 5.2:1
    memberScheme: "Pets Club",
  },
  {
    key: "jollyes",
    name: "Jollyes",
    website: "https://www.jollyes.co.uk",
    comparesPrices: true,
    delivery: delivery(499, 4900),
    hosts: ["jollyes.co.uk"],
    feedNames: ["Jollyes - The Pet People", "jollyes.co.uk"],
    affiliate: { idKey: "JOLLYES", label: "Jollyes Affiliate ID", required: "Jollyes affiliate ID is required", placeholder: "Jollyes referral ID", params: (id) => [["ref", id]] },
    extraction: {
      price: ['.product-info-main [data-price-type="finalPrice"]', ".product-info-main .special-price .price"],
      stock: [".product-info-main .stock"],
    },
    style: { color: "#00785a", dash: "7 4" }, // bluish green, 5.5:1
    memberScheme: "PetCLUB",
  },
  {
    key: "zooplus",
    name: "Zooplus",
    website: "https://www.zooplus.co.uk",
    comparesPrices: true,
    delivery: delivery(399, 3900),
    hosts: ["zooplus.co.uk", "zooplus.de"],
    feedNames: ["Zooplus UK", "zooplus.co.uk"],
    affiliate: { idKey: "ZOOPLUS", label: "Zooplus Affiliate ID", required: "Zooplus affiliate ID is required", placeholder: "Zooplus partner ID", params: (id) => [["partner", id]] },
    extraction: {
      price: ['[data-zta="productStandardPriceAmount"]', '[data-zta="product-detail"] .z-price__amount'],
      stock: ['[data-zta="availability"]'],
    },
    style: { color: "#a8327a", dash: "2 3" }, // reddish purple, 6.2:1
    memberScheme: "zooPoints",
  },
  {
    key: "ebay",
    name: "eBay",
    website: "https://www.ebay.co.uk",
    comparesPrices: true,
    delivery: noDeliveryRule,
    hosts: ["ebay.co.uk"],
    feedNames: ["eBay UK", "ebay.co.uk"],
    affiliate: {
      idKey: "EBAY",
      label: "eBay Campaign ID",
      required: "eBay affiliate ID is required",
      placeholder: "5338xxxxxx",
      params: (id) => [
        ["mkevt", "1"],
        ["mkcid", "1"],
        ["campid", id],
      ],
    },
    extraction: { price: [".x-price-primary", "#prcIsum", "#mm-saleDscPrc"], stock: [".d-quantity__availability", ".d-statusmessage"] },
    style: { color: "#1f2937", dash: "9 3 2 3" }, // near black, 14.7:1
  },
  {
    key: "viovet",
    name: "Viovet",
    website: "https://www.viovet.co.uk",
    comparesPrices: false,
    delivery: noDeliveryRule,
    hosts: ["viovet.co.uk"],
    feedNames: ["VioVet"],
    affiliate: null,
    extraction: { price: ["#product-purchase .product-price"], stock: ["#product-purchase .stock-status"] },
    style: null,
  },
  {
    key: "fetch",
    name: "Fetch",
    website: "https://www.fetch.co.uk",
    comparesPrices: false,
    delivery: noDeliveryRule,
    hosts: ["fetch.co.uk"],
    feedNames: ["Fetch UK", "fetch.co.uk"],
    affiliate: null,
    extraction: { price: [".product-detail .price--current"], stock: [".product-detail .stock-level"] },
    style: null,
  },
  {
    key: "pet-planet",
    name: "Pet Planet",
    website: "https://www.pet-planet.co.uk",
    comparesPrices: false,
    delivery: noDeliveryRule,
    hosts: ["pet-planet.co.uk", "petplanet.co.uk"],
    feedNames: ["PetPlanet", "Petplanet.co.uk"],
    affiliate: null,
    extraction: { price: ["#product-price"], stock: ["#product-stock"] },
    style: null,
  },
  { key: "vetuk", name: "VetUK", website: "https://www.vetuk.co.uk", comparesPrices: false, delivery: noDeliveryRule, hosts: ["vetuk.co.uk"], feedNames: [], affiliate: null, extraction: null, style: null },
  {
    key: "grooming-gang",
    name: "Grooming Gang",
    website: "https://www.groominggang.co.uk",
    comparesPrices: false,
    delivery: noDeliveryRule,
    hosts: ["groominggang.co.uk"],
    feedNames: [],
    affiliate: null,
    extraction: null,
    style: null,
  },
  {
    key: "birdfood-direct",
    name: "Birdfood Direct",
    website: "https://www.birdfooddirect.co.uk",
    comparesPrices: false,
    delivery: noDeliveryRule,
    hosts: ["birdfooddirect.co.uk"],
    feedNames: [],
    affiliate: null,
    extraction: null,
    style: null,
  },
];

/**
 * The programme that uses a stored affiliate ID (the admin's field label, its required message).
 * Every AffiliateKey has exactly one registry retailer (a test checks it).
 */
export function affiliateProgramme(idKey: AffiliateKey): AffiliateProgramme {
  const programme = retailerRegistry.find((entry) => entry.affiliate?.idKey === idKey)?.affiliate;
  if (!programme) throw new Error(`No retailer in the registry uses the affiliate ID ${idKey}`);
  return programme;
}

/** The logo every registry retailer ships in site/public/retailers/. */
export const retailerLogo = (key: string) => `/retailers/${key}.svg`;

/** The registry entry of a retailer key, or undefined for a retailer only the database knows. */
export function registryEntry(key: string): RetailerEntry | undefined {
  return retailerRegistry.find((entry) => entry.key === key);
}

/**
 * A name reduced for matching: lower-case letters and digits only, so "Pets at Home",
 * "PetsAtHome" and "pets-at-home" compare alike.
 */
export const compactName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Regional and web-address endings people add to a retailer's name ("Amazon UK", "ebay.co.uk"). */
const nameEndings = ["", "uk", "couk", "com"];

/**
 * The registry entry a free-text name refers to (vouchers and feeds store names, not keys): its
 * key, its name or a feed name, with or without "UK", ".co.uk" or ".com".
 * @example registryEntryByName("Amazon UK")?.key // "amazon"
 * @example registryEntryByName("Jollyes - The Pet People")?.key // "jollyes"
 */
export function registryEntryByName(name: string): RetailerEntry | undefined {
  return entriesByCompactName.get(compactName(name));
}

/**
 * Every name a registry entry answers to (key, name, feed names, each with each ending), compacted:
 * the first entry in registry order wins a name two would share. Worked out once: a product page
 * looks retailers up by name for its chart and links.
 */
const entriesByCompactName: ReadonlyMap<string, RetailerEntry> = (() => {
  const names = new Map<string, RetailerEntry>();
  for (const entry of retailerRegistry) {
    for (const known of [entry.key, entry.name, ...entry.feedNames]) {
      for (const ending of nameEndings) {
        const compact = compactName(known) + ending;
        if (!names.has(compact)) names.set(compact, entry);
      }
    }
  }
  return names;
})();

/** Whether `host` is `base` or a subdomain of it ("www.amazon.co.uk" is on "amazon.co.uk"). */
export function isOnHost(host: string, base: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === base || name.endsWith(`.${base}`);
}

/** The registry entry whose hosts include `host`, or null. */
export function retailerForHost(host: string): RetailerEntry | null {
  return retailerRegistry.find((entry) => entry.hosts.some((base) => isOnHost(host, base))) ?? null;
}

/** Where the pages of the shop at `host` print the price, with the host it was found for; null when unknown. */
export function extractionHintsFor(host: string): { host: string; hints: ExtractionHints } | null {
  for (const entry of retailerRegistry) {
    const base = entry.hosts.find((candidate) => isOnHost(host, candidate));
    if (base !== undefined && entry.extraction) return { host: base, hints: entry.extraction };
  }
  return null;
}

/** The host of an absolute http(s) URL, lower-cased without a trailing dot; null for anything else. */
export function httpHostOf(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    return parsed.hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return null;
  }
}

/**
 * The hosts a retailer's offer URLs may use: its registry hosts, the hosts the site owner stored
 * for it, and its website's host (without "www."). Sorted, without repeats.
 * @example retailerHosts({ key: "amazon", website: "https://www.amazon.co.uk", hosts: [] }) // ["amazon.co.uk"]
 */
export function retailerHosts(retailer: { key: string; website: string; hosts: readonly string[] }): string[] {
  const website = httpHostOf(retailer.website)?.replace(/^www\./, "");
  const all = [...(registryEntry(retailer.key)?.hosts ?? []), ...retailer.hosts, ...(website ? [website] : [])];
  return [...new Set(all.map((host) => host.toLowerCase()))].sort();
}

/**
 * Why an offer URL cannot be a retailer's buy link, or null when it can: it must be an absolute
 * http(s) URL on one of the retailer's hosts (or a subdomain of one). A feed row or a form that
 * names Amazon but links elsewhere would otherwise publish a foreign link under Amazon's name.
 * @example offerUrlProblem("https://www.amazon.co.uk/dp/B0", { name: "Amazon", hosts: ["amazon.co.uk"] }) // null
 * @example offerUrlProblem("http://169.254.169.254/x", { name: "Amazon", hosts: ["amazon.co.uk"] }) // "the URL's host 169.254.169.254 is not Amazon's (amazon.co.uk)"
 */
export function offerUrlProblem(url: string, retailer: { name: string; hosts: readonly string[] }): string | null {
  const host = httpHostOf(url);
  if (host === null) return "the URL must be an absolute http(s) address";
  if (retailer.hosts.some((base) => isOnHost(host, base))) return null;
  return `the URL's host ${host} is not ${retailer.name}'s (${retailer.hosts.length > 0 ? retailer.hosts.join(", ") : "no hosts are set for it"})`;
}

/**
 * A list of hosts as a person types it ("www.shop.co.uk, shop.com" or one per line, with or
 * without https://) in canonical form: lower case, without "www.", a path or a port. Throws
 * nothing: an entry that is not a host name is returned in `invalid`.
 */
export function parseHostList(text: string): { hosts: string[]; invalid: string[] } {
  const hosts: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\s,]+/)) {
    if (raw === "") continue;
    const host = (httpHostOf(raw.includes("://") ? raw : `https://${raw}`) ?? "").replace(/^www\./, "");
    if (/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(host)) {
      if (!hosts.includes(host)) hosts.push(host);
    } else invalid.push(raw);
  }
  return { hosts, invalid };
}
