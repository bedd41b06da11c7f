/**
 * Product details (data/domain/product-details.ts) over a real SQLite file: each one's column is
 * what the table says, and every detail goes in through the catalogue input and the writer and
 * comes back out of every product read (the API's and the build's product, the edit form's load,
 * the listing), an update stores it and names it in the audit log, and an update without it
 * clears it, as for every field a product update replaces.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProduct, updateProduct } from "./catalogue-writer/products.ts";
import { getProductById, getProductBySlug, listProducts } from "./products.ts";
import { getAdminProduct } from "./admin-reads.ts";
import { latestAudit } from "./audit.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";
import { productInput } from "../domain/catalogue-input.ts";
import { canonicalDetail, productDetailList, productDetails, type ProductDetailValues } from "../domain/product-details.ts";

let temp: TempDb;
let categoryId: number;

beforeAll(async () => {
  temp = await tempDb(0);
  categoryId = (temp.db.$client.prepare("INSERT INTO categories (name, slug, icon, description) VALUES ('Dog Food', 'dog-food', 'bone', '') RETURNING id").get() as { id: number }).id;
});
afterAll(() => temp.remove());

/**
 * A value for each detail that names it, so one read back in another's place is caught: text
 * naming the detail; for a choice, its choice at `pick` (a multiple one, that and its last).
 */
const sample = (detail: (typeof productDetailList)[number], word: string, pick: number): string => {
  if (!detail.choices) return `${word} ${detail.key}`;
  return detail.multiple ? `${detail.choices[pick]!.value},${detail.choices.at(-1)!.value}` : detail.choices[pick]!.value;
};
const valuesNamed = (word: string, pick = 0): ProductDetailValues =>
  Object.fromEntries(productDetailList.map((detail) => [detail.key, sample(detail, word, pick)])) as ProductDetailValues;

describe("product detail columns", () => {
  it("each is a text column of the products table, NOT NULL with empty text by default", () => {
    const columns = temp.db.$client.prepare("SELECT name, type, \"notnull\" AS required, dflt_value AS fallback FROM pragma_table_info('products')").all() as {
      name: string;
      type: string;
      required: number;
      fallback: string | null;
    }[];
    expect(productDetailList.length).toBeGreaterThan(0);
    for (const detail of productDetailList) {
      expect(columns.find((column) => column.name === detail.column)).toEqual({ name: detail.column, type: "TEXT", required: 1, fallback: "''" });
    }
  });
});

describe("a product's details through the writer and every read", () => {
  it("are stored as typed (trimmed) and read back by each read, each under its own name", () => {
    const padded = Object.fromEntries(productDetailList.map((detail) => [detail.key, `  ${sample(detail, "first", 0)}\n`]));
    const { value } = createProduct(temp.db, productInput.parse({ name: "Detail Dog Food 2kg", categoryId, ...padded }));
    const expected = valuesNamed("first");

    const stored = temp.db.$client.prepare(`SELECT ${productDetailList.map((detail) => detail.column).join(", ")} FROM products WHERE id = ?`).get(value.id);
    expect(stored).toEqual(Object.fromEntries(productDetailList.map((detail) => [detail.column, sample(detail, "first", 0)])));
    expect(getProductById(temp.db, value.id)).toMatchObject(expected);
    expect(getProductBySlug(temp.db, value.slug)).toMatchObject(expected);
    expect(getAdminProduct(temp.db, value.id)).toMatchObject(expected);
    expect(listProducts(temp.db, {}, { sort: "rank_asc", offset: 0, limit: 50 }).find((product) => product.id === value.id)).toMatchObject(expected);
  });

  it("an update stores a changed detail and names it in the audit log; one left out is cleared", () => {
    const { value } = createProduct(temp.db, productInput.parse({ name: "Detail Cat Food 1kg", categoryId, ...valuesNamed("old") }));
    const [changed] = productDetailList;
    updateProduct(temp.db, value.id, productInput.parse({ name: "Detail Cat Food 1kg", categoryId, ...valuesNamed("old"), [changed!.key]: "new text" }));
    expect(getProductById(temp.db, value.id)).toMatchObject({ ...valuesNamed("old"), [changed!.key]: "new text" });
    expect(latestAudit(temp.db, 1)[0]!.summary).toBe(`Updated product "Detail Cat Food 1kg": ${changed!.key}`);

    updateProduct(temp.db, value.id, productInput.parse({ name: "Detail Cat Food 1kg", categoryId }));
    expect(getAdminProduct(temp.db, value.id)).toMatchObject(Object.fromEntries(productDetailList.map((detail) => [detail.key, ""])));
  });
});

