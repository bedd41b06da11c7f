import { describe, expect, it } from "vitest";
import { parseCurrency, parsePriceText, parseSchemaPrice, readPriceText, type PriceText } from "./price-text.ts";

function price(pence: number, currency: string | null, flags: { from?: boolean; range?: boolean } = {}): PriceText {
  return { pence, currency, from: flags.from ?? false, range: flags.range ?? false };
}
const from = { from: true };
const range = { range: true };

/** Price text as UK and European shops print it, and what it means. */
const priceTexts: [string, PriceText | null][] = [
  // Pounds, with and without thousands
  ["£12.99", price(1299, "GBP")],
  ["£1,299.00", price(129900, "GBP")],
  ["£1,299", price(129900, "GBP")],
  ["£12", price(1200, "GBP")],
  ["£12.5", price(1250, "GBP")],
  ["£0.99", price(99, "GBP")],
  ["£0.01", price(1, "GBP")],
  ["£ 12.99", price(1299, "GBP")],
  ["£\u00a012.99", price(1299, "GBP")],
  ["  £12.99  ", price(1299, "GBP")],
  ["£12.99\n", price(1299, "GBP")],
  ["£  12.99", price(1299, "GBP")],
  ["£\u200b12.99", price(1299, "GBP")],
  ["£1299.00", price(129900, "GBP")],
  ["Now£9.99", price(999, "GBP")],
  ["£10,000.00", price(1000000, "GBP")],
  ["£100,000.00", price(10000000, "GBP")],
  ["£1,234,567.89", null],
  ["£19.99", price(1999, "GBP")],
  ["£0.29", price(29, "GBP")],
  ["£4.35", price(435, "GBP")],
  ["£1.10", price(110, "GBP")],
  ["£12.", price(1200, "GBP")],
  ["£12.99.", price(1299, "GBP")],
  // Pence
  ["99p", price(99, "GBP")],
  ["5p", price(5, "GBP")],
  ["99 p", price(99, "GBP")],
  ["Only 49p", price(49, "GBP")],
  ["9.5p", null],
  // Codes
  ["GBP 5", price(500, "GBP")],
  ["GBP5.00", price(500, "GBP")],
  ["12.99 GBP", price(1299, "GBP")],
  ["gbp 12.99", price(1299, "GBP")],
  ["EUR130.00", price(13000, "EUR")],
  ["EUR 130,00", price(13000, "EUR")],
  ["5,95 EUR", price(595, "EUR")],
  ["USD 10.00", price(1000, "USD")],
  ["10.00 USD", price(1000, "USD")],
  ["CHF 12.50", price(1250, "CHF")],
  ["129,00 PLN", price(12900, "PLN")],
  ["£12.99 GBP", price(1299, "GBP")],
  // Euro and dollar symbols
  ["12,99 €", price(1299, "EUR")],
  ["12,99€", price(1299, "EUR")],
  ["€12.99", price(1299, "EUR")],
  ["€1.299,00", price(129900, "EUR")],
  ["1.299,00 €", price(129900, "EUR")],
  ["1 299,00 €", price(129900, "EUR")],
  ["1\u202f299,00\u00a0€", price(129900, "EUR")],
  ["12,99\u202f€", price(1299, "EUR")],
  ["1.299 €", price(129900, "EUR")],
  ["€ 5", price(500, "EUR")],
  ["$10.00", price(1000, "USD")],
  ["US$10.00", price(1000, "USD")],
  ["A$15.95", price(1595, "AUD")],
  ["C$ 20", price(2000, "CAD")],
  ["$1,299.99", price(129999, "USD")],
  // Separators without a currency
  ["12.99", price(1299, null)],
  ["12.5", price(1250, null)],
  ["12", price(1200, null)],
  ["1299", price(129900, null)],
  ["Price: 12.99", price(1299, null)],
  ["12.99 inc VAT", price(1299, null)],
  ["1,299", price(129900, null)],
  ["1.299", price(129900, null)],
  ["1,299.00", price(129900, null)],
  ["1.299,00", price(129900, null)],
  ["1 299,00", price(129900, null)],
  ["1'299.00", price(129900, null)],
  ["12,99", price(1299, null)],
  ["12,9", price(1290, null)],
  ["0,99", price(99, null)],
  ["1,234,567", null],
  ["1.234.567,89", null],
  ["12.345", price(1234500, null)],
  ["12.9900", price(1299, null)],
  ["12.994", price(1299400, null)],
  ["12.9940", price(1299, null)],
  ["12.9950", price(1300, null)],
  ["1,2345", price(123, null)],
  ["1,2,3", null],
  ["1,29,900", null],
  ["1.299.00", null],
  ["1'29", null],
  ["1,234,5", null],
  ["1,299.000", price(129900, null)],
  ["1.299,005", price(129901, null)],
  // Starting prices
  ["from £3.49", price(349, "GBP", from)],
  ["From £3.49", price(349, "GBP", from)],
  ["From: £3.49", price(349, "GBP", from)],
  ["FROM £3.49", price(349, "GBP", from)],
  ["ab 3,49 €", price(349, "EUR", from)],
  ["Starting at $5", price(500, "USD", from)],
  ["as low as £2.00", price(200, "GBP", from)],
  ["à partir de 3,49 €", price(349, "EUR", from)],
  // Ranges: the low end
  ["£5.29 - £9.56", price(529, "GBP", range)],
  ["£5.29 – £9.56", price(529, "GBP", range)],
  ["£5.29-£9.56", price(529, "GBP", range)],
  ["£5.29 to £9.56", price(529, "GBP", range)],
  ["5,29 € - 9,56 €", price(529, "EUR", range)],
  ["£9.56 - £5.29", price(529, "GBP", range)],
  ["From £5.29 - £9.56", price(529, "GBP", { from: true, range: true })],
  ["£3.49 (from our partners)", price(349, "GBP")],
  ["5.29 - 9.56", price(529, null, range)],
  // Words around the price
  ["£12.99 inc. VAT", price(1299, "GBP")],
  ["£12.99 inc VAT", price(1299, "GBP")],
  ["Now £9.99", price(999, "GBP")],
  ["Now only £9.99!", price(999, "GBP")],
  ["Price: £12.99", price(1299, "GBP")],
  ["Our price £12.99", price(1299, "GBP")],
  ["Was £12.99 Now £9.99", price(999, "GBP")],
  ["RRP £14.99 £9.99", price(999, "GBP")],
  ["RRP: £14.99, our price £9.99", price(999, "GBP")],
  ["Save £3.00 £9.99", price(999, "GBP")],
  ["£9.99 Save £3.00", price(999, "GBP")],
  ["20% off £9.99", price(999, "GBP")],
  ["£3 off", null],
  ["£12.99 (£6.50/kg)", price(1299, "GBP")],
  ["£12.99 £6.50 per kg", price(1299, "GBP")],
  ["£1.30/kg", null],
  ["£0.26 / 100g", null],
  ["£24.99 + £3.99 delivery", price(2499, "GBP")],
  ["Delivery: £3.99", null],
  ["Pack of 12 £9.99", price(999, "GBP")],
  ["2 x £5.00", price(500, "GBP")],
  ["2 for £5", price(500, "GBP")],
  ["12kg", null],
  ["12 kg", null],
  ["Model X200", null],
  ["Code 5012345678901 £9.99", price(999, "GBP")],
  ["5012345678901", null],
  ["0800", null],
  ["Agent 007", null],
  // Nothing that is a price
  ["", null],
  ["   ", null],
  ["Free", null],
  ["FREE delivery", null],
  ["Price: N/A", null],
  ["N/A", null],
  ["Out of stock", null],
  ["£", null],
  ["£.", null],
  ["£0.00", null],
  ["£0", null],
  ["0.00", null],
  ["-£5.00", null],
  ["£-5.00", null],
  ["Price: -12.99", null],
  ["−£5.00", null],
  ["£999,999,999.00", null],
  ["£100,000.01", null],
  ["£12,34,56", null],
];

