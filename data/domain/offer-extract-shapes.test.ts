/**
 * One small page per shape the extractor once got wrong, and hostile pages it must read in
 * bounded time without throwing.
 */
import { describe, expect, it } from "vitest";
import { extractOffer, readOffer } from "./offer-extract.ts";

const ld = (...nodes: unknown[]) => nodes.map((node) => `<script type="application/ld+json">${JSON.stringify(node)}</script>`).join("");
const offer = (price: string, extra: object = {}) => ({ "@type": "Offer", price, priceCurrency: "GBP", availability: "https://schema.org/InStock", ...extra });
const shopUrl = "https://www.example-pets.co.uk/p/kibble";

describe("shapes", () => {
  it("reads a Product whose @type is lower case", () => {
    expect(extractOffer(ld({ "@type": "product", offers: offer("9.99") }), shopUrl)).toMatchObject({ price: 999, source: "json-ld", confidence: "high" });
  });

  it("reads itemprop price and currency with no itemscope on the page", () => {
    const html = `<div itemprop="offers" itemtype="http://schema.org/Offer"><meta itemprop="price" content="7.5"><meta itemprop="priceCurrency" content="GBP">£7.50</div>`;
    expect(extractOffer(html, "https://www.ocado.com/products/sausages-1")).toMatchObject({
      price: 750,
      currency: "GBP",
      source: "itemprop",
      evidence: { rule: "itemprop price without an itemscope" },
    });
  });

  it("picks the offer of the pack size the h1 names, never the cheapest", () => {
    const html = `${ld({ "@type": "Product", name: "Kibble", offers: [offer("14", { name: "1kg" }), offer("27.5", { name: "2kg" }), offer("53", { name: "4kg" })] })}<h1>Kibble (4kg)</h1>`;
    const found = extractOffer(html, shopUrl);
    expect(found).toMatchObject({ price: 5300, confidence: "medium", evidence: { rule: expect.stringContaining("offers[2] matched by pack size 4kg in h1") } });
    expect(found?.candidates.map((candidate) => candidate.price)).toEqual([1400, 2750, 5300]);
  });

  it("picks the offer whose price stands beside the buy button when the offers name no size", () => {
    const html = `${ld({ "@type": "Product", offers: [offer("14"), offer("27.5"), offer("53")] })}
      <div class="buy"><span>Price: £53.00</span><span>Saving: £17.00</span><button>Add to basket</button></div>`;
    expect(extractOffer(html, shopUrl)).toMatchObject({ price: 5300, evidence: { rule: expect.stringContaining("offers[2] matched by the price beside the buy button (Price: £53.00)") } });
  });

  it("picks the offer whose SKU the URL's variant parameter names", () => {
    const html = ld({ "@type": "Product", offers: [offer("5", { sku: "SMALL1" }), offer("9", { sku: "LARGE2" })] });
    expect(extractOffer(html, `${shopUrl}?variant=LARGE2`)).toMatchObject({ price: 900, evidence: { rule: expect.stringContaining("matched by the page URL") } });
  });

  it("returns the candidates with a reason when nothing on the page picks one", () => {
    const reading = readOffer(ld({ "@type": "Product", offers: [offer("14"), offer("27.5"), offer("53")] }), shopUrl);
    expect(reading).toMatchObject({ status: "undecided", source: "json-ld", reason: expect.stringContaining("3 offers at 3 different prices") });
    if (reading.status === "undecided") expect(reading.candidates.map((candidate) => candidate.price)).toEqual([1400, 2750, 5300]);
    expect(extractOffer(ld({ "@type": "Product", offers: [offer("14"), offer("27.5")] }), shopUrl)).toBeNull();
  });

  it("reads a Next.js page's product from __NEXT_DATA__ by the id in its URL, the promotion price first", () => {
    const state = { props: { pageProps: { baseProduct: { products: [{ id: "7128260", name: "Fish 2kg", price: { base: 25.99, promotionBase: 19.4925 }, isInStock: true }] } } } };
    const html = `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(state)}</script><h1>Fish 2kg</h1><span>£19.49</span>`;
    expect(extractOffer(html, "https://www.petsathome.com/product/7128260P")).toMatchObject({ price: 1949, currency: "GBP", inStock: true, source: "next-data" });
  });

  it("reads Nuxt 3's __NUXT_DATA__ payload", () => {
    const payload = [{ data: 1 }, { product: 2 }, { sku: 3, price: 4, currency: 5 }, "ABC123", 12.5, "GBP"];
    const html = `<script type="application/json" id="__NUXT_DATA__">${JSON.stringify(payload)}</script>`;
    expect(extractOffer(html, "https://shop.example.com/p/ABC123")).toMatchObject({ price: 1250, currency: "GBP", source: "nuxt" });
  });

  it("reads Shopify's product JSON, the variant ?variant= names", () => {
    const product = { product: { variants: [{ id: 11, price: 399, available: true, title: "100g" }, { id: 22, price: 1725, available: true, title: "500g" }] } };
    const html = `<script type="application/json" data-product-json>${JSON.stringify(product)}</script><script>Shopify.currency = {"active":"GBP","rate":"1.0"};</script>`;
    expect(extractOffer(html, "https://shop.example.com/products/treats?variant=22")).toMatchObject({ price: 1725, currency: "GBP", source: "shopify", confidence: "high" });
  });

  it("reads Shopify's product JSON with no ?variant=: one price for all, else the first available variant; a ?variant= naming none decides nothing", () => {
    const shopify = (variants: object[], tail = `<script>Shopify.currency = {"active":"GBP","rate":"1.0"};</script>`) =>
      `<script type="application/json" data-product-json>${JSON.stringify({ product: { variants } })}</script>${tail}`;
    const url = "https://shop.example.com/products/treats";
    const small = { id: 11, price: 399, available: false, title: "100g" };
    const large = { id: 22, price: 1725, available: true, title: "500g" };
    expect(extractOffer(shopify([small, large]), url)).toMatchObject({
      price: 1725,
      currency: "GBP",
      inStock: true,
      source: "shopify",
      confidence: "medium",
      evidence: { rule: "Shopify product JSON product.variants[1]: no ?variant=, the first available variant is the one the page shows" },
    });
    expect(extractOffer(shopify([small, { ...large, available: false }]), url)).toMatchObject({ price: 399, inStock: false, evidence: { rule: expect.stringContaining("product.variants[0]: no ?variant=") } });
    expect(extractOffer(shopify([large, { ...large, id: 33 }]), url)).toMatchObject({ price: 1725, confidence: "medium", evidence: { rule: "Shopify product JSON, all 2 offers at one price" } });
    expect(readOffer(shopify([small, large]), `${url}?variant=99`)).toMatchObject({ status: "undecided", source: "shopify" });
    // The first available variant decides between the structured offers it prices.
    const structured = ld({ "@type": "Product", offers: [offer("3.99"), offer("17.25")] });
    expect(extractOffer(`${structured}${shopify([small, large])}`, url)).toMatchObject({ price: 1725, source: "json-ld", evidence: { rule: expect.stringContaining("matched by shopify: Shopify product JSON product.variants[1]: no ?variant=") } });
    // No Shopify.currency: the product meta tags' currency.
    expect(extractOffer(shopify([large], '<meta property="og:price:currency" content="EUR">'), url)).toMatchObject({ price: 1725, currency: "EUR" });
    expect(extractOffer(shopify([large], '<meta property="product:price:currency" content="USD">'), url)).toMatchObject({ price: 1725, currency: "USD" });
  });

  it("reads Magento's finalPrice of the product the add-to-cart form sends, not a related product's", () => {
    const html = `<div class="block related"><div class="price-box" data-product-id="9"><span data-price-type="finalPrice" data-price-amount="3.49"></span></div></div>
      <div class="product-info-main"><div class="price-box" data-product-id="7"><span data-price-type="oldPrice" data-price-amount="12"></span><span data-price-type="finalPrice" data-price-amount="9.49"></span></div></div>
      <form id="product_addtocart_form"><input type="hidden" name="product" value="7"></form>`;
    expect(extractOffer(html, "https://shop.example.co.uk/p.html")).toMatchObject({ price: 949, source: "magento" });
  });

  it("reads Salesforce Commerce Cloud's sales price from its content attribute", () => {
    const html = `<div class="prices"><span class="strike-through list"><span class="value" content="60.00">£60.00</span></span><span class="sales"><span class="value" content="42.00">£42.00</span></span></div>`;
    expect(extractOffer(html, "https://shop.example.co.uk/p.html")).toMatchObject({ price: 4200, source: "sfcc" });
  });

  it("reads offers under items that are not Products when the page has none", () => {
    expect(extractOffer(ld({ "@type": "Book", mainEntity: { "@type": "Book", offers: offer("8.99") } }), shopUrl)?.price).toBe(899);
    expect(extractOffer(ld({ "@type": "Event", offers: offer("15") }), shopUrl)?.price).toBe(1500);
    expect(extractOffer(ld({ "@type": "Person", makesOffer: offer("30", { itemOffered: { "@type": "Service", name: "Dog walking" } }) }), shopUrl)?.price).toBe(3000);
  });

  it("reports a COP price above £100,000's number with its currency, never converted", () => {
    expect(extractOffer(ld({ "@type": "Product", offers: { ...offer("450000.00"), priceCurrency: "COP" } }), "https://shop.example.co/p")).toMatchObject({ price: 45_000_000, currency: "COP" });
    expect(extractOffer(ld({ "@type": "Product", offers: offer("450000.00") }), shopUrl)).toBeNull();
  });

  it("reads the pack size from og:title or the title when there is no h1", () => {
    const sized = ld({ "@type": "Product", name: "Kibble", offers: [offer("14", { name: "1kg" }), offer("27.5", { name: "2kg" }), offer("53", { name: "4kg" })] });
    expect(extractOffer(`${sized}<meta property="og:title" content="Kibble 4kg">`, shopUrl)).toMatchObject({
      price: 5300,
      confidence: "medium",
      evidence: { rule: "Product json-ld[0] json-ld[0] offers[2] matched by pack size 4kg in og:title" },
    });
    expect(extractOffer(`${sized}<title>Kibble 2kg</title>`, shopUrl)).toMatchObject({ price: 2750, evidence: { rule: "Product json-ld[0] json-ld[0] offers[1] matched by pack size 2kg in title" } });
  });

  it("takes the lowest of several offers when the h1 or the buy box gives it as a \"from\" price, and only then", () => {
    const three = ld({ "@type": "Product", name: "Kibble", offers: [offer("27.5"), offer("14"), offer("53")] });
    expect(extractOffer(`${three}<h1>Kibble from £14.00</h1>`, shopUrl)).toMatchObject({
      price: 1400,
      confidence: "medium",
      evidence: { rule: 'Product json-ld[0], the lowest: the h1 says "Kibble from £14.00"' },
    });
    expect(extractOffer(`${three}<div class="buy"><span>From £14.00</span><button>Add to basket</button></div>`, shopUrl)).toMatchObject({
      price: 1400,
      evidence: { rule: 'Product json-ld[0], the lowest: the buy box says "From £14.00"' },
    });
    expect(readOffer(`${three}<h1>Kibble from £13.00</h1>`, shopUrl).status).toBe("undecided");
    expect(readOffer(`${three}<div class="buy"><span>From £13.00</span><button>Add to basket</button></div>`, shopUrl).status).toBe("undecided");
    // Buy buttons that disagree (a listing) give no "from" price, even at the lowest.
    const listing = '<div class="buy"><span>£14.00</span><button>Add to basket</button></div><div class="buy"><span>£27.50</span><button>Add to basket</button></div>';
    expect(readOffer(`${three}${listing}`, shopUrl).status).toBe("undecided");
  });

  it("matches a price from elsewhere on the page to one of several offers only when their currencies agree or one is not named", () => {
    const two = (extra: object = {}) => ld({ "@type": "Product", name: "Kibble", offers: [offer("27.5", extra), offer("14", extra)] });
    const box = (text: string) => `<div class="buy"><span>${text}</span><button>Add to basket</button></div>`;
    const url = "https://shop.example.com/p";
    expect(readOffer(`${two()}${box("€14.00")}`, url).status).toBe("undecided");
    // Offers that name no currency, a buy box in pounds.
    expect(extractOffer(`${two({ priceCurrency: undefined })}${box("£14.00")}`, url)).toMatchObject({
      price: 1400,
      currency: "GBP",
      evidence: { rule: expect.stringContaining("offers[1] matched by the price beside the buy button (£14.00)") },
    });
    // Offers in pounds, Magento's amount with no currency.
    const magento = '<div class="product-info-main"><div class="price-box" data-product-id="7"><span data-price-type="finalPrice" data-price-amount="14"></span></div></div>';
    expect(extractOffer(`${two()}${magento}`, url)).toMatchObject({ price: 1400, currency: "GBP", evidence: { rule: "Product json-ld[0] json-ld[0] offers[1] matched by magento: Magento final price (data-price-amount)" } });
  });

  it("takes the buy box's price over an AggregateOffer's summary low price only when it is a plain price in the same currency that differs", () => {
    const aggregate = ld({ "@type": "Product", name: "Kibble", offers: { "@type": "AggregateOffer", lowPrice: "14.00", highPrice: "53.00", priceCurrency: "GBP" } });
    const box = (text: string) => `<div class="buy"><span>${text}</span><button>Add to basket</button></div>`;
    const url = "https://shop.example.com/p";
    expect(extractOffer(`${aggregate}${box("£16.00")}`, url)).toMatchObject({
      price: 1600,
      currency: "GBP",
      confidence: "low",
      evidence: { rule: "Product json-ld[0] gives a summary low price; the price beside the buy button differs and is taken", snippet: "buy box: £16.00" },
    });
    for (const text of ["£14.00", "€16.00", "From £16.00"]) {
      expect(extractOffer(`${aggregate}${box(text)}`, url), text).toMatchObject({ price: 1400, confidence: "high", evidence: { rule: "Product json-ld[0]", snippet: "json-ld[0] offers lowPrice" } });
    }
  });

  it("reports a meta price with no currency anywhere as an unknown currency, at low confidence", () => {
    expect(extractOffer('<meta property="product:price:amount" content="12.00">', "https://shop.example.com/p")).toMatchObject({ price: 1200, currency: null, confidence: "low" });
  });

  it("takes the meta sale price over a structured price the meta calls standard", () => {
    const html = `${ld({ "@type": "Product", offers: { ...offer("150.00"), priceCurrency: "USD" } })}<meta property="og:price:standard_amount" content="150.00"><meta property="product:price:amount" content="120.00"><meta property="product:price:currency" content="USD">`;
    expect(extractOffer(html, "https://shop.example.com/p")).toMatchObject({ price: 12000, currency: "USD" });
  });

  it("keeps the structured price unless the meta tags call it their standard price and give a lower sale price in its currency", () => {
    const page = (standard: string, sale: string | null, currency = "USD") =>
      `${ld({ "@type": "Product", offers: { ...offer("150.00"), priceCurrency: "USD" } })}${standard}${
        sale === null ? "" : `<meta property="product:price:amount" content="${sale}"><meta property="product:price:currency" content="${currency}">`
      }`;
    const standard = (amount: string) => `<meta property="og:price:standard_amount" content="${amount}">`;
    const read = (html: string) => {
      const found = extractOffer(html, "https://shop.example.com/p");
      return { price: found?.price, confidence: found?.confidence };
    };
    const structured = { price: 15000, confidence: "high" };
    expect(read(page(`<meta property="product:original_price:amount" content="150.00">`, "120.00"))).toEqual({ price: 12000, confidence: "medium" });
    expect(read(page(standard("160.00"), "120.00"))).toEqual(structured);
    expect(read(page(standard("150.00"), "150.00"))).toEqual(structured);
    expect(read(page(standard("150.00"), "180.00"))).toEqual(structured);
    expect(read(page(standard("150.00"), "120.00", "EUR"))).toEqual(structured);
    expect(read(page(standard("150.00"), null))).toEqual(structured);
  });

  it("refuses accounting negatives and fractions in visible prices", () => {
    expect(extractOffer('<div><span>(5.00)</span><button>Add to basket</button></div>', shopUrl)).toBeNull();
    expect(extractOffer('<div><span>1/2</span><button>Add to basket</button></div>', shopUrl)).toBeNull();
  });
});

