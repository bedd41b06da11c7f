/**
 * The one signal every catalogue change goes through, whoever wrote it, and its subscribers.
 *
 * A change reaches the signal two ways: this process's writers announce theirs (changed), and a
 * watch on SQLite's data_version notices other processes' commits (checkForeignWrites). Either
 * way it is told to every subscriber (drop cached responses, check price alerts, rebuild pages,
 * ...), each once, in the order they subscribed.
 *
 * Rules:
 * - Every catalogue write moves the catalogue revision by one. A revision since the last one acted
 *   on that no announced write made means another process wrote too (not yet noticed) and what it
 *   changed is unknown: the subscribers get "everything changed".
 * - Another process's commit that leaves the revision alone (a build record, an alert check)
 *   changes nothing a page shows: no subscriber hears of it.
 * - A subscriber that throws, or whose promise rejects, is logged by name; the others still run.
 */
import type { Db } from "../data/db/client.ts";
import { catalogueRevision } from "../data/db/catalogue-revision.ts";
import type { CatalogueChange } from "../data/db/catalogue-writer/transaction.ts";

/** Another process wrote (seed, import): what changed is unknown, so everything may have. */
export const unknownChange: CatalogueChange = { productIds: [], categoryIds: [], siteWide: true };

/** Hears of a change; may answer with a promise (its rejection is logged). */
export type ChangeSubscriber = (change: CatalogueChange) => unknown;

export interface CatalogueChanges {
  /** Adds a named subscriber (names are unique); returns what removes it. */
  subscribe(name: string, subscriber: ChangeSubscriber): () => void;
  /** The subscribers' names, in the order they hear of a change. */
  subscribers(): string[];
  /** Call after committing a catalogue write in this process. */
  changed(reported: CatalogueChange): void;
  /** Looks once for other processes' catalogue writes. */
  checkForeignWrites(): void;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createCatalogueChanges({ db, log = console.error }: { db: Db; log?: (line: string) => void }): CatalogueChanges {
  const subscribers = new Map<string, ChangeSubscriber>();

  const publish = (change: CatalogueChange) => {
    for (const [name, subscriber] of subscribers) {
      const failed = (error: unknown) => log(`Catalogue change subscriber ${name} failed: ${message(error)}`);
      try {
        const result = subscriber(change);
        if (result instanceof Promise) result.catch(failed);
      } catch (error) {
        failed(error);
      }
    }
  };

  // The catalogue revision last acted on: this process's writes move it too, and are announced.
  let seenRevision = catalogueRevision(db);
  const changed = (reported: CatalogueChange) => {
    // Each write moves the revision by one and reports the revision it moved to.
    const revision = catalogueRevision(db);
    const own = new Set(reported.revisions ?? []);
    let foreign = false;
    for (let step = seenRevision + 1; step <= revision; step += 1) {
      // A change that reports no revisions (older callers) accounts for one step.
      if (!own.has(step) && !(own.size === 0 && step === seenRevision + 1)) foreign = true;
    }
    seenRevision = revision;
    // What to tell the subscribers; the revisions have served their purpose.
    publish(foreign ? unknownChange : { productIds: reported.productIds, categoryIds: reported.categoryIds, siteWide: reported.siteWide });
  };

  // Another connection's commit moves data_version; this connection's own writes do not.
  const dataVersion = () => db.$client.pragma("data_version", { simple: true }) as number;
  let seenVersion = dataVersion();
  const checkForeignWrites = () => {
    const version = dataVersion();
    if (version === seenVersion) return;
    seenVersion = version;
    // Another process committed; only a catalogue write (seed, import) changes pages.
    if (catalogueRevision(db) === seenRevision) return;
    changed(unknownChange);
  };

  return {
    subscribe(name, subscriber) {
      if (subscribers.has(name)) throw new Error(`A catalogue change subscriber called "${name}" exists already`);
      subscribers.set(name, subscriber);
      return () => {
        if (subscribers.get(name) === subscriber) subscribers.delete(name);
      };
    },
    subscribers: () => [...subscribers.keys()],
    changed,
    checkForeignWrites,
  };
}