describe("parsePriceText", () => {
  it("reads more than a hundred price strings", () => {
    expect(priceTexts.length).toBeGreaterThan(100);
  });
  it.each(priceTexts)("%j", (text, expected) => {
    expect(parsePriceText(text)).toEqual(expected);
  });
  it("counts hundredths on the digits, so no float drift creeps in", () => {
    for (let pence = 1; pence <= 100_000; pence += 7) {
      const text = `£${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, "0")}`;
      expect(parsePriceText(text)?.pence).toBe(pence);
    }
  });
});

describe("parseSchemaPrice", () => {
  const values: [unknown, number | null][] = [
    ["12.99", 1299],
    [12.99, 1299],
    ["1299.00", 129900],
    ["12.990", 1299],
    ["12.990000", 1299],
    ["12", 1200],
    [12, 1200],
    [19.99, 1999],
    [0.29, 29],
    ["0.29", 29],
    [0.1 + 0.2, 30],
    [".99", 99],
    [" 12.99 ", 1299],
    [" 12.990 ", 1299],
    ["\u00a012.990", 1299],
    ["12,99", 1299],
    ["12,9", 1290],
    ["1,299.00", 129900],
    ["£12.99", 1299],
    ["12,99 €", 1299],
    // A third decimal rounds half up, on the digits.
    ["1.005", 101],
    [1.005, 101],
    ["1.004", 100],
    ["12.994", 1299],
    ["12.995", 1300],
    ["0.005", 1],
    ["0.004", null],
    ["100000", 10000000],
    ["100000.01", null],
    ["", null],
    [".", null],
    ["0", null],
    [0, null],
    ["0.00", null],
    [-5, null],
    ["-5", null],
    [1e21, null],
    [1e-7, null],
    [NaN, null],
    [Infinity, null],
    ["abc", null],
    ["N/A", null],
    [null, null],
    [undefined, null],
    [true, null],
    [["12.99"], null],
    [{ price: "12.99" }, null],
  ];
  it.each(values)("%j", (value, expected) => {
    expect(parseSchemaPrice(value)).toBe(expected);
  });
});