describe("the catalogue input's check of each detail", () => {
  it("takes exactly its most characters and refuses one more, naming the detail", () => {
    for (const detail of productDetailList.filter((each) => !each.choices)) {
      const atMost = productInput.safeParse({ name: "Boundary", categoryId: 1, [detail.key]: "x".repeat(detail.maxLength) });
      expect(atMost.success).toBe(true);
      const over = productInput.safeParse({ name: "Boundary", categoryId: 1, [detail.key]: "x".repeat(detail.maxLength + 1) });
      expect(over.success).toBe(false);
      expect(over.error?.issues[0]?.message).toBe(`${detail.key} must be at most ${detail.maxLength} characters`);
      expect(over.error?.issues[0]?.path).toEqual([detail.key]);
    }
  });

  it("takes one of a choice's values, or none, and refuses any other, naming what it offers", () => {
    for (const detail of productDetailList.filter((each) => each.choices)) {
      const offered = detail.choices!.map((choice) => choice.value);
      for (const value of [...offered, ""]) expect(productInput.parse({ name: "Choice", categoryId: 1, [detail.key]: value })[detail.key]).toBe(value);
      const other = productInput.safeParse({ name: "Choice", categoryId: 1, [detail.key]: "kangaroo" });
      expect(other.error?.issues[0]?.message).toBe(`${detail.key} must be ${detail.multiple ? "any of" : "one of"} ${offered.join(", ")}`);
      expect(other.error?.issues[0]?.path).toEqual([detail.key]);
    }
    // One choice only where the detail takes one; several, in the choices' order, where it takes many.
    expect(productInput.safeParse({ name: "Choice", categoryId: 1, foodType: "dry,wet" }).success).toBe(false);
    expect(productInput.parse({ name: "Choice", categoryId: 1, specialDiets: " sensitive , grain-free,sensitive" }).specialDiets).toBe("grain-free,sensitive");
    expect(productInput.safeParse({ name: "Choice", categoryId: 1, specialDiets: "grain-free,vegan" }).success).toBe(false);
  });

  it("reads a value as stored: trimmed, a choice's several in its order, null for what it does not offer", () => {
    expect(canonicalDetail(productDetails.description, "  Grain free.  ")).toBe("Grain free.");
    expect(canonicalDetail(productDetails.foodType, " wet ")).toBe("wet");
    expect(canonicalDetail(productDetails.foodType, "   ")).toBe("");
    expect(canonicalDetail(productDetails.foodType, "dry,wet")).toBeNull();
    expect(canonicalDetail(productDetails.specialDiets, " sensitive , grain-free ")).toBe("grain-free,sensitive");
    expect(canonicalDetail(productDetails.specialDiets, "grain-free,")).toBeNull();
  });

  it("refuses a detail that is not text and defaults one left out to empty", () => {
    for (const detail of productDetailList) {
      const notText = productInput.safeParse({ name: "Typed", categoryId: 1, [detail.key]: 42 });
      expect(notText.error?.issues[0]?.message).toBe(`${detail.key} must be text`);
    }
    expect(productInput.parse({ name: "Left out", categoryId: 1 })).toMatchObject(Object.fromEntries(productDetailList.map((detail) => [detail.key, ""])));
  });
});
