import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractOffer, readAvailability, readOffer, type ExtractedOffer } from "./offer-extract.ts";

const pagesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "pages");
const page = (file: string) => fs.readFileSync(path.join(pagesDir, file), "utf8");

/** Every fixture page, the address it stands for, and the one offer it must give. */
/** The fields every reading is compared on; evidence and confidence are checked in their own tests. */
type OfferFields = Pick<ExtractedOffer, "price" | "currency" | "inStock" | "source">;
const fields = (offer: ExtractedOffer | null): OfferFields | null => (offer === null ? null : { price: offer.price, currency: offer.currency, inStock: offer.inStock, source: offer.source });

const fixturePages: { file: string; url: string; offer: OfferFields | null }[] = [
  {
    file: "amazon-core-price.html",
    url: "https://www.amazon.co.uk/Lilys-Kitchen-Natural-Adult-Chicken/dp/B07D6R8F5K",
    offer: { price: 2249, currency: "GBP", inStock: true, source: "retailer:amazon.co.uk" },
  },
  {
    file: "amazon-apex-rrp.html",
    url: "https://www.amazon.co.uk/KONG-Classic-Dog-Toy-Large/dp/B0002AR0I8",
    offer: { price: 1187, currency: "GBP", inStock: true, source: "retailer:amazon.co.uk" },
  },
  {
    file: "amazon-priceblock-unavailable.html",
    url: "https://www.amazon.co.uk/dp/B00BL5Z8E6",
    offer: { price: 1045, currency: "GBP", inStock: false, source: "retailer:amazon.co.uk" },
  },
  {
    file: "petsathome-jsonld.html",
    url: "https://www.petsathome.com/product/burns-original-adult-dog-food-chicken-and-rice/7105588P",
    // Four pack sizes, none named by the URL, the h1 or a buy button: undecided, no guess.
    offer: null,
  },
  {
    file: "zooplus-co-uk.html",
    url: "https://www.zooplus.co.uk/shop/dogs/dry_dog_food/royal_canin/medium/39318",
    offer: { price: 5499, currency: "GBP", inStock: true, source: "retailer:zooplus.co.uk" },
  },
  {
    file: "zooplus-de-eur.html",
    url: "https://www.zooplus.de/shop/hunde/hundefutter_trockenfutter/royal_canin/medium/39318",
    offer: { price: 6499, currency: "EUR", inStock: null, source: "retailer:zooplus.de" },
  },
  { file: "zooplus-category.html", url: "https://www.zooplus.co.uk/shop/dogs/dry_dog_food", offer: null },
  {
    file: "jollyes-magento.html",
    url: "https://www.jollyes.co.uk/pedigree-dentastix-large-28.html",
    offer: { price: 949, currency: "GBP", inStock: null, source: "magento" },
  },
  {
    file: "ebay-listing.html",
    url: "https://www.ebay.co.uk/itm/256123456789",
    offer: { price: 1595, currency: "GBP", inStock: true, source: "retailer:ebay.co.uk" },
  },
  {
    file: "viovet-microdata-itemref.html",
    url: "https://www.viovet.co.uk/Seraquin_for_Dogs_and_Cats/c31468/",
    offer: { price: 3150, currency: "GBP", inStock: true, source: "microdata" },
  },
  {
    file: "fetch-price-specification.html",
    url: "https://www.fetch.co.uk/cat/health/feliway-optimum-diffuser-starter-kit",
    offer: { price: 3654, currency: "GBP", inStock: true, source: "json-ld" },
  },
  {
    file: "shopify-product-group.html",
    url: "https://www.barkandco.co.uk/products/salmon-training-treats?variant=41234567890103",
    offer: { price: 1725, currency: "GBP", inStock: true, source: "json-ld" },
  },
  {
    file: "magento-microdata.html",
    url: "https://www.thepetstorehouse.com/trixie-natura-scratching-post-62cm.html",
    offer: { price: 1899, currency: "GBP", inStock: true, source: "microdata" },
  },
  {
    file: "woocommerce-graph.html",
    url: "https://burrowandbloom.co.uk/product/natural-woven-hay-bed/",
    offer: { price: 1450, currency: "GBP", inStock: true, source: "json-ld" },
  },
  {
    file: "rdfa-product.html",
    url: "https://www.kennelcomforts.com/beds/orthopaedic-memory-foam-large",
    offer: { price: 2375, currency: "GBP", inStock: true, source: "rdfa" },
  },
  {
    file: "meta-tags-only.html",
    url: "https://shop.happyhoundbakery.com/pupcakes-peanut-butter",
    offer: { price: 799, currency: "GBP", inStock: true, source: "meta" },
  },
  {
    file: "out-of-stock.html",
    url: "https://www.petplanet.co.uk/p/clean-cage-odour-eliminator-500ml",
    offer: { price: 479, currency: "GBP", inStock: false, source: "json-ld" },
  },
  {
    file: "non-gbp-usd.html",
    url: "https://www.pawsmart.com/p/greenies-original-regular-27oz",
    offer: { price: 3498, currency: "USD", inStock: true, source: "json-ld" },
  },
  { file: "not-found-404.html", url: "https://www.petsathome.com/product/discontinued-thing/7100000P", offer: null },
  {
    file: "broken-json-ld.html",
    url: "https://www.canineandco.co.uk/whimzees-toothbrush-large-30",
    offer: { price: 2199, currency: "GBP", inStock: true, source: "json-ld" },
  },
  {
    file: "decoy-prices.html",
    url: "https://www.petplanet.co.uk/p/arden-grange-adult-lamb-rice-2kg",
    offer: { price: 1499, currency: "GBP", inStock: true, source: "retailer:petplanet.co.uk" },
  },
  {
    file: "aggregate-offer.html",
    url: "https://www.dogoutfitters.co.uk/ruffwear-front-range-harness",
    offer: { price: 4495, currency: "GBP", inStock: true, source: "json-ld" },
  },
  {
    file: "offer-without-product.html",
    url: "https://www.saddleandstable.co.uk/cortaflex-ha-super-fenn-908g",
    offer: { price: 6200, currency: "GBP", inStock: false, source: "json-ld" },
  },
];

