/**
 * What the admin reads beside each price the extractor found: which source and rule found it, where
 * it stands on the page, and how sure it is. Real saved shop pages first, then small pages for the
 * rules a real page does not reach and for the exact bounds of what is read.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractOffer, readAvailability, readOffer, type OfferConfidence, type OfferSource } from "./offer-extract.ts";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const realPage = (file: string) => fs.readFileSync(path.join(fixtures, "real-pages", file), "utf8");
const fixturePage = (file: string) => fs.readFileSync(path.join(fixtures, "pages", file), "utf8");
const realUrls = new Map((JSON.parse(realPage("manifest.json")) as { file: string; url: string }[]).map((entry) => [entry.file, entry.url]));

const ld = (...nodes: unknown[]) => nodes.map((node) => `<script type="application/ld+json">${JSON.stringify(node)}</script>`).join("");
const offer = (price: string, extra: object = {}) => ({ "@type": "Offer", price, priceCurrency: "GBP", availability: "https://schema.org/InStock", ...extra });
const box = (text: string) => `<div class="buy"><span>${text}</span><button>Add to basket</button></div>`;

interface Shown {
  source: OfferSource;
  confidence: OfferConfidence;
  inStock: boolean | null;
  rule: string;
  snippet: string | null;
}

/** Real UK shop pages: each rule the admin sees, word for word. */
const realEvidence: [string, Shown][] = [
  // An AggregateOffer's lowPrice names the lowest pack as a starting price: that pack is taken.
  ["monsterpetsupplies-johnsons-4fleas.html", { source: "microdata", confidence: "medium", inStock: null, rule: "Product microdata[0], the lowest: the page's AggregateOffer lowPrice", snippet: "microdata[0] offers lowPrice" }],
  ["bonprix-soft-shell-parka-from.html", { source: "microdata", confidence: "medium", inStock: null, rule: "Product microdata[0], the lowest: the page's AggregateOffer lowPrice", snippet: "microdata[0] offers lowPrice" }],
  // Only the price beside the buy button: a visible-text reading, held for review.
  ["amazon-co-uk-book-used-only.html", { source: "buy-box", confidence: "low", inStock: null, rule: "the price printed beside the buy button", snippet: "buy box: £4.45" }],
  ["sainsburys-apricots-2016.html", { source: "buy-box", confidence: "low", inStock: null, rule: "the price printed beside the buy button", snippet: "buy box: £3.50/unit" }],
  ["debenhams-tefal-pan-set.html", { source: "buy-box", confidence: "low", inStock: null, rule: "the price printed beside the buy button", snippet: "buy box: Now £68.00" }],
  [
    "petsathome-lilys-kitchen-fishermans-feast.html",
    {
      source: "next-data",
      confidence: "medium",
      inStock: true,
      rule: "product in the page's state whose id is in the page URL; currency not named, pounds assumed (a .uk shop or a page showing £)",
      snippet: "next-data.props.pageProps.baseProduct.products[0]: Lily's Kitchen Adult Cat Dry Food White Fish & Salmon 2kg",
    },
  ],
  ["lilyskitchen-chicken-veggies-dry-4kg.html", { source: "json-ld", confidence: "medium", inStock: true, rule: "Product json-ld[1] json-ld[1] offers[2] matched by the price beside the buy button (£53.00)", snippet: "json-ld[1] offers[2]" }],
  ["zooplus-co-uk-encore-cat-chicken-salmon.html", { source: "json-ld", confidence: "medium", inStock: true, rule: "Product json-ld[0] json-ld[0] offers[0] matched by the price beside the buy button (£5.79)", snippet: "json-ld[0] offers[0]" }],
  ["zalando-co-uk-adidas-hoodie.html", { source: "json-ld", confidence: "high", inStock: true, rule: "Product json-ld[0], all 8 offers at one price", snippet: "json-ld[0] offers[0]" }],
  ["ocado-daylesford-pork-sausages.html", { source: "itemprop", confidence: "medium", inStock: null, rule: "itemprop price without an itemscope", snippet: "itemprop without itemscope: 7.5" }],
  ["currys-dolce-gusto-infinissima.html", { source: "meta", confidence: "medium", inStock: null, rule: "product meta tag og:price:amount", snippet: "meta og:price:amount: 49.99" }],
  ["amazon-co-uk-crash-team-racing-ps4.html", { source: "retailer:amazon.co.uk", confidence: "medium", inStock: false, rule: "the retailer's price element (registry hint)", snippet: "id=priceblock_ourprice: £ 34.99" }],
  ["amazon-co-uk-omeril-head-torch.html", { source: "retailer:amazon.co.uk", confidence: "medium", inStock: true, rule: "the retailer's price element (registry hint)", snippet: "id=priceblock_ourprice: £9.99" }],
  ["lidl-uk-dustpan-brush.html", { source: "microdata", confidence: "high", inStock: null, rule: "Product microdata[1]; currency not named, pounds assumed (a .uk shop or a page showing £)", snippet: "microdata[1]: Aquapur Dustpan & Brush Set1" }],
  ["farah-polo-shirt.html", { source: "microdata", confidence: "high", inStock: null, rule: "Product microdata[1]", snippet: "microdata[1] offers lowPrice" }],
  ["zavvi-chewbacca-mug.html", { source: "json-ld", confidence: "high", inStock: true, rule: "Product json-ld[0]", snippet: "json-ld[0] offers[0]" }],
];

