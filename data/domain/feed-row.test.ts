import { describe, expect, it } from "vitest";
import {
  deliveryPenceOf,
  gtinCheckDigit,
  headerProblem,
  matchKey,
  merchantKeyOf,
  normaliseGtin,
  packSizeOf,
  parseFeedRow,
  parsePrice,
  priceProblem,
  repairMojibake,
  standardFeedColumns,
  stockOf,
  type FeedItem,
  type FeedOffer,
} from "./feed-row.ts";

/** A GTIN body with its GS1 check digit appended (computed independently of the module). */
function withCheckDigit(body: string): string {
  const digits = [...body].reverse().map(Number);
  const sum = digits.reduce((total, digit, i) => total + digit * (i % 2 === 0 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
}

const ean13 = withCheckDigit("501234567890"); // "5012345678900"
const upc12 = withCheckDigit("03600029145"); // "036000291452"
const ean8 = withCheckDigit("9638507"); // "96385074"

describe("parsePrice", () => {
  it.each([
    ["12.99", 1299, null],
    ["12", 1200, null],
    ["12.5", 1250, null],
    [" 12.99 ", 1299, null],
    ["£12.99", 1299, "GBP"],
    ["£ 12.99", 1299, "GBP"],
    ["GBP 12.99", 1299, "GBP"],
    ["GBP12.99", 1299, "GBP"],
    ["12.99 GBP", 1299, "GBP"],
    ["gbp 12.99", 1299, "GBP"],
    ["EUR130.00", 13000, "EUR"],
    ["5,95 EUR", 595, "EUR"],
    // Read with its currency, for the row to refuse ("priced in INR, not GBP").
    ["59.00 INR", 5900, "INR"],
    ["€5,95", 595, "EUR"],
    ["$5", 500, "USD"],
    ["12,99", 1299, null],
    ["1,299.00", 129900, null],
    ["1.299,00", 129900, null],
    ["1 299,00", 129900, null],
    ["1,299", 129900, null],
    ["12.990", 1299, null],
    [".99", 99, null],
    ["0.00", 0, null],
    ["-5.00", -500, null],
    ["0.00 GBP", 0, "GBP"],
    ["£0", 0, "GBP"],
    ["0 EUR", 0, "EUR"],
  ])("%j is %i pence in %s", (text, pence, currency) => {
    expect(parsePrice(text)).toEqual({ pence, currency });
  });

  it.each(["abc", "", "12.995", "1.299", "12.99 ABC", "£12.99 EUR", "12..99", "1,2,3", "twelve pounds", "12.99.99"])("%j is not a price", (text) => {
    expect(parsePrice(text)).toBeNull();
  });

  it.each([
    ["(5.00)", "is an accounting negative (in brackets), not a price"],
    ["£(5.00)", "is not a price"],
    ["5.00-", "is an accounting negative (a trailing minus), not a price"],
    ["1/2", "is a fraction, not a price"],
    ["1 / 2", "is a fraction, not a price"],
    ["from £3.49", 'is a starting price ("from"), not one price'],
    ["£5.29 - £9.56", "is a range, not one price"],
    ["12.99 + VAT", "is not a price"],
    ["12.99*", "is not a price"],
    ["ZAR 59", "is in ZAR, not GBP (not imported)"],
  ])("%j is refused: %s", (text, problem) => {
    expect(parsePrice(text)).toBeNull();
    expect(priceProblem(text)).toBe(problem);
  });
});

describe("deliveryPenceOf", () => {
  it.each([
    ["0.00", 1000, 0],
    ["0", 1000, 0],
    ["3.99", 1000, 399],
    ["£3.99", 1000, 399],
    ["GBP 4.99", 1000, 499],
    ["Free", 1000, 0],
    ["FREE", 1000, 0],
    ["free delivery", 1000, 0],
    ["FREE UK Delivery", 1000, 0],
    ["Free over £29", 2900, 0],
    ["Free over £29", 3499, 0],
    ["Free over £29", 1299, null],
    ["Free delivery on orders over £29.", 1299, null],
    ["free delivery when you spend £40", 5000, 0],
    ["", 1000, null],
    [undefined, 1000, null],
    ["See website", 1000, null],
    ["from £2.99", 1000, null],
    ["3.99-5.99", 1000, null],
    ["4,99 EUR", 1000, null],
  ])("%j for a %i pence item is %s", (text, price, expected) => {
    expect(deliveryPenceOf(text, price)).toBe(expected);
  });
});

describe("stockOf", () => {
  it.each([
    ["1", undefined, true],
    ["0", undefined, false],
    ["yes", undefined, true],
    ["No", undefined, false],
    ["true", undefined, true],
    ["FALSE", undefined, false],
    ["in stock", undefined, true],
    ["Out of Stock", undefined, false],
    [" in  stock ", undefined, true],
    [undefined, "in stock", true],
    [undefined, "out of stock", false],
    [undefined, "OutOfStock", false],
    ["", "12", true],
    ["", "0", false],
    ["preorder", "in stock", true],
    ["1", "out of stock", true],
    [undefined, undefined, null],
    ["preorder", "", null],
  ])("in_stock %j, stock_status %j: %s", (inStock, status, expected) => {
    expect(stockOf(inStock, status)).toBe(expected);
  });
});

describe("gtinCheckDigit", () => {
  it.each(["501234567890", "03600029145", "9638507", "1501234567890", "000000000001"])("agrees with an independent computation for %j", (body) => {
    expect(body + gtinCheckDigit(body)).toBe(withCheckDigit(body));
  });
});

describe("normaliseGtin", () => {
  it.each([
    [ean13, ean13],
    [` ${ean13} `, ean13],
    [`${ean13.slice(0, 1)} ${ean13.slice(1, 7)} ${ean13.slice(7)}`, ean13],
    [`${ean13.slice(0, 7)}-${ean13.slice(7)}`, ean13],
    [`${ean13}.0`, ean13],
    [upc12, `0${upc12}`],
    [ean8, `00000${ean8}`],
    [`0${ean13}`, ean13],
    [`00${upc12}`, `0${upc12}`],
    [withCheckDigit("1501234567890"), withCheckDigit("1501234567890")],
  ])("%j -> %j", (raw, expected) => {
    expect(normaliseGtin(raw)).toBe(expected);
  });

  it("gives one form for the same item in 12, 13 and 14 digits", () => {
    expect(new Set([upc12, `0${upc12}`, `00${upc12}`].map(normaliseGtin)).size).toBe(1);
  });

  it.each([
    ["5.01E+12", "scientific notation from Excel"],
    ["5,01E+12", "scientific notation with a decimal comma"],
    ["5.01234E+12", "scientific notation with more digits"],
    [`${ean13.slice(0, 12)}${(Number(ean13[12]) + 1) % 10}`, "a wrong check digit"],
    ["12345", "too short"],
    ["1234567890", "10 digits"],
    ["123456789012345", "15 digits"],
    ["0000000000000", "all zeros"],
    ["ABC1234567890", "letters"],
    ["", "empty"],
    [null, "null"],
    [undefined, "missing"],
  ])("%j is refused (%s)", (raw, _reason) => {
    expect(normaliseGtin(raw)).toBeNull();
  });
});

describe("packSizeOf", () => {
  it.each([
    ["Royal Canin Mini Adult Dry Dog Food 2kg", "2kg"],
    ["Royal Canin Mini Adult 2 kg", "2kg"],
    ["Royal Canin Mini Adult 2KG", "2kg"],
    ["Burns 2 Kilograms", "2kg"],
    ["Lily's Kitchen Adult 2.5kg", "2.5kg"],
    ["Lily's Kitchen Adult 2,5 kg", "2.5kg"],
    ["Whiskas Dry 1000g", "1kg"],
    ["Whiskas Dry 0.5kg", "500g"],
    ["Royal Canin Indoor 400g", "400g"],
    ["Royal Canin Indoor 400 Grams", "400g"],
    ["Pedigree Pouches 12 x 100g", "12x100g"],
    ["Pedigree Pouches 12x100g", "12x100g"],
    ["Pedigree Pouches 12 × 100 g", "12x100g"],
    ["Pedigree Pouches 100g x 12", "12x100g"],
    ["Harringtons Complete 2kg (Pack of 4)", "4x2kg"],
    ["Harringtons Complete 4 x 2kg", "4x2kg"],
    ["Tetra AquaSafe 500ml", "500ml"],
    ["Tetra AquaSafe 1 Litre", "1l"],
    ["Tetra AquaSafe 0.25L", "250ml"],
    ["Catsan Litter 20 L", "20l"],
    ["Royal Canin Maxi Adult (26-44kg) 15 kg", "15kg"],
    ["Frontline Spot On for Large Dogs 20-40kg 3 Pipettes", "3 pipettes"],
    ["Pedigree Dentastix Medium 28 Sticks", "28 sticks"],
    ["Pedigree Dentastix Medium 28 Sticks 720g", "720g"],
    ["Drontal Cat Wormer 1 Tablet", "1 tablet"],
    ["Whimzees Alligator Pack of 6", "6 pack"],
    ["Trixie Cat Activity Fun Board 30 x 40cm", null],
    ["Kong Classic Dog Toy Large", null],
    ["Frontline Spot On for Small Dogs 2-10kg", null],
    ["Trixie Dog Activity Flip Board Level 3", null],
    ["", null],
    [null, null],
  ])("%j -> %j", (name, expected) => {
    expect(packSizeOf(name)).toBe(expected);
  });
});

describe("matchKey", () => {
  it.each([
    ["Royal Canin", "Royal Canin Mini Adult 2kg", null, "Royal Canin Mini Adult 2 kg"],
    ["Royal Canin", "Royal Canin Mini Adult 2kg", "Royal Canin", "Mini Adult 2kg"],
    ["Royal Canin", "Royal Canin Mini Adult 2kg", "ROYAL CANIN", "royal canin mini adult 2KG"],
    ["Pedigree", "Pedigree Pouches 12 x 100g Mixed in Gravy", "Pedigree", "Pedigree Pouches Mixed in Gravy 12x100g"],
    ["Lily's Kitchen", "Lily's Kitchen Lamb Hotpot 2.5kg", "Lily’s Kitchen", "Lily’s Kitchen Lamb Hotpot 2.5 Kg"],
    ["Lily's Kitchen", "Lily's Kitchen Lamb Hotpot 2.5kg", "Lilys Kitchen", "Lilys Kitchen - Lamb Hotpot, 2.5kg"],
    ["Hill's Science Plan", "Hill's Science Plan Adult Chicken & Rice", "Hill's Science Plan", "Hills Science Plan Adult Chicken and Rice"],
    ["Café Felin", "Café Félin Pâté 400g", "Cafe Felin", "Cafe Felin Pate 400g"],
    ["Whiskas", "Whiskas Dry 1kg", "Whiskas", "Whiskas Dry 1000g"],
    ["Chuckit!", "Chuckit! Ultra Ball Medium", "Chuckit", "Ultra Ball Medium"],
  ])("%j %j = %j %j", (brandA, nameA, brandB, nameB) => {
    expect(matchKey(brandA, nameA)).toBe(matchKey(brandB, nameB));
  });

  it("reads brand, name and pack size in a fixed form", () => {
    expect(matchKey("Lily's Kitchen", "Lily’s Kitchen Lamb Hotpot 2.5 Kg")).toBe("lilys kitchen lamb hotpot 2.5kg");
    expect(matchKey("Pedigree", "Pouches 12 x 100g Mixed")).toBe("pedigree pouches mixed 12x100g");
    expect(matchKey(null, "Kong Classic Dog Toy Large")).toBe("kong classic dog toy large");
  });

  it.each([
    ["Royal Canin Mini Adult 2kg", "Royal Canin Mini Adult 4kg"],
    ["Royal Canin Mini Adult 2kg", "Royal Canin Mini Adult 2kg (Pack of 2)"],
    ["Pedigree Pouches 12 x 100g", "Pedigree Pouches 40 x 100g"],
    ["Pedigree Pouches 12 x 100g", "Pedigree Pouches 12 x 85g"],
    ["Frontline Spot On 3 Pipettes", "Frontline Spot On 6 Pipettes"],
    ["Royal Canin Mini Adult 2kg", "Royal Canin Mini Puppy 2kg"],
  ])("%j and %j differ", (nameA, nameB) => {
    expect(matchKey("Brand", nameA)).not.toBe(matchKey("Brand", nameB));
  });
});

describe("merchantKeyOf", () => {
  it.each([
    ["Amazon UK", "amazon"],
    ["Amazon.co.uk", "amazon"],
    ["Amazon", "amazon"],
    ["  amazon uk ", "amazon"],
    ["Pets at Home", "pets-at-home"],
    ["Pets At Home UK", "pets-at-home"],
    ["Zooplus UK", "zooplus"],
    ["zooplus.co.uk", "zooplus"],
    ["Jollyes", "jollyes"],
    ["Jollyes - The Pet People", "jollyes"],
    ["eBay UK", "ebay"],
    ["Pet Planet", "pet-planet"],
    ["VetUK", "vetuk"],
    ["Viovet.co.uk", "viovet"],
    ["Birdfood Direct", "birdfood-direct"],
    ["Fetch & Co", "fetch-and-co"],
    ["Café Pets", "cafe-pets"],
  ])("%j -> %j", (name, key) => {
    expect(merchantKeyOf(name)).toBe(key);
  });
});

describe("repairMojibake", () => {
  it.each([
    ["CafÃ© Pets", "Café Pets"],
    ["Â£12.99", "£12.99"],
    ["Lilyâ€™s Kitchen", "Lily’s Kitchen"],
    ["PÃ¢tÃ© with Ã¼ and Ã±", "Pâté with ü and ñ"],
    ["10â‚¬", "10€"],
  ])("%j -> %j", (broken, repaired) => {
    expect(repairMojibake(broken)).toBe(repaired);
  });

  it.each(["Café Pets", "£12.99", "Plain ASCII", "Ã alone", "Â"])("leaves %j alone", (text) => {
    expect(repairMojibake(text)).toBe(text);
  });
});

describe("headerProblem", () => {
  const standard = [...standardFeedColumns];
  it("accepts the standard header, and any order or case", () => {
    expect(headerProblem(standard)).toBeNull();
    expect(headerProblem([...standard].reverse().map((name) => ` ${name.toUpperCase()} `))).toBeNull();
    expect(headerProblem(["Product_Name", "Store_Price", "Merchant_ID", "AW_Deep_Link", "some_extra"])).toBeNull();
  });
  it.each([
    [["search_price", "merchant_name", "merchant_deep_link"], "The feed has no product_name column"],
    [["product_name", "merchant_name", "merchant_deep_link"], "The feed has no price column (search_price, store_price or display_price)"],
    [["product_name", "search_price", "merchant_deep_link"], "The feed has no merchant_name or merchant_id column"],
    [["product_name", "search_price", "merchant_name"], "The feed has no link column (merchant_deep_link or aw_deep_link)"],
  ])("%j: %s", (header, message) => {
    expect(headerProblem(header)).toBe(message);
  });
  it("needs no merchant column when the feed's source names its retailer", () => {
    expect(headerProblem(["product_name", "search_price", "merchant_deep_link"], { retailerKey: "zooplus" })).toBeNull();
    expect(headerProblem(["product_name", "search_price", "merchant_deep_link"], { retailerKey: null })).toBe("The feed has no merchant_name or merchant_id column");
  });
  it("says a line of unrelated names is not a feed", () => {
    expect(headerProblem(["id", "title", "price"])).toMatch(/^This file is not a product feed/);
  });
});

describe("parseFeedRow", () => {
  const fullRow: Record<string, string> = {
    aw_deep_link: "https://www.awin1.com/pclick.php?p=38712345671&a=1234567&m=22587",
    product_name: "Royal Canin Mini Adult Dry Dog Food 2kg",
    aw_product_id: "38712345671",
    merchant_product_id: "B07ABCDEF1",
    merchant_image_url: "https://m.media-amazon.com/images/I/71abcdefghL._AC_SL1500_.jpg",
    description: "<p>Small kibble &amp; a precise energy level.</p><p>Supplied in a 2kg bag.</p>",
    merchant_category: "Pet Supplies > Dogs > Food",
    search_price: "15.99",
    merchant_name: "Amazon UK",
    merchant_id: "22587",
    category_name: "Dog Food",
    category_id: "586",
    aw_image_url: "https://images2.productserve.com/?w=200&h=200&url=x",
    currency: "GBP",
    store_price: "15.99",
    delivery_cost: "0.00",
    merchant_deep_link: "https://www.amazon.co.uk/dp/B07ABCDEF1",
    language: "en",
    last_updated: "2025-06-01 04:12:09",
    display_price: "GBP15.99",
    data_feed_id: "41234",
    brand_name: "Royal Canin",
    rrp_price: "18.99",
    in_stock: "1",
    ean: ean13,
    mpn: "RC-MINI-2",
  };
  const offerOf = (item: FeedItem): FeedOffer => {
    if (item.kind !== "offer") throw new Error(`expected an offer, got ${item.error}`);
    return item.offer;
  };
  const row = (over: Record<string, string>) => ({ ...fullRow, ...over });

  it("turns a full row into a normalised offer", () => {
    expect(parseFeedRow(fullRow, 7)).toEqual({
      kind: "offer",
      offer: {
        line: 7,
        merchantName: "Amazon UK",
        merchantId: "22587",
        merchantKey: "amazon",
        externalId: "38712345671",
        name: "Royal Canin Mini Adult Dry Dog Food 2kg",
        brand: "Royal Canin",
        description: "Small kibble & a precise energy level. Supplied in a 2kg bag.",
        image: "https://m.media-amazon.com/images/I/71abcdefghL._AC_SL1500_.jpg",
        categoryName: "Dog Food",
        url: "https://www.amazon.co.uk/dp/B07ABCDEF1",
        affiliateUrl: "https://www.awin1.com/pclick.php?p=38712345671&a=1234567&m=22587",
        pricePence: 1599,
        originalPricePence: 1899,
        deliveryPence: 0,
        currency: "GBP",
        inStock: true,
        gtin: ean13,
        mpn: "RC-MINI-2",
        packSize: "2kg",
        lastUpdated: "2025-06-01 04:12:09",
      } satisfies FeedOffer,
    });
  });

  it("matches header names in any case, with spaces around them, and trims every cell", () => {
    const shouted = Object.fromEntries(Object.entries(fullRow).map(([name, value]) => [` ${name.toUpperCase()} `, `  ${value}\t`]));
    expect(parseFeedRow(shouted, 7)).toEqual(parseFeedRow(fullRow, 7));
  });

  it.each([
    [{ product_name: "" }, "line 12: no product name"],
    [{ product_name: "   " }, "line 12: no product name"],
    [{ search_price: "", store_price: "", display_price: "" }, "line 12: no price (search_price, store_price and display_price are empty)"],
    [{ search_price: "abc" }, 'line 12: price "abc" is not a price'],
    [{ search_price: "0.00" }, 'line 12: price "0.00" is not above zero'],
    [{ search_price: "-4.99" }, 'line 12: price "-4.99" is not above zero'],
    [{ currency: "EUR" }, "line 12: priced in EUR, not GBP (not imported)"],
    [{ currency: "eur", search_price: "5,95" }, "line 12: priced in EUR, not GBP (not imported)"],
    [{ search_price: "EUR130.00" }, "line 12: priced in EUR, not GBP (not imported)"],
    [{ search_price: "5,95 EUR", currency: "" }, "line 12: priced in EUR, not GBP (not imported)"],
    [{ search_price: "$12.99" }, "line 12: priced in USD, not GBP (not imported)"],
    [{ merchant_name: "", merchant_id: "" }, "line 12: no merchant (merchant_name and merchant_id are empty)"],
    [{ merchant_deep_link: "", aw_deep_link: "" }, "line 12: no link to the product (merchant_deep_link and aw_deep_link are empty)"],
    [{ merchant_deep_link: "www.amazon.co.uk/dp/B07" }, 'line 12: link "www.amazon.co.uk/dp/B07" is not an http(s) address'],
    [{ aw_deep_link: "javascript:alert(1)" }, 'line 12: link "javascript:alert(1)" is not an http(s) address'],
    [{ search_price: "(5.00)", store_price: "" }, 'line 12: price "(5.00)" is an accounting negative (in brackets), not a price'],
    [{ search_price: "1/2" }, 'line 12: price "1/2" is a fraction, not a price'],
    [{ condition: "used" }, 'line 12: condition "used": only new items are compared (not imported)'],
    [{ condition: "Refurbished" }, 'line 12: condition "refurbished": only new items are compared (not imported)'],
  ])("refuses %j: %s", (over, message) => {
    expect(parseFeedRow(row(over), 12)).toEqual({ kind: "error", line: 12, error: message });
  });

  it("gives a row that names no merchant the source's retailer, and keeps a named merchant", () => {
    const unnamed = offerOf(parseFeedRow(row({ merchant_name: "", merchant_id: "" }), 4, { retailerKey: "pets-at-home" }));
    expect([unnamed.merchantKey, unnamed.merchantName, unnamed.merchantId]).toEqual(["pets-at-home", "", ""]);
    const named = offerOf(parseFeedRow(row({}), 4, { retailerKey: "pets-at-home" }));
    expect([named.merchantKey, named.merchantName]).toEqual(["amazon", "Amazon UK"]);
    expect(offerOf(parseFeedRow(row({ condition: " New " }), 4)).name).toBe("Royal Canin Mini Adult Dry Dog Food 2kg");
  });

  it.each([
    [{ search_price: "£15.99" }, 1599],
    [{ search_price: "GBP 15.99" }, 1599],
    [{ search_price: "15.99 GBP" }, 1599],
    [{ search_price: "15,99" }, 1599],
    [{ search_price: "", store_price: "14.99" }, 1499],
    [{ search_price: "", store_price: "", display_price: "GBP13.99" }, 1399],
    [{ currency: "" }, 1599],
    [{ currency: "gbp" }, 1599],
  ])("prices %j at %i pence", (over, pence) => {
    expect(offerOf(parseFeedRow(row(over), 3)).pricePence).toBe(pence);
  });

  it("reads a member price below the price, with the feed's scheme or else the retailer's, only from a feed with a member price column", () => {
    const member = (over: Record<string, string>) => {
      const offer = offerOf(parseFeedRow(row(over), 3));
      return { price: offer.memberPricePence, scheme: offer.memberScheme };
    };
    // No member price column: nothing said (the stored one is kept).
    expect("memberPricePence" in offerOf(parseFeedRow(row({ member_scheme: "Prime" }), 3))).toBe(false);
    // The row's own scheme; a penny below the £15.99 price is a member price.
    expect(member({ member_price: "15.98", member_scheme: " Prime " })).toEqual({ price: 1598, scheme: "Prime" });
    expect(member({ member_price: "", loyalty_price: "£14.00", loyalty_scheme: "Club" })).toEqual({ price: 1400, scheme: "Club" });
    // No scheme in the row: the retailer registry's for the merchant (Pets at Home: Pets Club), none for Amazon.
    expect(member({ member_price: "14.00", merchant_name: "Pets at Home" })).toEqual({ price: 1400, scheme: "Pets Club" });
    expect(member({ member_price: "14.00" })).toEqual({ price: null, scheme: null });
    // At or above the price, another currency, zero or not an amount: none.
    for (const text of ["15.99", "16.00", "EUR14.00", "0.00", "ask", ""]) {
      expect(member({ member_price: text, member_scheme: "Club" }), text).toEqual({ price: null, scheme: null });
    }
  });

  it("reads a multi-buy only from a feed with a multi-buy column, and only text that words one", () => {
    const multiBuy = (over: Record<string, string>) => offerOf(parseFeedRow(row(over), 3)).multiBuy;
    // No multi-buy column: nothing said (the stored multi-buy is kept).
    expect("multiBuy" in offerOf(parseFeedRow(row({}), 3))).toBe(false);
    expect(multiBuy({ promotional_text: "Buy 2 get 1 free on all pouches" })).toBe("3 for 2");
    expect(multiBuy({ multi_buy: "2 for £20" })).toBe("2 for £20.00");
    // The first non-empty column, in the order multi_buy, multibuy, promotional_text.
    expect(multiBuy({ multi_buy: "", multibuy: "3 for 2", promotional_text: "2 for £20" })).toBe("3 for 2");
    // Free text that words no multi-buy, or an empty cell: the row says none.
    expect(multiBuy({ promotional_text: "Free delivery over £39" })).toBeNull();
    expect(multiBuy({ promotional_text: "" })).toBeNull();
  });

  it("reads a repeat-delivery price and terms only from a feed with a repeat price column", () => {
    const repeat = (over: Record<string, string>) => {
      const offer = offerOf(parseFeedRow(row(over), 3));
      return { price: offer.repeatPricePence, terms: offer.repeatTerms };
    };
    // No repeat column at all: nothing said (the stored repeat price is kept).
    expect(repeat({})).toEqual({ price: undefined, terms: undefined });
    expect("repeatPricePence" in offerOf(parseFeedRow(row({ repeat_delivery_terms: "5% off" }), 3))).toBe(false);
    // The first non-empty repeat column, in the order subscribe_and_save_price, repeat_delivery_price, subscription_price.
    expect(repeat({ subscribe_and_save_price: "15.19", repeat_delivery_terms: "  Subscribe &amp; Save:  5% off " })).toEqual({ price: 1519, terms: "Subscribe & Save: 5% off" });
    expect(repeat({ subscribe_and_save_price: "", repeat_delivery_price: "£15.00", subscription_price: "14.00" })).toEqual({ price: 1500, terms: null });
    expect(repeat({ subscription_price: "GBP14.99", subscription_terms: "Easy Repeat" })).toEqual({ price: 1499, terms: "Easy Repeat" });
    // Equal to the price is a repeat price; above it, another currency, zero or not an amount is none (null: the row says none).
    expect(repeat({ repeat_delivery_price: "15.99" }).price).toBe(1599);
    for (const text of ["16.00", "EUR14.00", "0.00", "-1", "ask", ""]) {
      expect(repeat({ repeat_delivery_price: text, repeat_delivery_terms: "5% off" }), text).toEqual({ price: null, terms: null });
    }
    // Terms are cut to 200 characters.
    expect(repeat({ repeat_delivery_price: "15.00", repeat_delivery_terms: "t".repeat(250) }).terms).toBe("t".repeat(200));
  });

  it("keeps a was-price only when it is above the price, trying rrp_price then product_price_old", () => {
    const original = (over: Record<string, string>) => offerOf(parseFeedRow(row(over), 3)).originalPricePence;
    expect(original({ rrp_price: "18.99" })).toBe(1899);
    expect(original({ rrp_price: "15.99" })).toBeNull();
    expect(original({ rrp_price: "9.99" })).toBeNull();
    expect(original({ rrp_price: "", product_price_old: "17.49" })).toBe(1749);
    expect(original({ rrp_price: "12.00", product_price_old: "17.49" })).toBe(1749);
    expect(original({ rrp_price: "EUR 25.00" })).toBeNull();
    expect(original({ rrp_price: "n/a" })).toBeNull();
  });

  it("takes the barcode from ean, else product_GTIN, and drops one Excel mangled without dropping the row", () => {
    const gtin = (over: Record<string, string>) => offerOf(parseFeedRow(row(over), 3)).gtin;
    expect(gtin({ ean: "", product_GTIN: upc12 })).toBe(`0${upc12}`);
    expect(gtin({ ean: "5.01E+12" })).toBeNull();
    expect(gtin({ ean: "5.01E+12", product_GTIN: ean13 })).toBe(ean13);
    expect(gtin({ ean: "" })).toBeNull();
  });

  it("falls back for image, category, ids and the retailer page", () => {
    const offer = offerOf(
      parseFeedRow(
        row({
          merchant_image_url: "",
          category_name: "",
          aw_product_id: "",
          merchant_deep_link: "",
          aw_deep_link: "https://www.awin1.com/cread.php?awinmid=1&awinaffid=2&ued=https%3A%2F%2Fwww.petsathome.com%2Fproduct%2Fx%2FP1",
        }),
        3,
      ),
    );
    expect(offer.image).toBe("https://images2.productserve.com/?w=200&h=200&url=x");
    expect(offer.categoryName).toBe("Pet Supplies > Dogs > Food");
    expect(offer.externalId).toBe("B07ABCDEF1");
    expect(offer.url).toBe("https://www.petsathome.com/product/x/P1");
    const tracked = offerOf(parseFeedRow(row({ merchant_deep_link: "" }), 3));
    expect(tracked.url).toBe(fullRow.aw_deep_link);
  });

  it("leaves unknown or absent details empty rather than refusing the row", () => {
    const bare = {
      product_name: "Kong Classic Dog Toy Large",
      search_price: "12.99",
      merchant_id: "1234",
      aw_deep_link: "https://www.awin1.com/pclick.php?p=1&a=2&m=1234",
    };
    expect(offerOf(parseFeedRow(bare, 2))).toMatchObject({
      merchantName: "",
      merchantId: "1234",
      merchantKey: "awin-1234",
      externalId: "",
      brand: null,
      description: "",
      image: "",
      categoryName: "",
      originalPricePence: null,
      deliveryPence: null,
      inStock: null,
      gtin: null,
      mpn: null,
      packSize: null,
      lastUpdated: null,
    });
  });

  it("repairs mis-encoded text and decodes entities in names", () => {
    const offer = offerOf(parseFeedRow(row({ product_name: "Lilyâ€™s Kitchen PÃ¢tÃ© 6 x 150g", brand_name: "Lily&#39;s Kitchen" }), 3));
    expect(offer.name).toBe("Lily’s Kitchen Pâté 6 x 150g");
    expect(offer.brand).toBe("Lily's Kitchen");
    expect(offer.packSize).toBe("6x150g");
  });

  it("reads the pack size from base_price_text when the name has none, but not from a price per unit", () => {
    const pack = (text: string) => offerOf(parseFeedRow(row({ product_name: "Kong Classic Dog Toy", base_price_text: text }), 3)).packSize;
    expect(pack("400g")).toBe("400g");
    expect(pack("£5.00/kg")).toBeNull();
    expect(pack("£5.00 per kg")).toBeNull();
  });

  it("reads stock from in_stock, else stock_status", () => {
    const stock = (over: Record<string, string>) => offerOf(parseFeedRow(row(over), 3)).inStock;
    expect(stock({ in_stock: "out of stock" })).toBe(false);
    expect(stock({ in_stock: "", stock_status: "In Stock" })).toBe(true);
    expect(stock({ in_stock: "maybe" })).toBeNull();
  });
});