describe("extractOffer on fixture pages", () => {
  it("has a test for every fixture page, and at least twenty", () => {
    const files = fs.readdirSync(pagesDir).filter((file) => file.endsWith(".html"));
    expect(fixturePages.map((fixture) => fixture.file).sort()).toEqual(files.sort());
    expect(files.length).toBeGreaterThanOrEqual(20);
  });
  it.each(fixturePages)("$file", ({ file, url, offer }) => {
    expect(fields(extractOffer(page(file), url))).toEqual(offer);
  });
});

describe("a Shopify product group", () => {
  const html = page("shopify-product-group.html");
  const productUrl = "https://www.barkandco.co.uk/products/salmon-training-treats";
  it("gives the variant the page URL names, even out of stock", () => {
    expect(fields(extractOffer(html, `${productUrl}?variant=41234567890101`))).toEqual({ price: 399, currency: "GBP", inStock: false, source: "json-ld" });
    expect(fields(extractOffer(html, `${productUrl}?variant=41234567890102`))).toEqual({ price: 650, currency: "GBP", inStock: true, source: "json-ld" });
  });
  it("with no variant named, takes the variant whose price the page's meta tag gives", () => {
    for (const url of [productUrl, `${productUrl}?variant=999`]) {
      expect(extractOffer(html, url)).toMatchObject({
        price: 399,
        confidence: "medium",
        evidence: { rule: expect.stringContaining("hasvariant[0] offers matched by meta: product meta tag og:price:amount") },
      });
    }
  });
  it("matches a variant by its SKU in the URL", () => {
    expect(extractOffer(html, `${productUrl}?sku=ST-3X200`)?.price).toBe(1725);
  });
});

/** A page with the given JSON-LD blocks in its head. */
function jsonLdPage(...blocks: unknown[]): string {
  const scripts = blocks.map((block) => `<script type="application/ld+json">${typeof block === "string" ? block : JSON.stringify(block)}</script>`);
  return `<!doctype html><html><head><title>Test</title>${scripts.join("\n")}</head><body><h1>Test product</h1></body></html>`;
}
const shopUrl = "https://www.example-pets.co.uk/p/test";
const product = (offers: unknown, extra: object = {}) => ({ "@context": "https://schema.org", "@type": "Product", name: "Test", offers, ...extra });
const offer = (price: unknown, currency: string | undefined, availability?: string) => ({ "@type": "Offer", price, priceCurrency: currency, availability });