/** Saved fixture pages for the sources no real page reaches. */
const fixtureEvidence: [string, string, Shown][] = [
  [
    "jollyes-magento.html",
    "https://www.jollyes.co.uk/pedigree-dentastix-large-28.html",
    { source: "magento", confidence: "medium", inStock: null, rule: "Magento final price (data-price-amount); currency not named, pounds assumed (a .uk shop or a page showing £)", snippet: "finalPrice[0]" },
  ],
  [
    "zooplus-co-uk.html",
    "https://www.zooplus.co.uk/shop/dogs/dry_dog_food/royal_canin/medium/39318",
    { source: "retailer:zooplus.co.uk", confidence: "medium", inStock: true, rule: "the retailer's price element (registry hint)", snippet: "data-zta=productStandardPriceAmount: £54.99" },
  ],
  [
    "zooplus-de-eur.html",
    "https://www.zooplus.de/shop/hunde/hundefutter_trockenfutter/royal_canin/medium/39318",
    { source: "retailer:zooplus.de", confidence: "medium", inStock: null, rule: "the retailer's price element (registry hint)", snippet: "data-zta=product-detail class=z-price__amount: 64,99 €" },
  ],
  [
    "offer-without-product.html",
    "https://www.saddleandstable.co.uk/cortaflex-ha-super-fenn-908g",
    { source: "json-ld", confidence: "medium", inStock: false, rule: "lone Offer", snippet: "json-ld[1]: Cortaflex HA Super Fenn Powder 908g" },
  ],
  ["meta-tags-only.html", "https://shop.happyhoundbakery.com/pupcakes-peanut-butter", { source: "meta", confidence: "medium", inStock: true, rule: "product meta tag product:price:amount", snippet: "meta product:price:amount: 7.99" }],
  ["rdfa-product.html", "https://www.kennelcomforts.com/beds/orthopaedic-memory-foam-large", { source: "rdfa", confidence: "high", inStock: true, rule: "Product rdfa[0]", snippet: "rdfa[0] offers" }],
];

const shown = (html: string, url: string): Shown | null => {
  const found = extractOffer(html, url);
  return found === null ? null : { source: found.source, confidence: found.confidence, inStock: found.inStock, rule: found.evidence.rule, snippet: found.evidence.snippet };
};

describe("evidence on real shop pages", () => {
  it.each(realEvidence)("%s", (file, expected) => {
    expect(shown(realPage(file), realUrls.get(file)!)).toEqual(expected);
    expect(extractOffer(realPage(file), realUrls.get(file)!)?.evidence.source).toBe(expected.source);
  });
  it.each(fixtureEvidence)("%s", (file, url, expected) => {
    expect(shown(fixturePage(file), url)).toEqual(expected);
  });

  it("lists every pack a page offers beside the one chosen, with its own stock and name", () => {
    const url = realUrls.get("monsterpetsupplies-johnsons-4fleas.html")!;
    expect(extractOffer(realPage("monsterpetsupplies-johnsons-4fleas.html"), url)?.candidates).toEqual([
      { price: 529, currency: "GBP", inStock: null, label: "microdata[0] offers lowPrice" },
      { price: 956, currency: "GBP", inStock: true, label: "Johnsons 4 Fleas Cats & Kittens Tablets 6 Treatment Pack" },
      { price: 529, currency: "GBP", inStock: true, label: "Johnsons 4 Fleas Cats & Kittens Tablets 3 Treatment Pack" },
    ]);
  });
});

