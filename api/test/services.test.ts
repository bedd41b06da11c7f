/**
 * createServices over a real SQLite file: the catalogue change signal drops cached responses and
 * checks price alerts, for this process's writes and, by watching SQLite's data_version, for
 * writes by another connection (the seed, an import).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMailer } from "../mail/mailer.ts";
import { createServices, type Services } from "../services.ts";
import { openDb } from "../../data/db/client.ts";
import { withoutDelivery } from "../../data/db/fixtures/temp-db.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import { bumpCatalogueRevision } from "../../data/db/catalogue-revision.ts";

let dir: string;
let services: Services;
let productIds: number[];
const outbox = () => (fs.existsSync(path.join(dir, "outbox")) ? fs.readdirSync(path.join(dir, "outbox")) : []);
const mailedTo = () => outbox().map((file) => /^To: (.+)$/m.exec(fs.readFileSync(path.join(dir, "outbox", file), "utf8"))?.[1]);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-services-"));
  process.env.SECRETS_DIR = path.join(dir, "secrets");
  services = await createServices({
    databaseFile: path.join(dir, "app.db"),
    mailer: createMailer({ smtpUrl: undefined, from: "PawPrice <alerts@pawprice.example>", outboxDir: path.join(dir, "outbox") }),
    watchMs: 20,
    log: () => {},
  });
  // Item prices are set and compared with alert targets here: no delivery on top.
  withoutDelivery(services.db);
  productIds = (services.db.$client.prepare("SELECT id FROM products WHERE best_price_pence IS NOT NULL ORDER BY id LIMIT 5").all() as { id: number }[]).map((row) => row.id);
});
afterAll(async () => {
  await services.close();
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.SECRETS_DIR;
});

/** Sets every offer of the product to `pence` and re-derives its best price, through `db`, as a catalogue writer does (moving the revision). */
function setPrice(db: Services["db"], productId: number, pence: number) {
  db.$client.transaction(() => {
    db.$client.prepare("UPDATE product_prices SET price_pence = ?, in_stock = 1, price_override = 0 WHERE product_id = ?").run(pence, productId);
    recomputeBestPrices(db, [productId]);
    bumpCatalogueRevision(db);
  })();
}

function addAlert(productId: number, targetPence: number, email: string) {
  services.db.$client
    .prepare("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, confirmed_at) VALUES ('user_servicestest100000000000', ?, ?, ?, '2026-01-01T00:00:00.000Z')")
    .run(productId, email, targetPence);
}