describe("JSON-LD", () => {
  it("prefers the offer in pounds to offers in other currencies", () => {
    const read = (...offers: unknown[]) => extractOffer(jsonLdPage(product(offers)), shopUrl);
    expect(read(offer("9.00", "EUR", "InStock"), offer("12.00", "GBP", "InStock"))).toMatchObject({ price: 1200, currency: "GBP", inStock: true });
    expect(read(offer("9.00", "EUR", "InStock"), offer("12.00", "GBP", "OutOfStock"), offer("12.00", "GBP", "InStock"))).toMatchObject({ price: 1200, inStock: true });
  });
  it("does not guess among offers at different prices that nothing on the page picks", () => {
    const html = jsonLdPage(product([offer("12.00", "GBP", "InStock"), offer("10.00", "GBP", "OutOfStock")]));
    expect(extractOffer(html, shopUrl)).toBeNull();
    expect(readOffer(html, shopUrl)).toEqual({
      status: "undecided",
      source: "json-ld",
      reason: expect.stringContaining("2 offers at 2 different prices and nothing on the page picks one"),
      candidates: [
        { price: 1200, currency: "GBP", inStock: true, label: expect.stringContaining("offers[0]") },
        { price: 1000, currency: "GBP", inStock: false, label: expect.stringContaining("offers[1]") },
      ],
    });
  });
  it("reads the offer under any casing of its key", () => {
    for (const key of ["offers", "Offers", "offer", "schema:offers"]) {
      expect(extractOffer(jsonLdPage({ "@type": "Product", [key]: offer("5.00", "GBP") }), shopUrl)?.price).toBe(500);
    }
  });
  it("reads @type as a list and with the schema.org prefix", () => {
    for (const type of [["Product", "Thing"], "http://schema.org/Product", "https://schema.org/Product", "schema:Product", ["Thing", "IndividualProduct"]]) {
      expect(extractOffer(jsonLdPage({ "@type": type, offers: offer("5.00", "GBP") }), shopUrl)?.price).toBe(500);
    }
  });
  it("reads a price given as a number, with three decimals, or as text with a sign", () => {
    expect(extractOffer(jsonLdPage(product(offer(12.99, "GBP"))), shopUrl)?.price).toBe(1299);
    expect(extractOffer(jsonLdPage(product(offer("12.990", "GBP"))), shopUrl)?.price).toBe(1299);
    expect(extractOffer(jsonLdPage(product(offer("1299.00", "GBP"))), shopUrl)?.price).toBe(129900);
    expect(extractOffer(jsonLdPage(product({ "@type": "Offer", price: "£12.99" })), "https://www.example-pets.com/p/1")).toMatchObject({ price: 1299, currency: "GBP" });
    expect(extractOffer(jsonLdPage(product({ "@type": "Offer", price: { "@value": "4.20" }, priceCurrency: "GBP" })), shopUrl)?.price).toBe(420);
  });
  it("takes an AggregateOffer's lowPrice, or its lowest offer when it has no lowPrice", () => {
    const aggregate = { "@type": "AggregateOffer", lowPrice: "5.29", highPrice: "9.56", priceCurrency: "GBP" };
    expect(extractOffer(jsonLdPage(product(aggregate)), shopUrl)?.price).toBe(529);
    const nested = { "@type": "AggregateOffer", offers: [offer("9.56", "GBP"), offer("5.29", "GBP")] };
    expect(extractOffer(jsonLdPage(product(nested)), shopUrl)?.price).toBe(529);
  });
  it("takes the sale price of a priceSpecification, not the list, unit or delivery price", () => {
    const specified = (...specifications: object[]) => extractOffer(jsonLdPage(product({ "@type": "Offer", priceSpecification: specifications })), shopUrl);
    expect(
      specified(
        { "@type": "UnitPriceSpecification", priceType: "https://schema.org/StrikethroughPrice", price: "20.00", priceCurrency: "GBP" },
        { "@type": "DeliveryChargeSpecification", price: "3.99", priceCurrency: "GBP" },
        { "@type": "UnitPriceSpecification", price: "16.00", priceCurrency: "GBP" },
      ),
    ).toMatchObject({ price: 1600, currency: "GBP" });
    const compound = { "@type": "CompoundPriceSpecification", price: "18.50", priceCurrency: "EUR", priceComponent: [{ "@type": "UnitPriceSpecification", price: "17.00" }] };
    expect(specified(compound)).toMatchObject({ price: 1850, currency: "EUR" });
    const componentsOnly = { "@type": "CompoundPriceSpecification", priceComponent: [{ "@type": "UnitPriceSpecification", priceType: "ListPrice", price: "30.00" }, { "@type": "UnitPriceSpecification", price: "25.00", priceCurrency: "GBP" }] };
    expect(specified(componentsOnly)).toMatchObject({ price: 2500, currency: "GBP" });
  });
  it("prefers the offer's own price to its priceSpecification", () => {
    const page = jsonLdPage(product({ "@type": "Offer", price: "9.00", priceCurrency: "GBP", priceSpecification: { "@type": "UnitPriceSpecification", price: "11.00" } }));
    expect(extractOffer(page, shopUrl)?.price).toBe(900);
  });
  it("ignores products in a related-items ItemList, and Products nested as related items", () => {
    const related = { "@type": "ItemList", itemListElement: [{ "@type": "ListItem", item: product(offer("1.00", "GBP")) }] };
    const main = product(offer("10.00", "GBP"), { isRelatedTo: product(offer("2.00", "GBP")), isSimilarTo: [product(offer("3.00", "GBP"))] });
    expect(extractOffer(jsonLdPage(related, main), shopUrl)?.price).toBe(1000);
    expect(extractOffer(jsonLdPage(related), shopUrl)).toBeNull();
  });
  it("takes the product whose URL is the page's over one listed earlier", () => {
    const other = product(offer("3.00", "GBP"), { url: "https://www.example-pets.co.uk/p/other" });
    const own = product(offer("30.00", "GBP"), { url: "/p/test/" });
    expect(extractOffer(jsonLdPage(other, own), shopUrl)?.price).toBe(3000);
    expect(extractOffer(jsonLdPage(other, own), "https://www.example-pets.co.uk/p/elsewhere")?.price).toBe(300);
    expect(extractOffer(jsonLdPage(other, own), `${shopUrl}?utm_source=mail#top`)?.price).toBe(3000);
  });
  it("follows a WebPage's mainEntity reference in a @graph", () => {
    const graph = {
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "WebPage", "@id": "https://www.example-pets.co.uk/p/test", mainEntity: { "@id": "#item" } },
        { "@type": "Thing", "@id": "#item", name: "x" },
        { "@type": "Offer", "@id": "#offer", price: "4.00", priceCurrency: "GBP" },
        { "@type": "Product", "@id": "#product", offers: { "@id": "#offer" } },
      ],
    };
    expect(extractOffer(jsonLdPage(graph), shopUrl)).toMatchObject({ price: 400, source: "json-ld" });
  });
  it("reads the page's product where it stands in full, not where it is only referred to", () => {
    const graph = {
      "@graph": [
        { "@type": "WebPage", "@id": "https://www.example-pets.co.uk/p/test", mainEntity: { "@id": "#product" } },
        { "@type": "Product", "@id": "#product", offers: { "@id": "#offer" } },
        { "@type": "Offer", "@id": "#offer", price: "4.00", priceCurrency: "GBP" },
      ],
    };
    const related = product(offer("1.00", "GBP"), { url: "https://www.example-pets.co.uk/p/other" });
    expect(extractOffer(jsonLdPage(graph, related), shopUrl)?.price).toBe(400);
  });
  it("gives no price when the page's own product has none, whatever other products cost", () => {
    const own = { "@type": "Product", url: shopUrl, aggregateRating: { ratingValue: 5 } };
    expect(extractOffer(jsonLdPage(product(offer("1.00", "GBP")), own), shopUrl)).toBeNull();
  });
  it("reads a product nested as a page's mainEntity", () => {
    const page = { "@type": "ItemPage", mainEntity: product(offer("6.50", "GBP", "https://schema.org/InStock")) };
    expect(fields(extractOffer(jsonLdPage(page), shopUrl))).toEqual({ price: 650, currency: "GBP", inStock: true, source: "json-ld" });
  });
  it("reads a lone Offer or AggregateOffer, and the offers of an item that is no product when the page has no product", () => {
    expect(extractOffer(jsonLdPage({ "@type": "AggregateOffer", lowPrice: "3.10", highPrice: "9.00" }), shopUrl)?.price).toBe(310);
    expect(extractOffer(jsonLdPage({ "@type": "Event", name: "Dog show", offers: offer("15.00", "GBP") }), shopUrl)).toMatchObject({ price: 1500, evidence: { rule: expect.stringMatching(/^Event /) } });
    const withProduct = jsonLdPage({ "@type": "Event", offers: offer("15.00", "GBP") }, { "@type": "Product", offers: offer("4.00", "GBP") });
    expect(extractOffer(withProduct, shopUrl)?.price).toBe(400);
  });
  it("reads a product that carries its price itself, with no offers: its price, else its lowPrice as a 'from' price", () => {
    const priced = { "@type": "Product", name: "Bed", price: "24.99", priceCurrency: "GBP", availability: "https://schema.org/InStock" };
    expect(fields(extractOffer(jsonLdPage(priced), shopUrl))).toEqual({ price: 2499, currency: "GBP", inStock: true, source: "json-ld" });
    const from = { "@type": "Product", name: "Bed", lowPrice: "19.99", highPrice: "34.99", priceCurrency: "GBP" };
    expect(extractOffer(jsonLdPage(from), shopUrl)).toMatchObject({ price: 1999, currency: "GBP" });
    // Both given: the product's own price, not the low end of a range.
    expect(extractOffer(jsonLdPage({ ...from, price: "24.99" }), shopUrl)?.price).toBe(2499);
    // A range's high end alone is no price to compare.
    expect(extractOffer(jsonLdPage({ "@type": "Product", highPrice: "34.99", priceCurrency: "GBP" }), shopUrl)).toBeNull();
  });
  it("takes a product group's own offer when its variants carry no price", () => {
    const group = { "@type": "ProductGroup", hasVariant: [{ "@type": "Product", sku: "A" }], offers: offer("12.00", "GBP") };
    expect(extractOffer(jsonLdPage(group), shopUrl)?.price).toBe(1200);
  });
  it("matches a variant by its url, by a SKU anywhere in the path, and never by an empty SKU", () => {
    const variant = (price: string, fields: object) => ({ "@type": "Product", offers: offer(price, "GBP"), ...fields });
    const group = (...variants: object[]) => jsonLdPage({ "@type": "ProductGroup", hasVariant: variants });
    const byUrl = group(variant("5.00", { url: "https://www.example-pets.co.uk/p/test?v=1" }), variant("9.00", { url: "/p/test/?v=2" }));
    expect(extractOffer(byUrl, "https://www.example-pets.co.uk/p/test?v=2#reviews")?.price).toBe(900);
    const bySku = group(variant("5.00", { sku: "SMALL-1" }), variant("9.00", { sku: "LARGE-2" }), variant("7.00", { sku: "" }));
    expect(extractOffer(bySku, "https://www.example-pets.co.uk/p/LARGE-2/test")?.price).toBe(900);
    // No variant named: no guess.
    expect(readOffer(bySku, "https://www.example-pets.co.uk/p/test").status).toBe("undecided");
    const badUrl = group(variant("5.00", { url: "http://[broken" }), variant("4.00", {}));
    expect(readOffer(badUrl, shopUrl).status).toBe("undecided");
  });
  it("matches nothing by URL when the page address is not a URL", () => {
    const unnamed = product(offer("1.00", "GBP"));
    const named = product(offer("2.00", "GBP"), { url: "https://www.example-pets.co.uk/p/test" });
    expect(extractOffer(jsonLdPage(unnamed, named), "not a url")?.price).toBe(100);
    const variants = { "@type": "ProductGroup", hasVariant: [{ "@id": "#one", "@type": "Product", offers: offer("9.00", "GBP") }, { "@id": "#two", "@type": "Product", offers: offer("5.00", "GBP") }] };
    expect(readOffer(jsonLdPage(variants), "not a url").status).toBe("undecided");
  });
  it("gives no price for an offer whose price is words, and skips payment charges", () => {
    expect(extractOffer(jsonLdPage(product({ "@type": "Offer", price: "Call for price" })), shopUrl)).toBeNull();
    const charges = { "@type": "Offer", priceSpecification: [{ "@type": "PaymentChargeSpecification", price: "0.50" }, { price: "5.00" }] };
    expect(extractOffer(jsonLdPage(product(charges)), shopUrl)?.price).toBe(500);
  });
  it("moves past a compound specification that holds no usable price", () => {
    const compound = { "@type": "CompoundPriceSpecification", priceComponent: [{ "@type": "UnitPriceSpecification", priceType: "ListPrice", price: "30.00" }] };
    const page = jsonLdPage(product({ "@type": "Offer", priceSpecification: [compound, { "@type": "UnitPriceSpecification", price: "25.00" }] }));
    expect(extractOffer(page, shopUrl)?.price).toBe(2500);
  });
  it("reads availability given as an address, and ignores values of the wrong shape", () => {
    expect(extractOffer(jsonLdPage(product({ ...offer("5.00", "GBP"), availability: { "@id": "https://schema.org/OutOfStock" } })), shopUrl)?.inStock).toBe(false);
    expect(extractOffer(jsonLdPage(product({ ...offer("5.00", "GBP"), availability: { "@type": "Thing", name: "InStock" } })), shopUrl)?.inStock).toBeNull();
    expect(extractOffer(jsonLdPage(product("see below", { hasVariant: "none" })), shopUrl)).toBeNull();
    expect(extractOffer(jsonLdPage(product([null, true, offer("5.00", "GBP")])), shopUrl)?.price).toBe(500);
  });
  it("reads only application/ld+json scripts", () => {
    const html = `<script type="application/json">${JSON.stringify(product(offer("3.00", "GBP")))}</script><script>${JSON.stringify(product(offer("4.00", "GBP")))}</script>`;
    expect(extractOffer(html, shopUrl)).toBeNull();
  });
  it("follows a reference to the node that holds the content, not to a bare mention of it", () => {
    const graph = { "@graph": [{ "@type": "Product", offers: { "@id": "#offer" } }, { "@id": "#offer", "@type": "Offer", price: "2.75" }, { "@id": "#offer" }] };
    expect(extractOffer(jsonLdPage(graph), shopUrl)?.price).toBe(275);
  });
  it("survives reference cycles", () => {
    const graph = { "@graph": [{ "@type": "Product", "@id": "#a", offers: { "@id": "#b" } }, { "@type": "Offer", "@id": "#b", price: "2.00", itemOffered: { "@id": "#a" } }] };
    expect(extractOffer(jsonLdPage(graph), shopUrl)?.price).toBe(200);
  });
  it("repairs trailing commas, comment and CDATA wrappers, and skips a block it cannot repair", () => {
    const good = '{"@type":"Product","offers":{"@type":"Offer","price":"8.00","priceCurrency":"GBP",},}';
    expect(extractOffer(jsonLdPage('{"@type":"Product","offers":{"price":"1.00"', good), shopUrl)?.price).toBe(800);
    expect(extractOffer(jsonLdPage(`/*<![CDATA[*/${good}/*]]>*/`), shopUrl)?.price).toBe(800);
    expect(extractOffer(jsonLdPage(`/* <![CDATA[ */ ${good} /* ]]> */`), shopUrl)?.price).toBe(800);
    expect(extractOffer(jsonLdPage(`// <![CDATA[\n${good}\n// ]]>`), shopUrl)?.price).toBe(800);
    expect(extractOffer(jsonLdPage(`<![CDATA[${good}]]>`), shopUrl)?.price).toBe(800);
    expect(extractOffer(jsonLdPage(`<!-- ${good} -->`), shopUrl)?.price).toBe(800);
    expect(extractOffer(jsonLdPage("not json at all", "null", "[]", "42"), shopUrl)).toBeNull();
  });
  it("reads a block whose type attribute has odd casing or parameters", () => {
    const html = `<script type=" Application/LD+JSON; charset=utf-8">${JSON.stringify(product(offer("3.00", "GBP")))}</script>`;
    expect(extractOffer(html, shopUrl)?.price).toBe(300);
  });
  it("falls through to the next source when JSON-LD carries no price", () => {
    const html = `${jsonLdPage(product(undefined, { aggregateRating: { ratingValue: 5 } }))}<meta property="og:price:amount" content="6.00">`;
    expect(fields(extractOffer(html, shopUrl))).toEqual({ price: 600, currency: "GBP", inStock: null, source: "meta" });
  });
});

