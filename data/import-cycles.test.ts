import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The folders whose modules must not import each other in a circle. */
const roots = ["db", "domain"].map((folder) => path.join(here, folder));

/** Every .ts module (tests left out: nothing imports them) under `dir`, its subfolders included. */
function modulesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return modulesUnder(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/**
 * The relative modules a source imports statically: `import … from`, `export … from` and bare
 * `import "…"`, type-only imports included (a circle of types is still a circle in the design).
 * `await import(…)` is not static and is left out.
 */
function staticImports(source: string): string[] {
  const specs: string[] = [];
  for (const [, spec] of source.matchAll(/^\s*(?:import|export)\s[^;"'`]*?\sfrom\s*["']([^"']+)["']/gm)) specs.push(spec!);
  for (const [, spec] of source.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) specs.push(spec!);
  return specs.filter((spec) => spec.startsWith("."));
}

/**
 * The import circles of a graph (module -> modules it imports): each group of modules that can
 * reach one another, as one circle through all of them starting from its first module by name.
 * A module importing itself is a circle of one.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) groups.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);

  // Within each group, a shortest way back to the first module shows the circle to break.
  return groups
    .map((group) => {
      const members = new Set(group);
      const start = group[0]!;
      const previous = new Map<string, string>();
      const queue = [start];
      let last: string | undefined;
      while (queue.length > 0 && last === undefined) {
        const node = queue.shift()!;
        for (const next of graph.get(node) ?? []) {
          if (!members.has(next)) continue;
          if (next === start) {
            last = node;
            break;
          }
          if (!previous.has(next)) {
            previous.set(next, node);
            queue.push(next);
          }
        }
      }
      const circle = [start];
      for (let node = last!; node !== start; node = previous.get(node)!) circle.splice(1, 0, node);
      return [...circle, start];
    })
    .sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

describe("importCycles", () => {
  it("finds a circle of three and a module importing itself, not a shared import", () => {
    const graph = new Map([
      ["a", ["b", "shared"]],
      ["b", ["c", "shared"]],
      ["c", ["a"]],
      ["d", ["d"]],
      ["shared", []],
      ["e", ["shared", "outside"]],
    ]);
    expect(importCycles(graph)).toEqual([
      ["a", "b", "c", "a"],
      ["d", "d"],
    ]);
  });

  it("finds none in a graph without circles", () => {
    expect(importCycles(new Map([["a", ["b", "c"]], ["b", ["c"]], ["c", []]]))).toEqual([]);
  });

  it("reads multi-line, type-only, re-export and bare imports, and not dynamic ones", () => {
    const source = [
      'import {\n  a,\n  b,\n} from "./one.ts";',
      'import type { T } from "../two.ts";',
      'export { c } from "./three.ts";',
      'import "./four.ts";',
      'import fs from "node:fs";',
      'const lazy = await import("./five.ts");',
    ].join("\n");
    expect(staticImports(source)).toEqual(["./one.ts", "../two.ts", "./three.ts", "./four.ts"]);
  });
});

describe("data/db and data/domain", () => {
  it("import one another without circles", () => {
    const graph = new Map<string, string[]>();
    for (const file of roots.flatMap(modulesUnder)) {
      const imports = staticImports(fs.readFileSync(file, "utf8")).map((spec) => path.relative(here, path.resolve(path.dirname(file), spec)));
      graph.set(path.relative(here, file), imports);
    }
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.has(path.join("db", "catalogue-writer", "products.ts"))).toBe(true);
    expect(importCycles(graph).map((circle) => circle.join(" -> "))).toEqual([]);
  });
});