describe("offers left undecided by structured data, decided by a later source", () => {
  const two = ld({ "@type": "Product", name: "Kibble", offers: [offer("27.5"), offer("14")] });
  const url = "https://shop.example.com/p/kibble";
  const magento = (amount: string) => `<div class="product-info-main"><div class="price-box" data-product-id="7"><span data-price-type="finalPrice" data-price-amount="${amount}"></span></div></div>`;

  it("passes over a later source that is undecided too, or whose price is none of the offers, for one that names an offer's price", () => {
    const microdataTwo = '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Kibble</span><div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="30"><meta itemprop="priceCurrency" content="GBP"></div><div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="40"><meta itemprop="priceCurrency" content="GBP"></div></div>';
    const meta = '<meta property="product:price:amount" content="99.00"><meta property="product:price:currency" content="GBP">';
    expect(readOffer(`${two}${microdataTwo}${meta}${magento("14")}`, url)).toMatchObject({
      status: "found",
      offer: { price: 1400, currency: "GBP", source: "json-ld", confidence: "medium", evidence: { rule: "Product json-ld[0] json-ld[0] offers[1] matched by magento: Magento final price (data-price-amount)" } },
    });
    // Nothing later names one of the offers' prices: still undecided, with the structured data's reason.
    expect(readOffer(`${two}${microdataTwo}${meta}`, url)).toMatchObject({
      status: "undecided",
      source: "json-ld",
      reason: "Product json-ld[0]: 2 offers at 2 different prices and nothing on the page picks one (no URL, SKU or pack-size match, no price beside the buy button)",
    });
  });

  it("names the later source and its rule: itemprop without a scope, Salesforce's sales price, a retailer's price element", () => {
    expect(extractOffer(`${two}<span itemprop="price" content="14.00"></span>`, url)?.evidence.rule).toBe("Product json-ld[0] json-ld[0] offers[1] matched by itemprop: itemprop price without an itemscope");
    const sfcc = '<div class="prices"><span class="sales"><span class="value" content="27.50">£27.50</span></span></div>';
    expect(extractOffer(`${two}${sfcc}`, url)).toMatchObject({ price: 2750, evidence: { rule: "Product json-ld[0] json-ld[0] offers[0] matched by sfcc: sales price (.prices .sales .value content)" } });
    expect(extractOffer(`${two}<div id="product-price">£14.00</div>`, "https://www.petplanet.co.uk/p/kibble")).toMatchObject({
      price: 1400,
      evidence: { rule: "Product json-ld[0] json-ld[0] offers[1] matched by retailer:petplanet.co.uk: the retailer's price element (registry hint)" },
    });
  });
});

describe("platform markup on its own", () => {
  it("reads Salesforce Commerce Cloud's sales price at medium confidence, naming the rule", () => {
    const sfcc = '<div class="prices"><span class="sales"><span class="value" content="27.50" data-currency="GBP">£27.50</span></span></div>';
    expect(extractOffer(sfcc, "https://shop.example.com/p")).toMatchObject({
      price: 2750,
      currency: "GBP",
      source: "sfcc",
      confidence: "medium",
      evidence: { source: "sfcc", rule: "sales price (.prices .sales .value content)", snippet: ".prices .sales .value[0]" },
    });
  });
});

describe("bounds of what is read", () => {
  it("reads a stock statement's first 300 characters only", () => {
    expect(readAvailability(`${" ".repeat(292)}In stock`)).toBe(true);
    expect(readAvailability(`${" ".repeat(293)}In stock`)).toBeNull();
  });
});

