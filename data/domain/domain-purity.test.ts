import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));

describe("data/domain", () => {
  it("imports nothing with I/O, so the browser islands can bundle it", () => {
    const offenders: string[] = [];
    for (const file of fs.readdirSync(here)) {
      if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
      const source = fs.readFileSync(path.join(here, file), "utf8");
      for (const [, spec] of source.matchAll(/^\s*import[^"']*["']([^"']+)["']/gm)) {
        if (spec!.startsWith("node:") || spec!.includes("/db/") || spec!.startsWith("astro:") || spec!.includes("config")) {
          offenders.push(`${file}: ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
