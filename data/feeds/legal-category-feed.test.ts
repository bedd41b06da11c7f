/**
 * A veterinary medicine's legal category read from a feed in every layout: Awin's publisher
 * download and merchant upload, Google Merchant Center (TSV and XML) and a mapped CSV, from any of
 * legal_category, vmd_category or distribution_category. An empty cell says nothing; a value that
 * is not a category makes the row an error (never a crash, never a product without its category).
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readFeed, type FeedItem } from "./read-feed.ts";
import type { FeedReadOptions } from "./read-feed.ts";

const read = async (text: string, options: FeedReadOptions = {}): Promise<FeedItem[]> => {
  const items: FeedItem[] = [];
  for await (const item of readFeed(Readable.from([Buffer.from(text)]), { retailerKey: "zooplus", ...options })) items.push(item);
  return items;
};

/** Each item as its legal category (absent: "-"), or its error. */
const categories = (items: FeedItem[]) => items.map((item) => (item.kind === "offer" ? (item.offer.legalCategory ?? "-") : item.error));

describe("legal category in feeds", () => {
  it("reads it from an Awin publisher feed's legal_category column, however the code is written", async () => {
    const header = "aw_deep_link,product_name,search_price,merchant_name,merchant_deep_link,legal_category";
    const row = (name: string, category: string) => `https://www.awin1.com/p?1,${name},9.99,Zooplus UK,https://www.zooplus.co.uk/p/${name.length},${category}`;
    const items = await read([header, row("Wormer A", "POM-V"), row("Wormer BB", "pom vps"), row("Flea CCC", ""), row("Flea DDDD", "NFA-VPS"), row("Flea EEEEE", "GSL")].join("\n"));
    expect(categories(items)).toEqual(["POM-V", "POM-VPS", "-", "NFA-VPS", 'line 6: legal category "GSL" is not one of POM-V, POM-VPS, NFA-VPS, AVM-GSL (not imported)']);
  });

  it("takes the first non-empty of legal_category, vmd_category and distribution_category", async () => {
    const header = "product_name,search_price,merchant_name,merchant_deep_link,legal_category,vmd_category,distribution_category";
    const row = (name: string, cells: string) => `${name},9.99,Zooplus UK,https://www.zooplus.co.uk/p/${name.length},${cells}`;
    const items = await read([header, row("A", "AVM-GSL,POM-V,POM-V"), row("Bb", ",POM-VPS,AVM-GSL"), row("Ccc", ",,POM-V"), row("Dddd", ",,")].join("\n"));
    expect(categories(items)).toEqual(["AVM-GSL", "POM-VPS", "POM-V", "-"]);
  });

  it("reads vmd_category from an Awin merchant upload and a Google Merchant Center TSV", async () => {
    const merchant = await read(["product_id,product_name,product_url,price,currency,vmd_category", "1,Wormer,https://www.zooplus.co.uk/p/1,9.99,GBP,POM-VPS"].join("\n"));
    expect(categories(merchant)).toEqual(["POM-VPS"]);
    const google = await read(["id\ttitle\tlink\tprice\tavailability\tdistribution_category", "1\tWormer\thttps://www.zooplus.co.uk/p/1\t9.99 GBP\tin stock\tPOM-V", "2\tCollar\thttps://www.zooplus.co.uk/p/2\t5.99 GBP\tin stock\tSQP"].join("\n"));
    expect(categories(google)).toEqual(["POM-V", 'line 3: legal category "SQP" is not one of POM-V, POM-VPS, NFA-VPS, AVM-GSL (not imported)']);
  });

  it("reads g:legal_category from a Google Merchant Center XML feed", async () => {
    const item = (id: string, category: string) =>
      `<item><g:id>${id}</g:id><title>Wormer ${id}</title><link>https://www.zooplus.co.uk/p/${id}</link><g:price>9.99 GBP</g:price><g:legal_category>${category}</g:legal_category></item>`;
    const xml = `<?xml version="1.0"?><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>${item("1", "POM-V")}${item("2", "NFA VPS")}</channel></rss>`;
    expect(categories(await read(xml))).toEqual(["POM-V", "NFA-VPS"]);
  });

  it("reads the column a mapped feed's mapping names for it, and nothing when the mapping names none", async () => {
    const csv = ["Title,Cost,Url,Schedule", "Wormer,9.99,https://www.zooplus.co.uk/p/1,POM-V"].join("\n");
    const mapping = { name: "Title", price: "Cost", link: "Url" };
    expect(categories(await read(csv, { layout: "mapped", mapping: { ...mapping, legalCategory: "Schedule" } }))).toEqual(["POM-V"]);
    expect(categories(await read(csv, { layout: "mapped", mapping }))).toEqual(["-"]);
  });
});