describe("choosing one of several offers by the page", () => {
  const url = "https://shop.example.com/p";
  const bySku = (first: string, second: string) => ld({ "@type": "Product", name: "Kibble", offers: [offer("14", { sku: first }), offer("27.5", { sku: second })] });
  const byUrl = { price: 2750, confidence: "high", evidence: { rule: "Product json-ld[0] json-ld[0] offers[1] matched by the page URL", snippet: "json-ld[0] offers[1]" } };

  it("matches a SKU of three characters that is a whole term of the URL, white space around it aside", () => {
    expect(extractOffer(bySku("K14", "K27"), "https://shop.example.com/p/K27")).toMatchObject(byUrl);
    expect(extractOffer(bySku(" K14 ", " K27 "), "https://shop.example.com/p/K27")).toMatchObject(byUrl);
  });

  it("matches a SKU of five characters or more at the end of a URL term after a hyphen, with or without .html; a shorter one only whole", () => {
    expect(extractOffer(bySku("K1400", "K2700"), "https://shop.example.com/p/kibble-K2700")).toMatchObject(byUrl);
    expect(extractOffer(bySku("K1400", "K2700"), "https://shop.example.com/p/kibble-K2700.html")).toMatchObject(byUrl);
    expect(readOffer(bySku("K140", "K270"), "https://shop.example.com/p/kibble-K270").status).toBe("undecided");
  });

  it("never matches one product's offers by a SKU the URL term only extends, as their SKUs often extend one another", () => {
    expect(readOffer(bySku("7128260", "7128261"), "https://shop.example.com/p/7128260P").status).toBe("undecided");
  });

  it("matches pack sizes by unit as well as amount: a 2 l offer is not the 2 kg pack the h1 names", () => {
    const named = ld({ "@type": "Product", name: "Kibble", offers: [offer("14", { name: "2l" }), offer("27.5", { name: "2kg" })] });
    expect(extractOffer(`${named}<h1>Kibble 2kg</h1>`, url)).toMatchObject({ price: 2750, confidence: "medium", evidence: { rule: "Product json-ld[0] json-ld[0] offers[1] matched by pack size 2kg in h1", snippet: "json-ld[0] offers[1]: 2kg" } });
  });

  it("reads a pack size in a SKU whose words are joined by hyphens or underscores", () => {
    for (const [small, large] of [["kib-1kg", "kib-4kg"], ["kib_1kg", "kib_4kg"]]) {
      expect(extractOffer(`${bySku(small!, large!)}<h1>Kibble 4 kg</h1>`, url), large).toMatchObject({ price: 2750, evidence: { rule: "Product json-ld[0] json-ld[0] offers[1] matched by pack size 4kg in h1" } });
    }
  });

  it("reads the pack size from og:title's first 300 characters only", () => {
    const sized = ld({ "@type": "Product", name: "Kibble", offers: [offer("14", { name: "1kg" }), offer("27.5", { name: "2kg" }), offer("53", { name: "4kg" })] });
    const ogTitle = (text: string) => `${sized}<meta property="og:title" content="${text}">`;
    expect(extractOffer(ogTitle(`${"K".repeat(296)} 4kg`), url)).toMatchObject({ price: 5300, evidence: { rule: "Product json-ld[0] json-ld[0] offers[2] matched by pack size 4kg in og:title" } });
    expect(readOffer(ogTitle(`${"K".repeat(297)} 4kg`), url).status).toBe("undecided");
  });

  it("quotes a heading's \"from\" price trimmed and cut at 80 characters", () => {
    const three = ld({ "@type": "Product", name: "Kibble", offers: [offer("27.5"), offer("14"), offer("53")] });
    expect(extractOffer(`${three}<h1>Kibble ${"adult ".repeat(15)}from £14.00</h1>`, url)?.evidence.rule).toBe(
      `Product json-ld[0], the lowest: the h1 says "Kibble ${"adult ".repeat(12)}a"`,
    );
    expect(extractOffer(`${three}<meta property="og:title" content="   Kibble from £14.00">`, url)?.evidence.rule).toBe('Product json-ld[0], the lowest: the og:title says "Kibble from £14.00"');
  });
});