describe("createServices", () => {
  it("migrates and seeds a new database", () => {
    expect(services.seeded).toBe(true);
    expect((services.db.$client.prepare("SELECT count(*) AS n FROM products").get() as { n: number }).n).toBeGreaterThan(100);
  });

  it("on a change made here, drops cached responses and mails alerts whose target was reached", async () => {
    const [productId] = productIds as [number];
    services.cache!.set("/api/products", { body: "[]", headers: {} });
    addAlert(productId, 500, "here@example.com");
    setPrice(services.db, productId, 450);
    // Nothing noticed yet: this connection's own writes are announced, not watched.
    expect(services.cache!.get("/api/products")?.body).toBe("[]");
    services.catalogueChanged({ productIds: [productId], categoryIds: [], siteWide: false });
    expect(services.cache!.size).toBe(0);
    await vi.waitFor(() => expect(mailedTo()).toContain("here@example.com"), { timeout: 5000 });
  });

  it("notices another process's write by itself and takes the same path", async () => {
    const productId = productIds[1]!;
    addAlert(productId, 500, "elsewhere@example.com");
    services.cache!.set("/api/products", { body: "[]", headers: {} });
    const other = openDb(path.join(dir, "app.db"));
    setPrice(other, productId, 499);
    other.$client.close();
    await vi.waitFor(() => expect(mailedTo()).toContain("elsewhere@example.com"), { timeout: 5000 });
    expect(services.cache!.get("/api/products")).toBeUndefined();
  });

  it("asks the attached site rebuild job to build what a change affects; another process's write is a full build", async () => {
    const requested: unknown[] = [];
    services.attachSite({ request: (change) => requested.push(change), status: () => ({ state: "idle", lastBuild: null }) });
    services.catalogueChanged({ productIds: [7], categoryIds: [2], siteWide: false });
    expect(requested).toEqual([{ productIds: [7], categoryIds: [2], siteWide: false }]);
    expect(services.context.admin?.site?.status()).toEqual({ state: "idle", lastBuild: null });
    // Another process's write that is not a catalogue change (a build record, as `npm run build`
    // makes; an alert check) rebuilds nothing; a catalogue write (moving the revision) does.
    const other = openDb(path.join(dir, "app.db"));
    other.$client.prepare("INSERT INTO site_builds (started_at, kind, result) VALUES ('2026-11-22T10:00:00Z', 'full', 'running')").run();
    other.$client.prepare("INSERT INTO email_subscribers (email) VALUES ('watch@example.com')").run();
    services.checkForeignWrites();
    expect(requested).toHaveLength(1);
    other.$client.transaction(() => {
      other.$client.prepare("UPDATE categories SET name = name || ' ' WHERE id = (SELECT min(id) FROM categories)").run();
      bumpCatalogueRevision(other);
    })();
    await vi.waitFor(() => expect(requested).toContainEqual({ productIds: [], categoryIds: [], siteWide: true }), { timeout: 5000 });
    expect(requested).toHaveLength(2);
    // A write here right after another process's, before the watch saw it: everything is rebuilt,
    // not only what this process's write named.
    bumpCatalogueRevision(other);
    other.$client.close();
    bumpCatalogueRevision(services.db);
    services.catalogueChanged({ productIds: [7], categoryIds: [2], siteWide: false });
    expect(requested.at(-1)).toEqual({ productIds: [], categoryIds: [], siteWide: true });
    bumpCatalogueRevision(services.db);
    services.catalogueChanged({ productIds: [7], categoryIds: [2], siteWide: false });
    expect(requested.at(-1)).toEqual({ productIds: [7], categoryIds: [2], siteWide: false });
    // A batch job's writes (an import, a refresh) report the revisions they made: several steps,
    // all its own, rebuild only its products...
    const first = bumpCatalogueRevision(services.db);
    const second = bumpCatalogueRevision(services.db);
    services.catalogueChanged({ productIds: [8], categoryIds: [3], siteWide: false, revisions: [first, second] });
    expect(requested.at(-1)).toEqual({ productIds: [8], categoryIds: [3], siteWide: false });
    // ...but a step in between that none of them made is another process's: everything.
    const mine = bumpCatalogueRevision(services.db);
    bumpCatalogueRevision(services.db);
    const alsoMine = bumpCatalogueRevision(services.db);
    services.catalogueChanged({ productIds: [8], categoryIds: [3], siteWide: false, revisions: [mine, alsoMine] });
    expect(requested.at(-1)).toEqual({ productIds: [], categoryIds: [], siteWide: true });
  });
});

describe("the services' schedule and change subscribers", () => {
  it("marks the every-few-seconds check for other processes' writes as routine (its successful runs logged at debug level), and no other job", async () => {
    const routine: Record<string, boolean> = {};
    const remove = services.schedule.onRun((name, _outcome, _ms, isRoutine) => void (routine[name] = isRoutine));
    try {
      await services.schedule.run("foreign-writes");
      await services.schedule.run("session-prune");
      await services.schedule.run("retention");
    } finally {
      remove();
    }
    expect(routine).toEqual({ "foreign-writes": true, "session-prune": false, retention: false });
  });

  it("puts every timer on one schedule by name, and fans a change out to each subscriber even when one throws", async () => {
    expect(services.schedule.status().map((job) => job.name)).toEqual(
      expect.arrayContaining(["foreign-writes", "session-prune", "retention", "row-ceilings", "demo-refresh", "stale-sweep"]),
    );
    expect(services.changes.subscribers().slice(0, 3)).toEqual(["response-cache", "alert-check", "site-rebuild"]);
    const requested: unknown[] = [];
    services.attachSite({ request: (change) => requested.push(change), status: () => ({ state: "idle", lastBuild: null }) });
    const removeBroken = services.changes.subscribe("broken-first", () => {
      throw new Error("subscriber broke");
    });
    const heard: unknown[] = [];
    const removeHeard = services.changes.subscribe("listener", (change) => heard.push(change));
    try {
      services.cache!.set("/api/products", { body: "[]", headers: {} });
      bumpCatalogueRevision(services.db);
      services.catalogueChanged({ productIds: [9], categoryIds: [], siteWide: false });
      expect(services.cache!.size).toBe(0);
      expect(requested).toEqual([{ productIds: [9], categoryIds: [], siteWide: false }]);
      expect(heard).toEqual([{ productIds: [9], categoryIds: [], siteWide: false }]);
    } finally {
      removeBroken();
      removeHeard();
    }
  });
});
