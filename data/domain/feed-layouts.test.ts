import { describe, expect, it } from "vitest";
import {
  awinCellsOf,
  columnKey,
  detectLayout,
  layoutColumns,
  layoutRecordOf,
  noLayoutProblem,
  resolveLayout,
  saleApplies,
  shippingEntry,
  shippingText,
} from "./feed-layouts.ts";

describe("detectLayout", () => {
  it.each([
    [["aw_deep_link", "product_name", "search_price", "merchant_name"], "awin-publisher"],
    [["product_name", "store_price", "merchant_deep_link"], "awin-publisher"],
    [["product_id", "product_name", "description", "product_url", "image_url", "price", "currency", "brand", "category", "colour", "size", "ean", "mpn", "in_stock", "condition"], "awin-merchant"],
    [["product_name", "price"], "awin-merchant"],
    [["product_url", "name"], "awin-merchant"],
    [["product_id", "price"], "awin-merchant"],
    [["id", "title", "description", "link", "image_link", "price", "sale_price", "availability", "shipping"], "google-merchant"],
    [["g:id", "g:title", "g:link", "g:price"], "google-merchant"],
    [["ID", " Title ", "Price"], "google-merchant"],
    [["title", "price"], null],
    [["NAME", "PRICE", "BUYURL"], null],
  ] as const)("%j is %s", (columns, layout) => {
    expect(detectLayout(columns)).toBe(layout);
  });

  it("matches header names without case, spaces or Google's g: prefix", () => {
    expect(columnKey(" G:Price ")).toBe("price");
    expect(columnKey("\uFEFFid")).toBe("id");
    // Only a leading g: is Google's prefix.
    expect(columnKey("tag:price")).toBe("tag:price");
  });
});

describe("resolveLayout", () => {
  it("finds each field's column, and needs a merchant column or the source's retailer", () => {
    const header = ["id", "title", "link", "price", "product_type", "google_product_category"];
    expect(resolveLayout("google-merchant", header, undefined, { retailerKey: "zooplus" })).toEqual({
      columns: { externalId: "id", name: "title", link: "link", price: "price", category: "product_type" },
      problem: null,
    });
    expect(resolveLayout("google-merchant", header, undefined, {}).problem).toBe("This feed (a Google Merchant Center feed) names no merchant: set the retailer its source belongs to");
    // Fields whose columns the file lacks are left out, not set to undefined.
    expect(resolveLayout("awin-merchant", ["product_name", "price", "product_url", "merchant_name"], undefined, {})).toStrictEqual({
      columns: { name: "product_name", price: "price", link: "product_url", merchantName: "merchant_name" },
      problem: null,
    });
  });

  it("reads an Awin publisher download's own columns: nothing to resolve when its header is complete", () => {
    expect(resolveLayout("awin-publisher", ["product_name", "search_price", "merchant_deep_link", "merchant_name"], undefined, {})).toEqual({ columns: {}, problem: null });
  });

  it.each([
    ["awin-merchant", ["product_id", "product_name", "price"], "This file looks like the Awin merchant upload layout but it lacks a link column (product_url, deep_link, purl); its columns are product_id, product_name, price"],
    ["google-merchant", ["id", "link"], "This file looks like a Google Merchant Center feed but it lacks a name column (title) and a price column (price); its columns are id, link"],
    ["awin-publisher", ["product_name", "merchant_name", "merchant_deep_link"], "The feed has no price column (search_price, store_price or display_price)"],
  ] as const)("%s without a required column: %s", (layout, header, problem) => {
    expect(resolveLayout(layout, header, undefined, { retailerKey: "zooplus" }).problem).toBe(problem);
  });

  it("checks a mapping against the header as written, case and spaces aside", () => {
    const header = ["Product Title", "Our Price", "URL", "Shop"];
    expect(resolveLayout("mapped", header, { name: "product title", price: "OUR PRICE", link: "URL", merchantName: "Shop" }, {})).toEqual({
      columns: { name: "product title", price: "our price", link: "url", merchantName: "shop" },
      problem: null,
    });
    expect(resolveLayout("mapped", header, undefined, {}).problem).toBe("A mapped feed needs its column mapping (which column holds the name, the price and the link)");
    expect(resolveLayout("mapped", header, { name: "Product Title", price: "Our Price" }, {}).problem).toBe("The column mapping sets no column for link (required)");
  });

  it("skips fields the mapping leaves blank, refuses a field it does not know, and takes a merchant id column as the merchant", () => {
    const header = ["Product Title", "Our Price", "URL", "Shop ID"];
    const mapping = { name: "Product Title", price: "Our Price", link: "URL", merchantId: "Shop ID", brand: "  ", gtin: undefined };
    expect(resolveLayout("mapped", header, mapping, {})).toStrictEqual({
      columns: { name: "product title", price: "our price", link: "url", merchantId: "shop id" },
      problem: null,
    });
    expect(layoutColumns("mapped", mapping)).toStrictEqual({ name: ["product title"], price: ["our price"], link: ["url"], merchantId: ["shop id"] });
    expect(resolveLayout("mapped", header, { ...mapping, colour: "Shop ID" } as never, {})).toEqual({ columns: null, problem: 'The column mapping names an unknown field "colour"' });
  });
});

