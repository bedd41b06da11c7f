import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const features = path.dirname(fileURLToPath(import.meta.url));
const productPage = path.join(features, "../pages/product/[slug].astro");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

const root = path.join(features, "../..");

/** What a module imports at run time: static imports and re-exports (not type-only ones) and dynamic imports. */
function runtimeImports(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const statics = [...text.matchAll(/^\s*(?:import|export)(?!\s+type\b)[^"';]*?["']([^"']+)["']/gm)].map((match) => match[1]!);
  const dynamics = [...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]!);
  return [...statics, ...dynamics];
}

/** The file and every local module it reaches through run-time imports. */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const spec of runtimeImports(file)) {
    if (!spec.startsWith(".")) continue;
    const target = path.resolve(path.dirname(file), spec);
    if (/\.(ts|tsx)$/.test(target) && fs.existsSync(target)) reachable(target, seen);
  }
  return seen;
}

describe("islands", () => {
  it("import nothing server-side or heavy (zod, the database, node:*, server config)", () => {
    const offenders: string[] = [];
    for (const file of sources(features)) {
      const text = fs.readFileSync(file, "utf8");
      for (const [, spec] of text.matchAll(/^\s*import[^"']*["']([^"']+)["']/gm)) {
        if (spec === "zod" || spec!.startsWith("node:") || spec!.includes("/data/db/") || spec!.endsWith("/data/config.ts") || spec!.endsWith("/queries.ts") || spec!.endsWith("/visitor.ts") && spec!.includes("domain")) {
          offenders.push(`${path.relative(features, file)}: ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("reach zod only through the pet profile's and the compare page's schemas, never from the admin or through a copied rule's module", () => {
    // Every module an island's code pulls in, followed through relative imports (type-only
    // imports are erased, so they are not followed). A rule an island needs lives in a pure
    // data/domain module; its zod schema sits beside it in *.schema.ts.
    const reachesZod = new Map<string, string[]>();
    for (const file of sources(features)) {
      for (const module of reachable(file)) {
        if (!runtimeImports(module).includes("zod")) continue;
        reachesZod.set(path.relative(root, module), [...(reachesZod.get(path.relative(root, module)) ?? []), path.relative(features, file)]);
      }
    }
    expect([...reachesZod.keys()].sort()).toEqual(["data/domain/compare-page.ts", "data/domain/feeding.schema.ts", "site/lib/zod-jitless.ts"]);
    const admin = [...reachesZod.values()].flat().filter((file) => file.startsWith("admin/"));
    expect(admin).toEqual([]);
  });

  it("leave the product page without React up front: no island there hydrates on load, idle, view or client-only", () => {
    // Its Save button and alert form are plain scripts; only the Toaster is an island, hydrated by
    // the first toast (client:toast).
    const text = fs.readFileSync(productPage, "utf8");
    expect([...text.matchAll(/client:(load|idle|visible|media|only|companion|interaction)\b/g)].map((match) => match[0])).toEqual([]);
  });

  it("mount the product page's feeding-cost panel from a script when it nears the screen, on food pages only, never as an island the build renders", () => {
    // FeedingCostPanel.astro writes the panel's heading and props for complete foods only; its
    // script imports the React panel (mount-feeding-cost.ts) once the panel nears the screen. The
    // browser test (site/test/feeding.browser.test.ts) checks that nothing of it loads before.
    const panel = fs.readFileSync(path.join(features, "feeding/FeedingCostPanel.astro"), "utf8");
    expect([...panel.matchAll(/client:[a-z]+/g)].map((match) => match[0])).toEqual([]);
    expect(panel).toMatch(/product\.foodFor !== null && packGrams !== null && hasFacts/);
    expect(panel).toMatch(/new IntersectionObserver\([\s\S]*import\("\.\/mount-feeding-cost\.ts"\)/);
  });
});
