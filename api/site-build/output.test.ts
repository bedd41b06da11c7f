/**
 * What the build stores: the CSP hashes of a page's executable inline scripts, and files with
 * their compressed forms (read back to the same bytes).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { bodyBytes, compressProductPage, inlineScriptHashes, readStored, storedCandidates, storedPagePath, writeBrotliOnly, writeWithVariants } from "./output.ts";
import { PagePackWriter } from "./page-pack.ts";

const sha256 = (text: string) => `sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}`;
const hashesOf = (html: string) => {
  const hashes = new Set<string>();
  inlineScriptHashes(Buffer.from(html, "utf8"), hashes);
  return [...hashes].sort();
};

describe("where pages are stored", () => {
  it("stores a product page as one file named after it, every other page as its folder's index.html", () => {
    expect(storedPagePath("/product/royal-canin-mini-2kg/")).toBe("product/royal-canin-mini-2kg.html");
    expect(storedPagePath("product/royal-canin-mini-2kg")).toBe("product/royal-canin-mini-2kg.html");
    expect(storedPagePath("//product/royal-canin-mini-2kg//")).toBe("product/royal-canin-mini-2kg.html");
    expect(storedPagePath("/")).toBe("index.html");
    expect(storedPagePath("/category/dog-food/")).toBe("category/dog-food/index.html");
    expect(storedPagePath("/product-not-found/")).toBe("product-not-found/index.html");
    expect(storedPagePath("/product/")).toBe("product/index.html");
    expect(storedPagePath("/product/a/b/")).toBe("product/a/b/index.html");
  });

  it("looks a request path up as a product page (flat, then in a folder as older releases stored it), else as a file or a folder's index.html", () => {
    expect(storedCandidates("")).toEqual(["index.html"]);
    expect(storedCandidates("product/kibble")).toEqual(["product/kibble.html", "product/kibble/index.html"]);
    expect(storedCandidates("about")).toEqual(["about", "about/index.html"]);
    expect(storedCandidates("404")).toEqual(["404", "404/index.html"]);
    expect(storedCandidates("_astro/app.js")).toEqual(["_astro/app.js", "_astro/app.js/index.html"]);
    expect(storedCandidates("product")).toEqual(["product", "product/index.html"]);
  });
});

describe("inline script hashes", () => {
  it("hashes each executable inline script's exact text: no type, module, a JavaScript type", () => {
    const classic = "window.dataLayer = [];";
    const module = '\n  import { start } from "/_astro/a.js"; start("£1");\n';
    const typed = "console.log('typed')";
    const unquoted = "console.log(1)";
    const html = [
      `<script>${classic}</script>`,
      `<script type="module">${module}</script>`,
      `<script type='text/javascript' defer>${typed}</script>`,
      `<SCRIPT TYPE=Module>${unquoted}</SCRIPT>`,
      "<script></script>",
    ].join("\n");
    expect(hashesOf(html)).toEqual([sha256(classic), sha256(module), sha256(typed), sha256(unquoted), sha256("")].sort());
  });

  it("skips scripts with a src and data blocks", () => {
    const html = [
      '<script type="module" src="/_astro/page.js"></script>',
      "<script src=/x.js>ignored()</script>",
      '<script type="application/ld+json">{"@type":"Product"}</script>',
      '<script type="application/json" id="props">{"a":1}</script>',
      '<script type="text/plain">not code</script>',
      '<script data-src="x" type="module">run()</script>',
    ].join("");
    expect(hashesOf(html)).toEqual([sha256("run()")]);
  });

  it("lists a script that appears on many pages once", () => {
    const hashes = new Set<string>();
    for (let page = 0; page < 3; page++) inlineScriptHashes(Buffer.from(`<p>${page}</p><script>shared()</script>`), hashes);
    expect([...hashes]).toEqual([sha256("shared()")]);
  });
});

describe("a rendered body's bytes", () => {
  it("are the body's bytes, from one chunk or several", async () => {
    const page = new TextEncoder().encode("<!doctype html><p>Pets £12.99</p>");
    expect(await bodyBytes(new Response(page).body!)).toEqual(Buffer.from(page));
    const chunks = ["<!doctype html>", "<p>Pets ", "£12.99</p>"].map((part) => new TextEncoder().encode(part));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    expect((await bodyBytes(stream)).toString("utf8")).toBe("<!doctype html><p>Pets £12.99</p>");
    expect(await bodyBytes(new Response("").body!)).toEqual(Buffer.alloc(0));
  });

  it("are the one chunk itself, not a copy", async () => {
    const chunk = new TextEncoder().encode("<p>one chunk</p>");
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.close();
      },
    });
    expect((await bodyBytes(stream)).buffer).toBe(chunk.buffer);
  });

  it("are only the bytes a chunk views, when it views part of a larger buffer", async () => {
    const shared = new TextEncoder().encode("xx<p>view</p>yy");
    const view = new Uint8Array(shared.buffer, 2, 11);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(view);
        controller.close();
      },
    });
    expect((await bodyBytes(stream)).toString("utf8")).toBe("<p>view</p>");
  });
});

describe("stored files", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-site-output-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const page = Buffer.from(`<!doctype html>${'<li class="grid gap-2 p-4">a product</li>'.repeat(300)}`);

  it("stores a product page as brotli only, which reads back to the page", async () => {
    const file = path.join(dir, "product/index.html");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeBrotliOnly(file, page);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["index.html.br"]);
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`))).toEqual(page);
    // Compressed, not merely stored: the page repeats one item 300 times.
    expect(fs.statSync(`${file}.br`).size).toBeLessThan(page.length / 10);
    // At the settings chosen for build speed: quality 0, a 2^18-byte window.
    const settings = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 0, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } };
    expect(fs.readFileSync(`${file}.br`)).toEqual(zlib.brotliCompressSync(page, settings));
    expect(fs.readFileSync(`${file}.br`)).not.toEqual(zlib.brotliCompressSync(page));
    expect(await readStored(dir, "product/index.html")).toEqual(page);
  });

  it("reads a stored page back from whichever form it has: a file, a compressed variant, else the folder's packed page", async () => {
    const release = path.join(dir, "release");
    fs.mkdirSync(path.join(release, "product"), { recursive: true });
    const pack = new PagePackWriter(release);
    pack.add("product/packed.html", compressProductPage(page));
    pack.add("product/both.html", compressProductPage(Buffer.from("packed copy")));
    pack.finish();
    fs.writeFileSync(path.join(release, "product/both.html.gz"), zlib.gzipSync("own file"));
    fs.writeFileSync(path.join(release, "plain.txt"), "plain");
    expect(await readStored(release, "product/packed.html")).toEqual(page);
    expect((await readStored(release, "product/both.html"))!.toString()).toBe("own file");
    expect((await readStored(release, "plain.txt"))!.toString()).toBe("plain");
    expect(await readStored(release, "product/missing.html")).toBeNull();
    expect(await readStored(path.join(dir, "no-such-folder"), "product/packed.html")).toBeNull();
  });

  it("stores a shared file as it is, with gzip and brotli forms of the same bytes", async () => {
    const file = path.join(dir, "index.html");
    await writeWithVariants(file, page);
    expect(fs.readFileSync(file)).toEqual(page);
    expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`))).toEqual(page);
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`))).toEqual(page);
  });

  it("stores a small file without compressed forms", async () => {
    const file = path.join(dir, "robots.txt");
    await writeWithVariants(file, Buffer.from("User-agent: *\nAllow: /\n"));
    expect(fs.existsSync(`${file}.gz`)).toBe(false);
    expect(fs.existsSync(`${file}.br`)).toBe(false);
  });
});
