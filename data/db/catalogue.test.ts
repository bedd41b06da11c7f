import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAffiliateIds, listComparisonRetailers, listVouchers, type VoucherFilter } from "./catalogue.ts";
import { tempDb, type TempDb } from "./fixtures/temp-db.ts";
import { retailerHosts } from "../domain/retailers.ts";

let temp: TempDb;
beforeAll(async () => {
  temp = await tempDb(30);
});
afterAll(() => temp.remove());

const sql = (text: string, ...params: unknown[]) => temp.db.$client.prepare(text).run(...params);
const filter = (over: Partial<VoucherFilter> = {}): VoucherFilter => ({ status: "all", sort: "expiry", offset: 0, limit: 100, ...over });

describe("getAffiliateIds", () => {
  it("reads all five IDs, an unset one as an empty string", () => {
    sql("UPDATE affiliate_settings SET value = 'tag-21' WHERE key = 'AMAZON'");
    sql("DELETE FROM affiliate_settings WHERE key = 'EBAY'");
    const ids = getAffiliateIds(temp.db);
    expect(Object.keys(ids).sort()).toEqual(["AMAZON", "EBAY", "JOLLYES", "PETS_AT_HOME", "ZOOPLUS"]);
    expect(ids.AMAZON).toBe("tag-21");
    expect(ids.EBAY).toBe("");
    expect(ids.ZOOPLUS).not.toBe("");
  });
});

describe("listComparisonRetailers", () => {
  it("lists the retailers flagged as compared, by name, and not the voucher-only ones", () => {
    const expected = (
      temp.db.$client
        .prepare(
          `SELECT id, key, name, logo, website, description, delivery_pence / 100.0 AS deliveryCharge, free_delivery_from_pence / 100.0 AS freeDeliveryFrom
           FROM retailers WHERE id IN (SELECT retailer_id FROM product_prices) ORDER BY name COLLATE NOCASE`,
        )
        .all() as object[]
    ).map((row) => {
      const { key, website } = row as { key: string; website: string };
      return { ...row, comparesPrices: true, hosts: [], feedNames: [], offerHosts: retailerHosts({ key, website, hosts: [] }) };
    });
    const all = temp.db.$client.prepare("SELECT count(*) AS n FROM retailers").get() as { n: number };
    const listed = listComparisonRetailers(temp.db);
    expect(listed).toEqual(expected);
    expect(listed.length).toBeGreaterThan(1);
    expect(listed.length).toBeLessThan(all.n);
  });
});

describe("listVouchers", () => {
  const today = "2026-06-15";
  beforeAll(() => {
    sql("DELETE FROM vouchers");
    const insert = temp.db.$client.prepare("INSERT INTO vouchers (code, description, retailer, url, discount, expiry_date, uses) VALUES (?, 'd', ?, 'https://example.com', '10%', ?, ?)");
    insert.run("TODAY", "Amazon", today, 5);
    insert.run("YESTERDAY", "Amazon", "2026-06-14", 9);
    insert.run("TOMORROW", "Zooplus", "2026-06-16", 5);
    insert.run("LATER", "Amazon", "2026-07-01", 1);
  });
  const codes = (result: { vouchers: { code: string }[] }) => result.vouchers.map((v) => v.code);

  it("counts a voucher valid through its expiry date, and not the day after", () => {
    const { vouchers } = listVouchers(temp.db, filter(), today);
    expect(vouchers.map((v) => [v.code, v.isValid])).toEqual([
      ["YESTERDAY", false],
      ["TODAY", true],
      ["TOMORROW", true],
      ["LATER", true],
    ]);
    expect(codes(listVouchers(temp.db, filter({ status: "active" }), today))).toEqual(["TODAY", "TOMORROW", "LATER"]);
  });

  it("combines the active filter with a retailer, counting the same set", () => {
    const result = listVouchers(temp.db, filter({ status: "active", retailer: "amazon" }), today);
    expect(codes(result)).toEqual(["TODAY", "LATER"]);
    expect(result.total).toBe(2);
  });

  it("orders by uses, a tie by the sooner expiry", () => {
    expect(codes(listVouchers(temp.db, filter({ sort: "popular" }), today))).toEqual(["YESTERDAY", "TODAY", "TOMORROW", "LATER"]);
  });

  it("pages, with the unpaged total", () => {
    const page = listVouchers(temp.db, filter({ offset: 1, limit: 2 }), today);
    expect(codes(page)).toEqual(["TODAY", "TOMORROW"]);
    expect(page.total).toBe(4);
  });
});