describe("microdata", () => {
  it("reads price from text when there is no content attribute, and availability from content", () => {
    const html = `<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Toy</span>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">£4.50</span>
      <meta itemprop="availability" content="https://schema.org/OutOfStock"></div></div>`;
    expect(fields(extractOffer(html, "https://shop.example.com/toy"))).toEqual({ price: 450, currency: "GBP", inStock: false, source: "microdata" });
  });
  it("does not let a nested related product's price win over the product's own", () => {
    const html = `<div itemscope itemtype="http://schema.org/Product">
      <div itemprop="isRelatedTo" itemscope itemtype="http://schema.org/Product"><span itemprop="price" content="1.00"></span></div>
      <span itemprop="price" content="10.00"></span><meta itemprop="priceCurrency" content="GBP"></div>`;
    expect(extractOffer(html, "https://shop.example.com/p")).toMatchObject({ price: 1000, source: "microdata" });
  });
  it("skips a Product with no price for the next one, and reads a lone Offer", () => {
    const html = `<div itemscope itemtype="http://schema.org/Product"><span itemprop="name">Rated</span></div>
      <div itemscope itemtype="http://schema.org/Product"><div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><meta itemprop="price" content="2.50"></div></div>`;
    expect(extractOffer(html, shopUrl)?.price).toBe(250);
    const lone = `<div itemscope itemtype="http://schema.org/Offer"><meta itemprop="price" content="3.50"><meta itemprop="priceCurrency" content="EUR"></div>`;
    expect(extractOffer(lone, shopUrl)).toMatchObject({ price: 350, currency: "EUR" });
  });
});