describe("what ties an offer to the page", () => {
  const url = "https://shop.example.com/p/kibble";
  const matchedByUrl = { price: 2750, confidence: "high", evidence: { rule: "Product json-ld[0] json-ld[0] offers[1] matched by the page URL" } };
  const matchedBySize = { price: 2750, confidence: "medium", evidence: { rule: "Product json-ld[0] json-ld[0] offers[1] matched by pack size 4kg in h1" } };

  it("matches an offer's barcode or part number at the end of the URL", () => {
    for (const key of ["gtin", "gtin8", "gtin12", "gtin13", "gtin14", "mpn", "productId"]) {
      const html = ld({ "@type": "Product", name: "Kibble", offers: [offer("14", { [key]: "50100001" }), offer("27.5", { [key]: "50100002" })] });
      expect(extractOffer(html, "https://shop.example.com/p/kibble-50100002"), key).toMatchObject(matchedByUrl);
    }
  });

  it("matches an offer by its @id when that is the page's address, query included", () => {
    const html = ld({ "@type": "Product", name: "Kibble", offers: [offer("14", { "@id": `${url}?size=1kg` }), offer("27.5", { "@id": `${url}?size=4kg` })] });
    expect(extractOffer(html, `${url}?size=4kg`)).toMatchObject(matchedByUrl);
  });

  it("reads an offer's pack size from its size, weight or description", () => {
    for (const key of ["size", "weight", "description"]) {
      const html = ld({ "@type": "Product", name: "Kibble", offers: [offer("14", { [key]: "1kg" }), offer("27.5", { [key]: "4kg" })] });
      expect(extractOffer(`${html}<h1>Kibble 4kg</h1>`, url), key).toMatchObject(matchedBySize);
    }
  });

  it("reads the first 200 characters of an offer's description", () => {
    const html = (length: number) => ld({ "@type": "Product", name: "Kibble", offers: [offer("14", { description: "1kg" }), offer("27.5", { description: `${"K".repeat(length)} 4kg` })] });
    expect(extractOffer(`${html(196)}<h1>Kibble 4kg</h1>`, url)).toMatchObject(matchedBySize);
    expect(readOffer(`${html(197)}<h1>Kibble 4kg</h1>`, url).status).toBe("undecided");
  });

  it("reads the SKU and name of the product an offer wraps (itemOffered)", () => {
    const html = ld({
      "@type": "Product",
      name: "Kibble",
      offers: [offer("14", { itemOffered: { "@type": "Product", sku: "KIB1KG", name: "Kibble 1kg" } }), offer("27.5", { itemOffered: { "@type": "Product", sku: "KIB4KG", name: "Kibble 4kg" } })],
    });
    expect(extractOffer(html, "https://shop.example.com/p/KIB4KG")).toMatchObject({ ...matchedByUrl, evidence: { ...matchedByUrl.evidence, snippet: "json-ld[0] offers[1]: Kibble 4kg" } });
    expect(extractOffer(`${html}<h1>Kibble 4kg</h1>`, "https://shop.example.com/p/x")).toMatchObject(matchedBySize);
  });

  it("does not lend a product's name to each of its several offers: a name giving one size does not make every pack that size", () => {
    const html = ld({ "@type": "Product", name: "Kibble 4kg", offers: [offer("14", { name: "1kg" }), offer("27.5", { name: "4kg" })] });
    expect(extractOffer(`${html}<h1>Kibble 4kg</h1>`, url)).toMatchObject(matchedBySize);
  });
});

describe("sale prices and pages that are not text", () => {
  it("says the structured price is the standard one and the meta tag gives the sale price, keeping the structured stock and currency", () => {
    const html = `${ld({ "@type": "Product", offers: { ...offer("150.00"), priceCurrency: "USD" } })}<meta property="og:price:standard_amount" content="150.00"><meta property="product:price:amount" content="120.00">`;
    expect(extractOffer(html, "https://shop.example.com/p")).toMatchObject({
      price: 12000,
      currency: "USD",
      inStock: true,
      source: "json-ld",
      confidence: "medium",
      evidence: { rule: "Product json-ld[0] is the page's standard price; product meta tag product:price:amount gives the sale price", snippet: "meta product:price:amount: 120.00" },
    });
  });

  it("answers no price, without throwing, when the page is not a string", () => {
    expect(readOffer(undefined as unknown as string, "https://shop.example.com/p")).toEqual({ status: "none", reason: "no price found on the page" });
  });
});