describe("parseCurrency", () => {
  const values: [unknown, string | null][] = [
    ["GBP", "GBP"],
    ["gbp", "GBP"],
    [" EUR ", "EUR"],
    ["usd", "USD"],
    ["£", "GBP"],
    ["€", "EUR"],
    ["$", "USD"],
    ["US$", "USD"],
    ["pounds", null],
    ["", null],
    ["GB", null],
    [826, null],
    [null, null],
  ];
  it.each(values)("%j", (value, expected) => {
    expect(parseCurrency(value)).toBe(expected);
  });
});

describe("non-prices are refused with a reason", () => {
  it.each([
    ["(5.00)", "accounting negative"],
    ["(£5.00)", "accounting negative"],
    ["1/2", "fraction"],
    ["12/05/2024", "fraction"],
    ["-£5", "negative amount"],
    ["£5.00-", "negative amount"],
    ["£3.50/kg", "no price among the amounts"],
    ["Free", "no amount"],
    ["x".repeat(2000), "text too long"],
  ] as const)("%s", (text, reason) => {
    expect(readPriceText(text)).toEqual({ ok: false, reason });
    expect(parsePriceText(text)).toBeNull();
  });

  it("reads a price beside a fraction of a pack", () => {
    expect(parsePriceText("1 1/2 kg £5")).toMatchObject({ pence: 500, currency: "GBP" });
  });
});

describe("the £100,000 cap is about pounds", () => {
  it("reports a large amount in another currency", () => {
    expect(parseSchemaPrice("450000.00", "COP")).toBe(45_000_000);
    expect(parsePriceText("COP 450.000,00")).toMatchObject({ pence: 45_000_000, currency: "COP" });
  });
  it("refuses the same number in pounds or with no currency", () => {
    expect(parseSchemaPrice("450000.00", "GBP")).toBeNull();
    expect(parseSchemaPrice("450000.00")).toBeNull();
    expect(parsePriceText("£450,000.00")).toBeNull();
  });
});
