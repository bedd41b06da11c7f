import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCatalogueChanges, unknownChange } from "./catalogue-changes.ts";
import { openDb } from "../data/db/client.ts";
import { bumpCatalogueRevision } from "../data/db/catalogue-revision.ts";
import type { CatalogueChange } from "../data/db/catalogue-writer/transaction.ts";
import { tempDb, type TempDb } from "../data/db/fixtures/temp-db.ts";

let temp: TempDb;
beforeAll(async () => {
  temp = await tempDb(0);
});
afterAll(() => temp.remove());

const change = (productId: number): CatalogueChange => ({ productIds: [productId], categoryIds: [], siteWide: false });

describe("the catalogue change fan-out", () => {
  it("tells every subscriber of each change once, in the order they subscribed", () => {
    const changes = createCatalogueChanges({ db: temp.db, log: () => {} });
    const heard: string[] = [];
    changes.subscribe("cache", (c) => heard.push(`cache ${c.productIds.join()}`));
    changes.subscribe("alerts", (c) => heard.push(`alerts ${c.productIds.join()}`));
    changes.subscribe("site", (c) => heard.push(`site ${c.productIds.join()}`));
    expect(changes.subscribers()).toEqual(["cache", "alerts", "site"]);
    bumpCatalogueRevision(temp.db);
    changes.changed(change(1));
    bumpCatalogueRevision(temp.db);
    changes.changed(change(2));
    expect(heard).toEqual(["cache 1", "alerts 1", "site 1", "cache 2", "alerts 2", "site 2"]);
  });

  it("a subscriber that throws or rejects is logged by name and the others still hear of the change", async () => {
    const lines: string[] = [];
    const changes = createCatalogueChanges({ db: temp.db, log: (line) => lines.push(line) });
    const heard: string[] = [];
    changes.subscribe("first", () => heard.push("first"));
    changes.subscribe("broken", () => {
      throw new Error("cache gone");
    });
    changes.subscribe("rejecting", async () => {
      throw new Error("worker down");
    });
    changes.subscribe("last", () => heard.push("last"));
    bumpCatalogueRevision(temp.db);
    changes.changed(change(3));
    expect(heard).toEqual(["first", "last"]);
    await vi.waitFor(() =>
      expect(lines).toEqual(["Catalogue change subscriber broken failed: cache gone", "Catalogue change subscriber rejecting failed: worker down"]),
    );
  });

  it("refuses a second subscriber of one name; removing one stops it hearing", () => {
    const changes = createCatalogueChanges({ db: temp.db, log: () => {} });
    const heard: number[] = [];
    const remove = changes.subscribe("one", (c) => heard.push(c.productIds[0]!));
    expect(() => changes.subscribe("one", () => {})).toThrow(/exists already/);
    bumpCatalogueRevision(temp.db);
    changes.changed(change(4));
    remove();
    bumpCatalogueRevision(temp.db);
    changes.changed(change(5));
    expect(heard).toEqual([4]);
    expect(changes.subscribers()).toEqual([]);
  });

  it("another process's catalogue write reaches every subscriber once as 'everything changed'; its other writes reach none", () => {
    const changes = createCatalogueChanges({ db: temp.db, log: () => {} });
    const heard: [string, CatalogueChange][] = [];
    changes.subscribe("a", (c) => heard.push(["a", c]));
    changes.subscribe("b", (c) => heard.push(["b", c]));
    const other = openDb(temp.file);
    try {
      other.$client.prepare("INSERT INTO email_subscribers (email) VALUES ('fanout@example.com')").run();
      changes.checkForeignWrites();
      expect(heard).toEqual([]);
      bumpCatalogueRevision(other);
      changes.checkForeignWrites();
      changes.checkForeignWrites();
      expect(heard).toEqual([
        ["a", unknownChange],
        ["b", unknownChange],
      ]);
    } finally {
      other.$client.close();
    }
  });
});