describe("microdata scopes", () => {
  const productScope = (inner: string, attributes = "") => `<div itemscope itemtype="https://schema.org/Product" ${attributes}>${inner}</div>`;
  const offerScope = (price: string) => `<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="${price}"><meta itemprop="priceCurrency" content="GBP"></div>`;
  it("never takes a product nested inside the page's product, with or without itemprop", () => {
    expect(extractOffer(productScope(`<span itemprop="name">Main</span><div itemprop="isRelatedTo" itemscope itemtype="https://schema.org/Product">${offerScope("1.00")}</div>`), shopUrl)).toBeNull();
    const tile = productScope(`<span itemprop="name">Main</span><div class="tile">${productScope(offerScope("1.00"))}</div>`, 'itemtype="https://schema.org/Product https://schema.org/Thing"');
    expect(extractOffer(`<body itemscope itemtype="https://schema.org/WebPage">${tile}</body>`, shopUrl)).toBeNull();
  });
  it("never takes a product that is another item's property other than mainEntity", () => {
    const html = `<body itemscope itemtype="https://schema.org/WebPage"><div itemprop="mentions" itemscope itemtype="https://schema.org/Product">${offerScope("1.00")}</div></body>`;
    expect(extractOffer(html, shopUrl)).toBeNull();
  });
  it("reads a product that is a WebPage's mainEntity, or an itemprop scope inside no item", () => {
    const inPage = `<body itemscope itemtype="https://schema.org/WebPage"><div itemprop="mainEntity" itemscope itemtype="https://schema.org/Product">${offerScope("4.00")}</div></body>`;
    expect(extractOffer(inPage, shopUrl)?.price).toBe(400);
    const inPageNoProp = `<body itemscope itemtype="https://schema.org/WebPage"><h1 itemprop="name">Page</h1>${productScope(offerScope("4.50"))}</body>`;
    expect(extractOffer(inPageNoProp, shopUrl)?.price).toBe(450);
    const orphan = `<main><div itemprop="mainEntity" itemscope itemtype="https://schema.org/Product">${offerScope("5.00")}</div></main>`;
    expect(extractOffer(orphan, shopUrl)?.price).toBe(500);
  });
  it("takes the product whose itemid is the page's", () => {
    const html = productScope(offerScope("1.00")) + productScope(offerScope("2.00"), 'itemid="https://www.example-pets.co.uk/p/test"');
    expect(extractOffer(html, shopUrl)?.price).toBe(200);
  });
  it("follows itemref, survives an itemref cycle and a missing id", () => {
    const html = `${productScope("", 'itemref="missing offer"')}<div id="offer">${offerScope("6.00")}<div id="loop" itemprop="isRelatedTo" itemscope itemtype="https://schema.org/Product" itemref="loop"></div></div>`;
    expect(extractOffer(html, shopUrl)?.price).toBe(600);
  });
  it("reads href of <a> and <link>, value of <data>, and text elsewhere", () => {
    const offerWith = (inner: string) => fields(extractOffer(productScope(`<div itemprop="offers" itemscope itemtype="https://schema.org/Offer">${inner}</div>`), shopUrl));
    expect(offerWith('<data itemprop="price" value="7.25">£7 and a quarter</data><a itemprop="availability" href="https://schema.org/InStock">Check stores</a>')).toEqual({
      price: 725,
      currency: "GBP",
      inStock: true,
      source: "microdata",
    });
    expect(offerWith('<data itemprop="price">£3.00</data><link itemprop="availability" href="https://schema.org/SoldOut">')).toMatchObject({ price: 300, inStock: false });
    expect(offerWith('<span itemprop="price" value="1.00">£2.00</span><span itemprop="availability" href="https://schema.org/InStock">Sold out</span>')).toMatchObject({
      price: 200,
      inStock: false,
    });
  });
});

