import { describe, expect, it } from "vitest";
import { slugify, slugPattern } from "./slug.ts";

describe("slugify", () => {
  it("reads & as and, as the seeded slugs and the importers' retailer keys do", () => {
    expect(slugify("Pets & Co")).toBe("pets-and-co");
    expect(slugify("Pets&Co")).toBe("pets-and-co");
    expect(slugify("Lamb & Rice 12 x 400g")).toBe("lamb-and-rice-12-x-400g");
  });

  it("drops accents rather than the letters under them", () => {
    expect(slugify("Café")).toBe("cafe");
    expect(slugify("Pâté Crème Brûlée")).toBe("pate-creme-brulee");
    // Composed (é) and decomposed (e + combining acute) spellings give one slug.
    expect(slugify("Cafe\u0301")).toBe("cafe");
  });

  it("drops apostrophes inside a word instead of splitting it", () => {
    expect(slugify("Hill's")).toBe("hills");
    expect(slugify("Lily’s Kitchen")).toBe("lilys-kitchen");
    expect(slugify("Lily‘s `Best´")).toBe("lilys-best");
  });

  it("turns every other run of punctuation or spaces into one hyphen", () => {
    expect(slugify("Royal  Canin -- Maxi")).toBe("royal-canin-maxi");
    expect(slugify("2.5kg")).toBe("2-5kg");
    expect(slugify("A/B_C+D")).toBe("a-b-c-d");
    expect(slugify("already-a-slug")).toBe("already-a-slug");
    expect(slugify("a---b")).toBe("a-b");
  });

  it("leaves no hyphen at either end", () => {
    expect(slugify("  !!Chuckit! Ball!! ")).toBe("chuckit-ball");
    expect(slugify("-a-")).toBe("a");
    expect(slugify("& Co")).toBe("and-co");
  });

  it("gives an empty slug when the name has no letter or digit", () => {
    expect(slugify("")).toBe("");
    expect(slugify("£££")).toBe("");
    expect(slugify(" - ! ' ")).toBe("");
  });

  it("keeps digits and lowercases capitals", () => {
    expect(slugify("ABC 123")).toBe("abc-123");
  });

  it("always gives a slug the pattern accepts, or an empty one", () => {
    for (const name of ["Pets & Co", "Café", " -x- ", "2.5kg", "Ünïcödé ñame", "a", "&", "9", "'’"]) {
      const slug = slugify(name);
      expect(slug === "" || slugPattern.test(slug), `${name} -> ${slug}`).toBe(true);
    }
  });
});

describe("slugPattern", () => {
  it("accepts letters and digits with single hyphens between them", () => {
    expect(slugPattern.test("a")).toBe(true);
    expect(slugPattern.test("pets-and-co")).toBe(true);
    expect(slugPattern.test("2-5kg")).toBe(true);
  });

  it("refuses capitals, doubled, leading or trailing hyphens, other characters and the empty slug", () => {
    for (const slug of ["", "A", "a--b", "-a", "a-", "a_b", "a b", "café"]) expect(slugPattern.test(slug), slug).toBe(false);
  });
});
