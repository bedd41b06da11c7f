import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { searchTokens, toFtsQuery } from "./search.ts";

describe("toFtsQuery", () => {
  it("makes every word a quoted prefix term", () => {
    expect(toFtsQuery("roy can")).toBe('"roy"* "can"*');
    expect(toFtsQuery("  Royal   CANIN ")).toBe('"royal"* "canin"*');
  });
  it("drops apostrophes the way the index does", () => {
    expect(toFtsQuery("Hill's")).toBe('"hills"*');
    expect(toFtsQuery("Lily’s Kitchen")).toBe('"lilys"* "kitchen"*');
  });
  it("neutralises FTS syntax", () => {
    expect(toFtsQuery('name:"dog" OR *cat* NEAR(')).toBe('"name"* "dog"* "or"* "cat"* "near"*');
    expect(toFtsQuery('"')).toBeNull();
  });
  it("returns null for empty text and caps the number of words", () => {
    expect(toFtsQuery("")).toBeNull();
    expect(toFtsQuery(" - ")).toBeNull();
    expect(toFtsQuery("a b c d e f g h i j k l m")!.split(" ")).toHaveLength(10);
  });
});

describe("searchTokens", () => {
  it("splits text into the tokens SQLite's FTS5 index holds for it (apostrophes dropped first)", () => {
    const sqlite = new Database(":memory:");
    sqlite.exec(`
      CREATE VIRTUAL TABLE s USING fts5(t, tokenize = 'unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE v USING fts5vocab(s, instance);
    `);
    /** The tokens FTS5 makes of the text, in order. */
    const ftsTokens = (text: string) => {
      sqlite.prepare("DELETE FROM s").run();
      sqlite.prepare("INSERT INTO s (rowid, t) VALUES (1, ?)").run(text.replace(/['’]/g, ""));
      return sqlite.prepare("SELECT term FROM v ORDER BY offset").pluck().all();
    };
    const texts = [
      "Hill's Science Plan 2-10kg", // plain ASCII
      "Lily’s Kitchen Café Crème", // a typographic apostrophe, diacritics
      "ÉCUREUIL Straße naïve",
      "éé", // nothing but non-ASCII letters
      "  Ölçü--ĞÜŞ  ", // separators at both ends
      "Ñandú_123",
      "x\u0301y", // a combining mark on its own
      "a\uE000b c", // a private-use character is part of its token
      "日本語 テスト",
      "Ⅻ ½ ²",
      "İstanbul",
    ];
    try {
      for (const text of texts) expect(searchTokens(text), text).toEqual(ftsTokens(text));
    } finally {
      sqlite.close();
    }
  });

  it("gives the tokens of the doc comment's example", () => {
    expect(searchTokens("Hill's Science Plan 2-10kg")).toEqual(["hills", "science", "plan", "2", "10kg"]);
    expect(searchTokens("Lily’s Café")).toEqual(["lilys", "cafe"]);
    expect(searchTokens("a\uE000b")).toEqual(["a\uE000b"]);
  });
});