describe("RDFa", () => {
  it("reads price and currency from property attributes with and without the schema: prefix", () => {
    const html = `<div vocab="http://schema.org/" typeof="Product"><div property="offers" typeof="Offer">
      <span property="price" content="12.00">£12</span><span property="schema:priceCurrency" content="GBP"></span>
      <span property="availability" resource="http://schema.org/InStoreOnly"></span></div></div>`;
    expect(fields(extractOffer(html, "https://shop.example.com/p"))).toEqual({ price: 1200, currency: "GBP", inStock: false, source: "rdfa" });
  });
  it("takes the product whose about or resource is the page's", () => {
    const item = (price: string, attributes: string) => `<div vocab="https://schema.org/" typeof="Product" ${attributes}><span property="offers" typeof="Offer"><span property="price" content="${price}"></span></span></div>`;
    expect(extractOffer(item("1.00", "") + item("2.00", 'about="/p/test"'), shopUrl)?.price).toBe(200);
    expect(extractOffer(item("1.00", "") + item("3.00", 'resource="/p/test"'), shopUrl)?.price).toBe(300);
  });
});

describe("meta tags", () => {
  const meta = (tags: Record<string, string>) => Object.entries(tags).map(([property, content]) => `<meta property="${property}" content="${content}">`).join("");
  it("prefers the sale price and reads og: tags and availability words", () => {
    expect(extractOffer(meta({ "product:price:amount": "10.00", "product:sale_price:amount": "8.00", "product:price:currency": "GBP" }), shopUrl)?.price).toBe(800);
    expect(fields(extractOffer(meta({ "og:price:amount": "10.00", "og:price:currency": "EUR", "og:availability": "oos" }), shopUrl))).toEqual({ price: 1000, currency: "EUR", inStock: false, source: "meta" });
    expect(fields(extractOffer(`<meta name="product:price:amount" content="5"><meta name="product:availability" content="in stock">`, shopUrl))).toEqual({ price: 500, currency: "GBP", inStock: true, source: "meta" });
  });
  it("takes a sale or og: price's currency from the other price tags when it has none of its own", () => {
    expect(extractOffer(meta({ "product:sale_price:amount": "8.00", "product:price:currency": "EUR" }), shopUrl)?.currency).toBe("EUR");
    expect(extractOffer(meta({ "product:price:amount": "8.00", "og:price:currency": "USD" }), shopUrl)?.currency).toBe("USD");
  });
  it("reads the first of repeated tags, passing over one without content", () => {
    const html = '<meta property="product:price:amount"><meta property="product:price:amount" content="5.00"><meta property="product:price:amount" content="6.00">';
    expect(extractOffer(html, shopUrl)?.price).toBe(500);
  });
});