describe("deciding among offers", () => {
  const url = "https://shop.example.com/p/kibble";
  const buyBox = (inner: string) => `<div class="buy">${inner}<button>Add to basket</button></div>`;

  it("says when it kept to the offers in pounds", () => {
    expect(extractOffer(ld({ "@type": "Product", offers: [offer("14", { priceCurrency: "EUR" }), offer("12")] }), url)).toMatchObject({
      price: 1200,
      currency: "GBP",
      confidence: "high",
      evidence: { rule: "Product json-ld[0] (offers in pounds)", snippet: "json-ld[0] offers[1]" },
    });
  });

  it("does not count an offer that names no pack size as the size the h1 names", () => {
    expect(extractOffer(`${ld({ "@type": "Product", offers: [offer("14"), offer("27.5", { name: "4kg" })] })}<h1>Kibble 4kg</h1>`, url)).toMatchObject({
      price: 2750,
      evidence: { rule: "Product json-ld[0] json-ld[0] offers[1] matched by pack size 4kg in h1" },
    });
  });

  it("matches the buy box's plain price, passing over a \"from\" price printed before it", () => {
    const three = ld({ "@type": "Product", offers: [offer("27.5"), offer("14"), offer("53")] });
    expect(extractOffer(`${three}${buyBox("<span>From £14.00</span> <span>£27.50</span>")}`, url)).toMatchObject({
      price: 2750,
      confidence: "medium",
      evidence: { rule: "Product json-ld[0] json-ld[0] offers[0] matched by the price beside the buy button (£27.50)" },
    });
  });

  it("decides nothing by a buy-box price that is none of the offers'", () => {
    expect(readOffer(`${ld({ "@type": "Product", offers: [offer("27.5"), offer("14")] })}${buyBox("<span>£99.00</span>")}`, url)).toMatchObject({ status: "undecided", source: "json-ld" });
  });

  it("takes an AggregateOffer's low price as a \"from\" price only when it is the lowest offer's", () => {
    const aggregate = (extra: object) => ld({ "@type": "Product", offers: { "@type": "AggregateOffer", priceCurrency: "GBP", offers: [offer("27.5"), offer("14")], ...extra } });
    expect(readOffer(aggregate({ lowPrice: "20" }), url).status).toBe("undecided");
    expect(extractOffer(aggregate({}), url)).toMatchObject({ price: 1400, confidence: "medium", evidence: { rule: "Product json-ld[0], the lowest: the page's AggregateOffer lowPrice", snippet: "json-ld[0] offers offers[1]" } });
    expect(extractOffer(aggregate({}), url)?.candidates.map((candidate) => candidate.label)).toEqual(["json-ld[0] offers offers[0]", "json-ld[0] offers offers[1]", "json-ld[0] offers lowPrice"]);
    const lowestFirst = ld({ "@type": "Product", offers: { "@type": "AggregateOffer", priceCurrency: "GBP", offers: [offer("14"), offer("27.5")] } });
    expect(extractOffer(lowestFirst, url)).toMatchObject({ price: 1400, evidence: { rule: "Product json-ld[0], the lowest: the page's AggregateOffer lowPrice", snippet: "json-ld[0] offers offers[0]" } });
  });

  it("reads an AggregateOffer that gives only a price as a \"from\" price, and one with no price as none", () => {
    expect(extractOffer(ld({ "@type": "Product", offers: { "@type": "AggregateOffer", price: "14", priceCurrency: "GBP" } }), url)).toMatchObject({ price: 1400, evidence: { rule: "Product json-ld[0]", snippet: "json-ld[0] offers lowPrice" } });
    expect(readOffer(ld({ "@type": "Product", offers: { "@type": "AggregateOffer", priceCurrency: "GBP" } }), url)).toEqual({ status: "none", reason: "no price found on the page" });
  });
});