describe("noLayoutProblem", () => {
  it("names the file, its columns and only the required columns no layout finds", () => {
    expect(noLayoutProblem("a TSV", ["sku", "title", "cost"])).toBe(
      "This file is not a product feed this site can read: it is a TSV whose columns are sku, title, cost: it lacks a price column (price, search_price, store_price, display_price) and a link column (link, product_url, deep_link, purl, merchant_deep_link, aw_deep_link). If it is a product feed, set a column mapping for it.",
    );
    const many = Array.from({ length: 15 }, (_, i) => `c${i + 1}`);
    expect(noLayoutProblem("a CSV", many)).toContain("columns are c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, ... (15 columns): it lacks a name column");
    // Exactly 12 columns are all listed.
    expect(noLayoutProblem("a CSV", many.slice(0, 12))).toContain("columns are c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12: it lacks a name column");
  });

  it("says when every required column is there but no layout fits them", () => {
    expect(noLayoutProblem("a CSV", ["name", "price", "link"])).toBe(
      "This file is not a product feed this site can read: it is a CSV whose columns are name, price, link: its columns fit none of the layouts this site knows (Awin, Google Merchant Center). If it is a product feed, set a column mapping for it.",
    );
  });
});

describe("saleApplies", () => {
  const now = new Date("2026-11-20T03:00:00Z");
  it.each([
    [undefined, true],
    ["", true],
    ["2026-11-01T00:00+0000/2026-11-30T23:59+0000", true],
    ["2026-11-01T00:00Z/2026-11-20T03:00Z", true],
    ["2026-11-20T03:00:01Z/2026-11-30T00:00Z", false],
    ["2026-10-01T00:00-0100/2026-10-31T23:59-0100", false],
    ["2026-11-01", true],
    ["2026-11-01/", true],
    ["2026-12-01/", false],
    ["next week", false],
    ["2026-11-01/never", false],
    ["  ", true],
    ["2026-11-01/ ", true],
    ["2026-11-01T00:00Z / 2026-11-30T23:59Z", true],
    // From exactly now.
    ["2026-11-20T03:00Z/2026-11-30T00:00Z", true],
    // An offset without its colon: ended at 02:00 UTC, an hour ago.
    ["2026-11-01T00:00+0200/2026-11-20T04:00+0200", false],
    // Fractional seconds and an expanded year are dates too.
    ["2026-11-01T00:00Z/2026-11-30T23:59:59.9999", true],
    ["+002026-11-01T00:00Z/", true],
  ])("%j: %s", (dates, applies) => {
    expect(saleApplies(dates, now)).toBe(applies);
  });
});