describe("currency", () => {
  const noCurrency = '<meta property="product:price:amount" content="9.99">';
  it("assumes GBP only for a .uk host or a page that shows a pound sign", () => {
    expect(extractOffer(noCurrency, "https://shop.example.co.uk/p")?.currency).toBe("GBP");
    expect(extractOffer(noCurrency, "https://www.example.org.uk/p")?.currency).toBe("GBP");
    expect(extractOffer(`${noCurrency}<p>Only £9.99</p>`, "https://shop.example.com/p")?.currency).toBe("GBP");
    // Otherwise the price is reported with an unknown currency, at low confidence.
    const unknown = { price: 999, currency: null, confidence: "low", evidence: { rule: expect.stringContaining("the page names no currency") } };
    expect(extractOffer(noCurrency, "https://shop.example.com/p")).toMatchObject(unknown);
    expect(extractOffer(`${noCurrency}<script>var x = "£"</script>`, "https://shop.example.com/p")).toMatchObject(unknown);
    expect(extractOffer(noCurrency, "not a url")).toMatchObject(unknown);
    expect(extractOffer(`${noCurrency}<p>Only 9.99 today</p>`, "https://shop.example.com/p")).toMatchObject(unknown);
  });
  it("reports the currency the page names, even on a .uk host", () => {
    const html = '<meta property="product:price:amount" content="9.99"><meta property="product:price:currency" content="eur">';
    expect(extractOffer(html, "https://shop.example.co.uk/p")?.currency).toBe("EUR");
  });
});

