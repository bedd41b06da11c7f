/**
 * The row types of data/db/rows.ts against the schema and the migrated database. Two halves:
 * - types (checked by `tsc`): a row is keyed by SQL column name, a boolean column reads as an
 *   integer, a nullable column as null too, an enum column as its union; picking a column the
 *   table does not have fails;
 * - the database: what the types are derived from (each column's SQL name, whether it may be
 *   null) is what the migrations built, table by table, so a row typed from the schema is the
 *   row a raw query gets back.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.ts";
import type { PriceHoldRow, ProductPriceRow, ProductRow, RetailerRow, SqlRow } from "./rows.ts";
import type { LegalCategory } from "../domain/legal-category.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";

describe("row types derived from the schema", () => {
  it("key a row by SQL column name, with the values SQLite returns", () => {
    expectTypeOf<ProductPriceRow["price_pence"]>().toEqualTypeOf<number>();
    expectTypeOf<ProductPriceRow["original_price_pence"]>().toEqualTypeOf<number | null>();
    // Boolean columns are stored as 0/1 and come back as integers, not booleans.
    expectTypeOf<ProductPriceRow["in_stock"]>().toEqualTypeOf<number>();
    expectTypeOf<PriceHoldRow["in_stock"]>().toEqualTypeOf<number | null>();
    expectTypeOf<ProductRow["legal_category"]>().toEqualTypeOf<LegalCategory>();
    expectTypeOf<RetailerRow["free_delivery_from_pence"]>().toEqualTypeOf<number | null>();
    expectTypeOf<"repeat_terms">().toExtend<keyof ProductPriceRow>();
    expectTypeOf<"pricePence">().not.toExtend<keyof ProductPriceRow>();
  });

  it("refuse a column the table does not have", () => {
    // @ts-expect-error -- product_prices has no column "price" (it is price_pence).
    expectTypeOf<Pick<ProductPriceRow, "price">>().toBeObject();
    // @ts-expect-error -- products keeps its category as category_id.
    expectTypeOf<Pick<ProductRow, "categoryId">>().toBeObject();
  });
});

/** The columns of product_prices, exactly the keys of its row type (an extra or a missing one fails `tsc`). */
const productPriceColumns = {
  id: true,
  product_id: true,
  retailer_id: true,
  price_pence: true,
  original_price_pence: true,
  url: true,
  in_stock: true,
  free_delivery: true,
  price_override: true,
  manual_price_pence: true,
  updated_at: true,
  delivery_pence: true,
  last_checked_at: true,
  stale: true,
  source: true,
  page_etag: true,
  page_last_modified: true,
  repeat_price_pence: true,
  repeat_terms: true,
  multi_buy: true,
  member_price_pence: true,
  member_scheme: true,
} satisfies Record<keyof SqlRow<typeof schema.productPrices>, true>;

interface TableInfo {
  name: string;
  notnull: number;
  pk: number;
  type: string;
}

describe("the schema the row types come from is the migrated database", () => {
  let temp: TempDb;
  beforeAll(async () => {
    temp = await tempDb();
  });
  afterAll(() => temp.remove());

  const tableInfo = (table: string) => temp.db.$client.prepare<[], TableInfo>(`SELECT name, "notnull", pk, type FROM pragma_table_info('${table}') ORDER BY cid`).all();
  const tables = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable => value instanceof SQLiteTable);

  it("covers every table of the database", () => {
    const stored = temp.db.$client
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name NOT LIKE 'product_search%' ORDER BY name",
      )
      .all()
      .map((row) => row.name);
    expect(tables.map((table) => getTableConfig(table).name).sort()).toEqual(stored);
  });

  it("has, table by table, the columns, nullability and storage the row types say", () => {
    for (const table of tables) {
      const config = getTableConfig(table);
      const declared = config.columns
        .map((column) => ({
          name: column.name,
          // A primary key column is never null, whatever the pragma says of an INTEGER PRIMARY KEY.
          nullable: !column.notNull && !column.primary,
          // A boolean column is stored as an integer (its row type reads 0/1).
          type: column.getSQLType(),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
      const stored = tableInfo(config.name)
        .map((column) => ({ name: column.name, nullable: column.notnull === 0 && column.pk === 0, type: column.type.toLowerCase() }))
        .sort((a, b) => a.name.localeCompare(b.name));
      expect({ table: config.name, columns: declared }).toEqual({ table: config.name, columns: stored });
    }
  });

  it("gives product_prices' row type exactly the table's columns", () => {
    expect(Object.keys(productPriceColumns).sort()).toEqual(
      tableInfo("product_prices")
        .map((column) => column.name)
        .sort(),
    );
  });
});
