/**
 * The retailer registry: everything the code knows about a retailer, in one record per retailer,
 * keyed by its stable key (`amazon`, `pets-at-home`). Affiliate tagging, the hosts its offer URLs
 * may use, the merchant names feeds give it, where its pages print a price, its chart colour and
 * its seed row all derive from here. A retailer the site owner adds in the admin needs no entry:
 * its row in the `retailers` table carries its hosts and feed names.
 *
 * Pure data and small lookups, no I/O: the build, the islands and the API all read it.
 */

/** Where a retailer's product pages print the price when they carry no structured data. */
export interface ExtractionHints {
  /** Descendant selectors (`#id`, `.class`, `[attr="value"]` steps), most specific first. */
  price: readonly string[];
  /** Where the stock message stands. */
  stock: readonly string[];
}

export interface RetailerEntry {
  key: string;
  name: string;
  /** Hosts its product pages live on; a subdomain of one (www., m.) matches it. */
  hosts: readonly string[];
  /** Where its pages print the price when they carry no structured data (null: none known). */
  extraction: ExtractionHints | null;
}

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

const zooplusHints: ExtractionHints = {
  price: ['[data-zta="productStandardPriceAmount"]', '[data-zta="product-detail"] .z-price__amount'],
  stock: ['[data-zta="availability"]'],
};

export const retailerRegistry: readonly RetailerEntry[] = [
  { key: "amazon", name: "Amazon", hosts: ["amazon.co.uk"], extraction: amazonHints },
  {
    key: "pets-at-home",
    name: "Pets at Home",
    hosts: ["petsathome.com"],
    extraction: {
      // From a saved product page (Next.js, CSS-module class names with a build hash after "__").
      price: ['[class*="overview_prices__"] [class*="product-price_price__"]'],
      stock: [],
    },
  },
  {
    key: "jollyes",
    name: "Jollyes",
    hosts: ["jollyes.co.uk"],
    extraction: {
      price: ['.product-info-main [data-price-type="finalPrice"]', ".product-info-main .special-price .price"],
      stock: [".product-info-main .stock"],
    },
  },
  { key: "zooplus", name: "Zooplus", hosts: ["zooplus.co.uk", "zooplus.de"], extraction: zooplusHints },
  {
    key: "ebay",
    name: "eBay",
    hosts: ["ebay.co.uk"],
    extraction: { price: [".x-price-primary", "#prcIsum", "#mm-saleDscPrc"], stock: [".d-quantity__availability", ".d-statusmessage"] },
  },
  {
    key: "viovet",
    name: "Viovet",
    hosts: ["viovet.co.uk"],
    extraction: { price: ["#product-purchase .product-price"], stock: ["#product-purchase .stock-status"] },
  },
  {
    key: "fetch",
    name: "Fetch",
    hosts: ["fetch.co.uk"],
    extraction: { price: [".product-detail .price--current"], stock: [".product-detail .stock-level"] },
  },
  { key: "pet-planet", name: "Pet Planet", hosts: ["petplanet.co.uk", "pet-planet.co.uk"], extraction: { price: ["#product-price"], stock: ["#product-stock"] } },
];

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