describe("retailer fallbacks", () => {
  const retailerPages: { url: string; html: string; price: number; currency: string; inStock: boolean | null; source: string }[] = [
    {
      url: "https://smile.amazon.co.uk/dp/B01",
      html: '<span id="priceblock_dealprice">£7.00</span><div id="availability">Currently unavailable.</div>',
      price: 700,
      currency: "GBP",
      inStock: false,
      source: "retailer:amazon.co.uk",
    },
    {
      url: "https://www.ebay.co.uk/itm/1",
      html: '<span id="prcIsum">£3.20</span><div class="d-statusmessage">This listing has ended.</div>',
      price: 320,
      currency: "GBP",
      inStock: false,
      source: "retailer:ebay.co.uk",
    },
    {
      url: "https://www.ebay.co.uk/itm/2",
      html: '<span id="mm-saleDscPrc">GBP 5.00</span>',
      price: 500,
      currency: "GBP",
      inStock: null,
      source: "retailer:ebay.co.uk",
    },
    {
      url: "https://www.viovet.co.uk/p/1",
      html: '<div id="product-purchase"><span class="product-price"><s>£9.00</s> £8.10</span><span class="stock-status">Out of stock</span></div>',
      price: 810,
      currency: "GBP",
      inStock: false,
      source: "retailer:viovet.co.uk",
    },
    {
      url: "https://www.fetch.co.uk/dog/x",
      html: '<div class="product-detail"><span class="price--current">£4.25</span><span class="stock-level">Last one</span></div>',
      price: 425,
      currency: "GBP",
      inStock: true,
      source: "retailer:fetch.co.uk",
    },
    {
      url: "https://www.jollyes.co.uk/x.html",
      html: '<div class="product-info-main"><span class="special-price"><span class="price">£2.00</span></span></div>',
      price: 200,
      currency: "GBP",
      inStock: null,
      source: "retailer:jollyes.co.uk",
    },
  ];
  it.each(retailerPages)("$url", ({ url, html, ...offer }) => {
    expect(fields(extractOffer(html, url))).toEqual(offer);
  });
  it("matches the retailer's bare host and its subdomains only", () => {
    expect(extractOffer('<span id="priceblock_ourprice">£7.00</span>', "https://amazon.co.uk/dp/B01")?.source).toBe("retailer:amazon.co.uk");
  });
  it("passes over a match whose text holds no price", () => {
    const html = '<span class="x-price-primary">See price in basket</span><span id="prcIsum">£3.30</span>';
    expect(extractOffer(html, "https://www.ebay.co.uk/itm/4")?.price).toBe(330);
  });
  it("reads no retailer selectors on another host", () => {
    expect(extractOffer('<span id="priceblock_ourprice">£7.00</span>', "https://www.amazon.com/dp/B01")).toBeNull();
    expect(extractOffer('<span id="priceblock_ourprice">£7.00</span>', "https://notamazon.co.uk/dp/B01")).toBeNull();
  });
  it("reads Magento's data-price-amount, passing over one that is no price", () => {
    const html = '<div class="product-info-main"><span data-price-type="finalPrice" data-price-amount="0"></span><span data-price-type="finalPrice" data-price-amount="4.75"></span></div>';
    expect(extractOffer(html, "https://www.jollyes.co.uk/x.html")?.price).toBe(475);
  });
  it("reads a price split over elements, skipping comments, scripts and crossed-out parts", () => {
    const html = '<span id="priceblock_ourprice"><!-- price --><s>£9.99</s><span class="a-price-whole"><span>£</span>12</span>.<span>99</span><script>var rrp = "£15.00";</script></span>';
    expect(extractOffer(html, "https://www.amazon.co.uk/dp/B03")?.price).toBe(1299);
  });
  it("counts crossing out by the element and its three nearest ancestors only", () => {
    const price = '<span class="x-price-primary">£5.00</span>';
    const fallback = '<span class="x-price-primary">£6.00</span>';
    const ebay = "https://www.ebay.co.uk/itm/3";
    expect(extractOffer(`<del><span><span>${price}</span></span></del>${fallback}`, ebay)?.price).toBe(600);
    expect(extractOffer(`<div class="old-layout"><div><span><span>${price}</span></span></div></div>${fallback}`, ebay)?.price).toBe(500);
  });
  it("skips a crossed-out match for the next one", () => {
    const html = '<div id="corePrice_feature_div"><span class="a-price" data-a-strike="true"><span class="a-offscreen">£9.00</span></span><span class="a-price"><span class="a-offscreen">£6.00</span></span></div>';
    expect(extractOffer(html, "https://www.amazon.co.uk/dp/B02")?.price).toBe(600);
  });
});

describe("no offer", () => {
  it("gives null for empty or unrelated pages", () => {
    expect(extractOffer("", shopUrl)).toBeNull();
    expect(extractOffer("<html><body><p>Price: £12.99</p></body></html>", shopUrl)).toBeNull();
    expect(extractOffer(jsonLdPage(product(offer("0.00", "GBP"))), shopUrl)).toBeNull();
    expect(extractOffer(jsonLdPage(product(offer("-5", "GBP"))), shopUrl)).toBeNull();
  });
});

describe("readAvailability", () => {
  const statements: [string, boolean | null][] = [
    ["https://schema.org/InStock", true],
    ["http://schema.org/InStock", true],
    ["schema:InStock", true],
    ["InStock", true],
    ["LimitedAvailability", true],
    ["https://schema.org/OnlineOnly", true],
    ["OutOfStock", false],
    ["http://schema.org/SoldOut", false],
    ["Discontinued", false],
    ["InStoreOnly", false],
    ["PreOrder", false],
    ["https://schema.org/PreSale", false],
    ["BackOrder", false],
    ["MadeToOrder", false],
    ["instock", true],
    ["in stock", true],
    ["in_stock", true],
    ["oos", false],
    ["out of stock", false],
    ["available for order", false],
    ["preorder", false],
    ["In stock - dispatched today", true],
    ["Only 2 left in stock.", true],
    ["More than 10 available / 213 sold", true],
    ["Currently unavailable.", false],
    ["Not available", false],
    ["Temporarily out of stock.", false],
    ["Usually dispatched within 2 to 3 weeks", null],
    ["Sofort lieferbar", null],
    ["Choose an option", null],
    ["", null],
  ];
  it.each(statements)("%j", (statement, expected) => {
    expect(readAvailability(statement)).toBe(expected);
  });
});