describe("where structured data puts the product and its price", () => {
  const url = "https://shop.example.com/p/kibble";

  it("reads the product a WebPage is about, or names as its main entity's page, and names where it stands", () => {
    expect(extractOffer(ld({ "@type": "WebPage", about: { "@type": "Product", offers: offer("14") } }), url)?.evidence).toEqual({ source: "json-ld", rule: "Product json-ld[0] about", snippet: "json-ld[0] about offers" });
    expect(extractOffer(ld({ "@type": "WebPage", mainEntityOfPage: { "@type": "Product", offers: offer("14") } }), url)?.evidence).toEqual({
      source: "json-ld",
      rule: "Product json-ld[0] mainentityofpage",
      snippet: "json-ld[0] mainentityofpage offers",
    });
  });

  it("reads a lone AggregateOffer's offers as lone offers, not as a product", () => {
    expect(extractOffer(ld({ "@type": "AggregateOffer", priceCurrency: "GBP", offers: [offer("14"), offer("14")] }), url)).toMatchObject({ price: 1400, confidence: "medium", evidence: { rule: "lone Offer, all 3 offers at one price" } });
  });

  it("reads a lone Offer that lists offers, and an untyped item with variants, by their own rules", () => {
    expect(extractOffer(ld({ "@type": "Offer", offers: [offer("14")] }), url)).toMatchObject({ price: 1400, confidence: "medium", evidence: { rule: "lone Offer", snippet: "json-ld[0] offers[0]" } });
    expect(extractOffer(ld({ name: "Kibble", hasVariant: [{ "@type": "Product", offers: offer("14") }] }), url)).toMatchObject({ price: 1400, confidence: "high", evidence: { rule: "Item json-ld[0]", snippet: "json-ld[0] hasvariant[0] offers" } });
  });

  it("takes the product whose url property is the page's over one listed earlier", () => {
    const html = ld({ "@type": "Product", name: "Other", url: "https://shop.example.com/p/other", offers: offer("9") }, { "@type": "Product", name: "Kibble", url, offers: offer("14") });
    expect(extractOffer(html, url)).toMatchObject({ price: 1400, evidence: { rule: "Product json-ld[1]", snippet: "json-ld[1] offers" } });
  });

  it("reads no lone Offer on a page whose product has no price", () => {
    expect(readOffer(ld({ "@type": "Product", name: "Kibble" }, offer("14")), url).status).toBe("none");
  });

  it("calls an item with offers and no type an item", () => {
    expect(extractOffer(ld({ name: "Kibble", offers: offer("14") }), url)?.evidence.rule).toBe("Item json-ld[0]");
  });

  it("ties a product group's one own offer to the page by the group's SKU", () => {
    const html = ld({ "@type": "ProductGroup", name: "Kibble", sku: "KIB-MAIN", offers: offer("14"), hasVariant: [{ "@type": "Product", sku: "KIB-4KG", offers: offer("27.5") }] });
    expect(extractOffer(html, "https://shop.example.com/p/KIB-MAIN")).toMatchObject({ price: 1400, confidence: "high", evidence: { rule: expect.stringMatching(/ json-ld\[0\] json-ld\[0\] offers matched by the page URL$/) } });
  });

  it("reads a product's offers, not its own price, when it has both", () => {
    const html = ld({ "@type": "Product", price: "14", priceCurrency: "GBP", offers: [offer("14", { sku: "KA000" }), offer("27.5", { sku: "KB000" })] });
    expect(extractOffer(html, "https://shop.example.com/p/KB000")).toMatchObject({ price: 2750, evidence: { rule: "Product json-ld[0] json-ld[0] offers[1] matched by the page URL" } });
  });

  it("reads the offers an Offer with no price of its own lists", () => {
    expect(extractOffer(ld({ "@type": "Product", offers: { "@type": "Offer", offers: [offer("14")] } }), url)).toMatchObject({ price: 1400, currency: "GBP", evidence: { snippet: "json-ld[0] offers offers[0]" } });
  });

  it("takes a price specification's currency from its offer when it names none", () => {
    expect(extractOffer(ld({ "@type": "Product", offers: { "@type": "Offer", priceCurrency: "USD", priceSpecification: { "@type": "UnitPriceSpecification", price: "14" } } }), url)).toMatchObject({ price: 1400, currency: "USD" });
  });

  it("follows compound price specifications four levels down, not five", () => {
    const chain = (levels: number): object => (levels === 0 ? { "@type": "PriceSpecification", price: "14" } : { "@type": "CompoundPriceSpecification", priceComponent: chain(levels - 1) });
    const page = (levels: number) => ld({ "@type": "Product", offers: { "@type": "Offer", priceCurrency: "GBP", priceSpecification: chain(levels) } });
    expect(extractOffer(page(4), url)?.price).toBe(1400);
    expect(readOffer(page(5), url).status).toBe("none");
  });

  it("reads the first 50 price specifications of an offer", () => {
    const page = (charges: number) =>
      ld({ "@type": "Product", offers: { "@type": "Offer", priceCurrency: "GBP", priceSpecification: [...Array.from({ length: charges }, () => ({ "@type": "DeliveryChargeSpecification", price: "3" })), { "@type": "PriceSpecification", price: "14" }] } });
    expect(extractOffer(page(49), url)?.price).toBe(1400);
    expect(readOffer(page(50), url).status).toBe("none");
  });
});

describe("meta tags, itemprop and Shopify", () => {
  it("passes over an empty sale price tag for the regular price", () => {
    const html = '<meta property="product:sale_price:amount" content=""><meta property="product:price:amount" content="12.99"><meta property="product:price:currency" content="GBP">';
    expect(extractOffer(html, "https://shop.example.com/p")).toMatchObject({ price: 1299, currency: "GBP", evidence: { rule: "product meta tag product:price:amount", snippet: "meta product:price:amount: 12.99" } });
  });

  it("gives no price for an itemprop price that is words", () => {
    expect(readOffer('<span itemprop="price">call us</span>', "https://shop.example.co.uk/p")).toEqual({ status: "none", reason: "no price found on the page" });
  });

  it("names the Shopify variant ?variant= chose, at high confidence", () => {
    const html = `<script type="application/json" data-product-json>${JSON.stringify({ product: { variants: [{ id: 11, price: 399, available: true, title: "100g" }, { id: 22, price: 1725, available: true, title: "500g" }] } })}</script><script>Shopify.currency = {"active":"GBP","rate":"1.0"};</script>`;
    expect(extractOffer(html, "https://shop.example.com/products/kibble?variant=22")).toMatchObject({
      price: 1725,
      confidence: "high",
      evidence: { source: "shopify", rule: "Shopify product JSON product.variants[1] named by ?variant=22", snippet: "product.variants[1]: 500g" },
    });
  });

  it("reads Shopify's product JSON on a page whose address is not a URL, at low confidence for want of a currency", () => {
    const html = `<script type="application/json" data-product-json>${JSON.stringify({ product: { variants: [{ id: 11, price: 399, available: true, title: "100g" }] } })}</script>`;
    expect(extractOffer(html, "not a url")).toMatchObject({ price: 399, currency: null, source: "shopify", confidence: "low", evidence: { rule: "Shopify product JSON; the page names no currency", snippet: "product.variants[0]: 100g" } });
  });
});

