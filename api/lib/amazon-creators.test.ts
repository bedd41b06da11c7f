/**
 * The Amazon Creators API source against a local server speaking its protocol (token, then
 * searchItems with the bearer token and marketplace header): items become offers, non-GBP and
 * unpriced items are reported, an API refusal stops with the API's message; and imported through
 * the importer into a real SQLite file.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { amazonBestSellers, AmazonApiError, itemToOffer } from "./amazon-creators.ts";
import { importFeed } from "../jobs/product-import.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

interface Seen {
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

let server: Server;
let origin: string;
const seen: Seen[] = [];
let refuse: string | null = null;

const item = (asin: string, title: string, amount: number | string, currency = "GBP", extra: Record<string, unknown> = {}) => ({
  asin,
  detailPageURL: `https://www.amazon.co.uk/dp/${asin}?tag=paw-21`,
  itemInfo: {
    title: { displayValue: title },
    byLineInfo: { brand: { displayValue: "Lily's Kitchen" } },
    externalIds: { eans: { displayValues: ["5060184240017"] } },
    features: { displayValues: ["Grain free.", "Made in the UK."] },
  },
  images: { primary: { large: { url: `https://m.media-amazon.com/images/I/${asin}.jpg` } } },
  offersV2: { listings: [{ price: { money: { amount, currency } }, availability: { type: "IN_STOCK" } }] },
  ...extra,
});

beforeAll(async () => {
  server = createServer(async (request, response) => {
    let raw = "";
    for await (const chunk of request) raw += chunk;
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    seen.push({ path: request.url ?? "", headers: request.headers, body });
    const send = (status: number, data: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(data));
    if (request.url === "/token") {
      if (body.client_secret !== "s3cret") return send(401, { error: "invalid_client", error_description: "Client authentication failed" });
      return send(200, { access_token: "tok-123", token_type: "bearer", expires_in: 3600 });
    }
    if (request.url === "/catalog/v1/searchItems") {
      if (request.headers.authorization !== "Bearer tok-123") return send(401, { errors: [{ code: "Unauthorized", message: "Bad token" }] });
      if (refuse) return send(403, { errors: [{ code: "AssociateNotEligible", message: refuse }] });
      if (body.keywords === "dry dog food") {
        return send(200, {
          searchResult: {
            items: [
              item("B0DOG00001", "Lily's Kitchen Chicken & Duck Dry Dog Food 2.5kg", 21.99),
              item("B0DOG00002", "Lily's Kitchen Lamb Dry Dog Food 7kg", "49.5", "EUR"),
              { asin: "B0DOG00003", itemInfo: { title: { displayValue: "Unpriced Biscuits" } }, detailPageURL: "https://www.amazon.co.uk/dp/B0DOG00003" },
            ],
          },
        });
      }
      return send(200, { searchResult: { items: [] } });
    }
    send(404, { message: "no route" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const config = (over: Record<string, unknown> = {}) => ({
  credentialId: "amzn1.application-oa2-client.test",
  credentialSecret: "s3cret",
  partnerTag: "paw-21",
  tokenUrl: `${origin}/token`,
  apiUrl: origin,
  searches: [{ keywords: "dry dog food", category: "Dog Food" }, { keywords: "cat litter", category: "Cat Litter" }],
  ...over,
});

async function collect(source: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const entry of source) items.push(entry);
  return items;
}

describe("amazonBestSellers", () => {
  it("gets a token, searches each category with it, and turns items into GBP offers (others reported)", async () => {
    seen.length = 0;
    const items = await collect(amazonBestSellers(config()));
    expect(seen.map((request) => request.path)).toEqual(["/token", "/catalog/v1/searchItems", "/catalog/v1/searchItems"]);
    expect(seen[0]!.body).toEqual({ grant_type: "client_credentials", client_id: "amzn1.application-oa2-client.test", client_secret: "s3cret", scope: "creatorsapi::default" });
    const search = seen[1]!;
    expect(search.headers.authorization).toBe("Bearer tok-123");
    expect(search.headers["x-marketplace"]).toBe("www.amazon.co.uk");
    expect(search.body).toMatchObject({ partnerTag: "paw-21", partnerType: "Associates", marketplace: "www.amazon.co.uk", keywords: "dry dog food", itemCount: 10, itemPage: 1 });
    expect(items).toEqual([
      {
        kind: "offer",
        offer: expect.objectContaining({
          merchantKey: "amazon",
          externalId: "B0DOG00001",
          name: "Lily's Kitchen Chicken & Duck Dry Dog Food 2.5kg",
          brand: "Lily's Kitchen",
          categoryName: "Dog Food",
          url: "https://www.amazon.co.uk/dp/B0DOG00001?tag=paw-21",
          pricePence: 2199,
          inStock: true,
          gtin: "5060184240017",
          description: "Grain free. Made in the UK.",
        }),
      },
      { kind: "error", line: 2, error: "\"Lily's Kitchen Lamb Dry Dog Food 7kg\": priced in EUR, not GBP (not imported)" },
      { kind: "error", line: 3, error: '"Unpriced Biscuits": no price offered' },
    ]);
  });

  it("stops with the API's own message when it refuses (wrong secret, account not eligible)", async () => {
    await expect(collect(amazonBestSellers(config({ credentialSecret: "wrong" })))).rejects.toThrow(
      new AmazonApiError("The Amazon Creators API refused the request: Client authentication failed"),
    );
    refuse = "Your account is not eligible: it needs qualifying sales in the last 30 days";
    try {
      await expect(collect(amazonBestSellers(config()))).rejects.toThrow(/not eligible: it needs qualifying sales/);
    } finally {
      refuse = null;
    }
  });

  it("refuses an item whose page is not on amazon.co.uk", () => {
    expect(itemToOffer({ ...item("B0X", "Thing", 5), detailPageURL: "https://evil.example/dp/B0X" }, "Dog Food", 0)).toEqual({
      kind: "error",
      line: 1,
      error: '"Thing": no amazon.co.uk page',
    });
  });
});

describe("importing from the Amazon source", () => {
  let temp: TempDb;
  beforeAll(async () => {
    temp = await tempDb(5);
  });
  afterAll(() => temp.remove());

  it("creates the GBP product at Amazon, featured, and reports the rest", async () => {
    const summary = await importFeed(temp.db, amazonBestSellers(config()), { source: { name: "amazon", createProducts: true } });
    expect(summary).toMatchObject({ created: 1, rejected: 2, totalErrors: 2 });
    const product = temp.db.$client
      .prepare("SELECT p.is_featured AS featured, p.gtin, r.key AS retailer, pp.price_pence AS price FROM products p JOIN product_prices pp ON pp.product_id = p.id JOIN retailers r ON r.id = pp.retailer_id WHERE p.name = ?")
      .get("Lily's Kitchen Chicken & Duck Dry Dog Food 2.5kg");
    expect(product).toEqual({ featured: 1, gtin: "5060184240017", retailer: "amazon", price: 2199 });
  });
});