describe("hostile pages", () => {
  const timed = (read: () => unknown) => {
    const started = performance.now();
    const result = read();
    return { result, ms: performance.now() - started };
  };

  it("reads a JSON-LD block of 20,000 nested arrays without overflowing", () => {
    const html = `<script type="application/ld+json">${"[".repeat(20_000)}{"@type":"Product","offers":{"price":"1"}}${"]".repeat(20_000)}</script><meta property="product:price:amount" content="4.00">`;
    const { result, ms } = timed(() => extractOffer(html, shopUrl));
    expect(result).toMatchObject({ price: 400, source: "meta" });
    expect(ms).toBeLessThan(2_000);
  });

  it("reads 5 MB of unclosed <div> quickly, cut where it nests too deep", () => {
    const html = `<meta property="product:price:amount" content="6.00">${"<div>".repeat(1_000_000)}`;
    const { result, ms } = timed(() => readOffer(html, shopUrl));
    expect(result).toMatchObject({ status: "found", offer: { price: 600 } });
    expect(ms).toBeLessThan(5_000);
    expect(readOffer("<div>".repeat(1_000_000), shopUrl)).toEqual({ status: "none", reason: "no price found (page cut where its elements nest deeper than 400)" });
  });

  it("skips a JSON-LD block of 100,000 offers (over 1 MB), and reads at most 200 offers of a smaller one", () => {
    const offers = (count: number) => Array.from({ length: count }, (_, index) => offer((5 + (index % 7)).toFixed(2)));
    const { result, ms } = timed(() => readOffer(ld({ "@type": "Product", offers: offers(100_000) }), shopUrl));
    expect(result).toMatchObject({ status: "none" });
    expect(ms).toBeLessThan(5_000);
    const smaller = readOffer(ld({ "@type": "Product", offers: offers(5_000) }), shopUrl);
    expect(smaller.status).toBe("undecided");
    if (smaller.status === "undecided") expect(smaller.candidates).toHaveLength(200);
  });

  it("reads deeply nested microdata without overflowing", () => {
    const nested = `${'<div itemscope itemtype="https://schema.org/Thing" itemprop="about">'.repeat(300)}${"</div>".repeat(300)}`;
    const html = `<div itemscope itemtype="https://schema.org/Product">${nested}<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="3.25"><meta itemprop="priceCurrency" content="GBP"></div></div>`;
    expect(extractOffer(html, shopUrl)).toMatchObject({ price: 325, source: "microdata" });
  });

  it("answers null for a page that is not HTML at all", () => {
    expect(extractOffer("\u0000".repeat(100_000), shopUrl)).toBeNull();
    expect(extractOffer("", shopUrl)).toBeNull();
  });
});