describe("framework state", () => {
  const state = { props: { pageProps: { baseProduct: { products: [{ id: "7128260", name: "Fish  2kg ", price: { base: 25.99 }, isInStock: true }, { id: "7128261", name: "Fish 4kg", price: { base: 45.99 }, isInStock: true }] } } } };
  const html = `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(state)}</script>`;
  const at = (id: string) => `https://www.petsathome.com/product/${id}`;

  it("takes the product named as the h1, ignoring case and spacing, and says so", () => {
    expect(extractOffer(`${html}<h1> fish 2KG </h1>`, at("fish"))).toMatchObject({
      price: 2599,
      source: "next-data",
      confidence: "low",
      evidence: { rule: "product in the page's state named as the h1; the page names no currency", snippet: "next-data.props.pageProps.baseProduct.products[0]: Fish  2kg " },
    });
  });

  it("matches a product by name to the h1 only, never to the title", () => {
    expect(readOffer(`${html}<title>Fish 2kg</title>`, at("fish")).status).toBe("none");
  });

  it("ties no product in the state to a page whose address is not a URL", () => {
    const one = { props: { pageProps: { baseProduct: { products: [{ id: "7128260", name: "Fish 2kg", price: { base: 25.99 }, isInStock: true }] } } } };
    expect(readOffer(`<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(one)}</script>`, "not a url").status).toBe("none");
  });

  it("matches an id the URL term extends by one or two letters only", () => {
    expect(extractOffer(html, at("7128260PP"))).toMatchObject({ price: 2599, evidence: { rule: "product in the page's state whose id is in the page URL; the page names no currency" } });
    expect(readOffer(html, at("71282601P")).status).toBe("none");
    expect(readOffer(html, at("7128260P1")).status).toBe("none");
  });
});

describe("how many offers are read", () => {
  const url = "https://shop.example.com/p/kibble";
  const many = (extra: object = {}) => [...Array.from({ length: 200 }, () => offer("14", extra)), offer("27.5", extra)];

  it("reads a product's first 200 variants", () => {
    const html = ld({ "@type": "ProductGroup", name: "Kibble", hasVariant: many().map((variantOffer) => ({ "@type": "Product", offers: variantOffer })) });
    expect(extractOffer(html, url)).toMatchObject({ price: 1400, evidence: { rule: expect.stringMatching(/ json-ld\[0\], all 200 offers at one price$/) } });
  });

  it("reads an AggregateOffer's first 200 offers", () => {
    const html = ld({ "@type": "Product", offers: { "@type": "AggregateOffer", priceCurrency: "GBP", offers: many() } });
    expect(extractOffer(html, url)).toMatchObject({ price: 1400, evidence: { rule: "Product json-ld[0], all 201 offers at one price" } });
  });

  it("reads the first 200 offers an Offer with no price of its own lists", () => {
    const html = ld({ "@type": "Product", offers: { "@type": "Offer", offers: many() } });
    expect(extractOffer(html, url)).toMatchObject({ price: 1400, evidence: { rule: "Product json-ld[0], all 200 offers at one price" } });
  });
});

describe("a retailer's price element", () => {
  it("quotes the element's text with its white space collapsed and trimmed", () => {
    expect(extractOffer('<span id="priceblock_ourprice">\n  £\n   9.99 \n</span>', "https://www.amazon.co.uk/dp/B01")).toMatchObject({
      price: 999,
      source: "retailer:amazon.co.uk",
      evidence: { rule: "the retailer's price element (registry hint)", snippet: "id=priceblock_ourprice: £ 9.99" },
    });
  });
});