describe("shippingText", () => {
  it.each([
    ["GB:::3.99 GBP", "3.99 GBP"],
    ["GB:::0 GBP", "0 GBP"],
    ["IE:::9.99 EUR,GB::Standard:3.99 GBP", "3.99 GBP"],
    ["GB:Scotland::6.99 GBP,GB:::2.99 GBP,GB::Next day:5.99 GBP", "2.99 GBP"],
    ["UK:::4.50 GBP", "4.50 GBP"],
    [":::3.00 GBP", "3.00 GBP"],
    ["US::Standard:0 USD", ""],
    ["GB:Highlands::9.99 GBP", ""],
    ["GB:::9.99 EUR", ""],
    ["GB::Standard:", ""],
    ["3.99", "3.99"],
    ["Free over £29", "Free over £29"],
    ["Delivery: 3.99", "Delivery: 3.99"],
    ["GB :::3.99 GBP, GB :::2.99 GBP", "2.99 GBP"],
    ["GB:::3.99 GBP,GB:::2.99 GBP", "2.99 GBP"],
    // The first of two equal prices.
    ["GB:::3.99 GBP,GB:::£3.99", "3.99 GBP"],
    ["GB::: 3.99 GBP", "3.99 GBP"],
    ["GB: ::3.99 GBP", "3.99 GBP"],
    ["GB:::3.99", "3.99"],
    ["GB:::N/A", ""],
    ["GB:::-1.00", ""],
    // A colon inside the price is no price (not 399 pounds).
    ["GB:::3:99 GBP", ""],
  ])("%j -> %j", (raw, text) => {
    expect(shippingText(raw)).toBe(text);
  });

  it("writes an XML <g:shipping> group as one entry", () => {
    expect(shippingEntry({ country: "GB", service: "Royal Mail 48", price: "3.99 GBP" })).toBe("GB::Royal Mail 48:3.99 GBP");
    expect(shippingEntry({ country: "GB", postal_code: "IV1", price: "9.99 GBP" })).toBe("GB:IV1::9.99 GBP");
    expect(shippingEntry({ country: "GB", service: "Next day: 10am, signed", price: "5 GBP" })).toBe("GB::Next day  10am  signed:5 GBP");
    expect(shippingEntry({ price: " 3 GBP " })).toBe(":::3 GBP");
    expect(shippingEntry({ country: "GB", location_group_name: "Islands" })).toBe("GB:Islands::");
  });
});

describe("awinCellsOf", () => {
  const now = new Date("2026-11-20T03:00:00Z");
  const google = layoutColumns("google-merchant");

  it("turns a Google row into the cells parseFeedCells reads", () => {
    const record = layoutRecordOf(google, {
      id: "BW-1",
      title: "Barkwell Kibble",
      link: "https://a.co.uk/1",
      price: "24.99 GBP",
      sale_price: "19.99 GBP",
      sale_price_effective_date: "",
      availability: "in stock",
      gtin: "5012345670010",
      brand: "Barkwell",
      shipping: "GB:::3.99 GBP",
      product_type: "",
      google_product_category: "Dog Food",
      unit_pricing_measure: "2kg",
      condition: "new",
      item_group_id: "BW",
    });
    expect(awinCellsOf(record, now)).toEqual({
      product_name: "Barkwell Kibble",
      search_price: "19.99 GBP",
      rrp_price: "24.99 GBP",
      currency: undefined,
      merchant_deep_link: "https://a.co.uk/1",
      aw_deep_link: undefined,
      delivery_cost: "3.99 GBP",
      in_stock: "in stock",
      merchant_product_id: "BW-1",
      ean: "5012345670010",
      mpn: undefined,
      brand_name: "Barkwell",
      merchant_image_url: undefined,
      description: undefined,
      merchant_category: "Dog Food",
      merchant_name: undefined,
      merchant_id: undefined,
      condition: "new",
      base_price_text: "2kg",
      parent_product_id: "BW",
    });
  });

  it.each([
    ["a sale price above the price", "24.99 GBP", "29.99 GBP", ["24.99 GBP", undefined]],
    ["a sale price that is not a price", "24.99 GBP", "N/A", ["24.99 GBP", undefined]],
    ["a sale price of zero", "24.99 GBP", "0.00 GBP", ["24.99 GBP", undefined]],
    ["a sale with an unreadable regular price", "call us", "19.99 GBP", ["19.99 GBP", "call us"]],
    ["a sale price equal to the price", "24.99 GBP", "24.99 GBP", ["24.99 GBP", undefined]],
    ["no price at all (nothing to be on sale from)", undefined, "19.99 GBP", [undefined, undefined]],
  ])("keeps the regular price for %s", (_, price, sale, expected) => {
    const cells = awinCellsOf({ name: "A", link: "https://a.co.uk", price, salePrice: sale }, now);
    expect([cells.search_price, cells.rrp_price]).toEqual(expected);
  });

  it("takes a sale price without the spaces around it, and a field from the first column with a non-blank cell", () => {
    const cells = awinCellsOf({ name: "A", link: "https://a.co.uk", price: "24.99 GBP", salePrice: " 19.99 GBP " }, now);
    expect([cells.search_price, cells.rrp_price]).toEqual(["19.99 GBP", "24.99 GBP"]);
    expect(layoutRecordOf(google, { id: "1", description: "  ", summary: "Short" })).toEqual({ externalId: "1", description: "Short" });
  });
});
