/**
 * The contract between the site build worker (api/site-build/worker.ts) and the pages' data
 * access (site/lib/build-data.ts). The pages run inside Astro's server bundle, a separate copy
 * of every module, so the worker hands each pass over through a global under a shared symbol:
 * which database snapshot to read and which products get pages.
 */

export interface BuildPass {
  /** The database file this pass reads, opened read-only (the build's snapshot). */
  databaseFile: string;
  /** Only these products get pages (a fast re-render); null: every product. */
  productIds: readonly number[] | null;
  /** Set by the pages' data access: each product page the pass rendered. */
  productPages?: { id: number; slug: string }[];
  /** Set by the pages' data access: closes what the pass opened and drops what it read. */
  release?: () => void;
}

const passKey = Symbol.for("pawprice.site-build-pass");

type PassGlobal = { [passKey]?: BuildPass };

/** The pass under way, if a worker started one. */
export function currentBuildPass(): BuildPass | undefined {
  return (globalThis as PassGlobal)[passKey];
}

/** Starts a pass (the previous one's data is released first). */
export function startBuildPass(pass: BuildPass): void {
  endBuildPass();
  (globalThis as PassGlobal)[passKey] = pass;
}

/** Releases the pass's connection and data, so an idle worker holds none. */
export function endBuildPass(): void {
  const pass = currentBuildPass();
  pass?.release?.();
  delete (globalThis as PassGlobal)[passKey];
}
