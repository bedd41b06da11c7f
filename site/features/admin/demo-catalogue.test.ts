import { describe, expect, it } from "vitest";
import { clearDemoQuestion, clearedDemoText } from "./demo-catalogue.ts";

describe("clearDemoQuestion", () => {
  it("says what goes and what stays, with counts", () => {
    expect(clearDemoQuestion({ demo: true, products: 480, keptProducts: 2, offers: 1410, vouchers: 8 })).toBe(
      [
        "Remove the demo catalogue?",
        "Removes 478 demo products, 1,410 demo offers with their price history and 8 demo vouchers.",
        "Keeps 2 demo products you gave offers of your own (they become yours), your own products, retailers, categories, affiliate IDs and subscribers.",
        "The public site is then rebuilt without the demo line. Only `npm run seed` brings a demo back.",
      ].join("\n\n"),
    );
  });

  it("leaves out kept demo products when there are none, and counts one as one", () => {
    const question = clearDemoQuestion({ demo: true, products: 1, keptProducts: 0, offers: 1, vouchers: 1 });
    expect(question).toContain("Removes 1 demo product, 1 demo offer with their price history and 1 demo voucher.");
    expect(question).toContain("Keeps your own products, retailers");
  });
});

describe("clearedDemoText", () => {
  it("says what went, and what was kept when anything was", () => {
    expect(clearedDemoText({ products: 478, keptProducts: 2, offers: 1410, historyPoints: 5200, vouchers: 8 })).toBe(
      "Removed 478 products, 1,410 offers and 8 vouchers; kept 2 products with your own offers. The public site is being rebuilt.",
    );
    expect(clearedDemoText({ products: 1, keptProducts: 0, offers: 1, historyPoints: 1, vouchers: 0 })).toBe(
      "Removed 1 product, 1 offer and 0 vouchers. The public site is being rebuilt.",
    );
  });
});
