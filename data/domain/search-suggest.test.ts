import { beforeEach, describe, expect, it } from "vitest";
import { SearchVocabulary } from "./search-suggest.ts";

const catalogue = [
  { name: "Royal Canin Medium Adult Dry Dog Food 10kg", brand: "Royal Canin" },
  { name: "Royal Canin Mini Puppy 2kg", brand: "Royal Canin" },
  { name: "Whiskas 1+ Adult Wet Cat Food Pouches 40 x 85g", brand: "Whiskas" },
  { name: "Whiskas Temptations Cat Treats", brand: "Whiskas" },
  { name: "Lint Roller for Pet Hair", brand: null },
  { name: "Kong Classic Roll Toy", brand: "KONG" },
  { name: "Kong Roll Ball", brand: "Kong" },
  { name: "Hill's Science Plan Adult Cat", brand: "Hill's" },
];

/** The search's count, for these tests: products whose name and brand hold every word as a prefix of one of their words. */
function matches(q: string): number {
  const words = q.split(" ");
  return catalogue.filter(({ name, brand }) => {
    const own = `${name} ${brand ?? ""}`.toLowerCase().replace(/'/g, "").split(/[^a-z0-9]+/);
    return words.every((word) => own.some((token) => token.startsWith(word)));
  }).length;
}

/** Built in each test, so mutation testing counts the construction as that test's. */
let vocabulary: SearchVocabulary;
beforeEach(() => {
  vocabulary = new SearchVocabulary(catalogue);
});

describe("SearchVocabulary.suggest", () => {
  it("corrects a dropped letter to the word the catalogue writes, as it writes it", () => {
    expect(vocabulary.suggest("royl canin", matches)).toEqual({ q: "royal canin", label: "Royal Canin", total: 2 });
    expect(vocabulary.suggest("wiskas", matches)).toEqual({ q: "whiskas", label: "Whiskas", total: 2 });
  });

  it("takes the correction the search matches most products with, not the word one edit away that more products use", () => {
    // "roll" is as close to "royl" as "royal" (one edit) and used as often, but "roll canin" matches nothing.
    expect(vocabulary.closest("royl")).toEqual(["roll", "royal"]);
    expect(vocabulary.suggest("royl canin", matches)?.q).toBe("royal canin");
    // Alone, either would do: the better candidate (fewest edits, more products, then the alphabet) wins the tie.
    expect(vocabulary.suggest("royl", matches)?.q).toBe("roll");
  });

  it("leaves words the catalogue knows, as words or as the start of one, and says nothing when none is unknown", () => {
    expect(vocabulary.suggest("roy can", matches)).toBeNull();
    expect(vocabulary.suggest("Royal Canin", matches)).toBeNull();
    expect(vocabulary.suggest("whiskas tempt", matches)).toBeNull();
    // "Hill's" is known as "hills" (apostrophes dropped), as the search index holds it.
    expect(vocabulary.suggest("hill's", matches)).toBeNull();
  });

  it("corrects only the unknown word of a text and keeps the rest as typed", () => {
    expect(vocabulary.suggest("whiskas pouchs", matches)).toEqual({ q: "whiskas pouches", label: "Whiskas Pouches", total: 1 });
  });

  it("never corrects short words or words with digits, and gives up when an unknown word has no close word", () => {
    expect(vocabulary.closest("ko")).toEqual([]);
    // "ca" is one edit from "cat", but too short to correct.
    expect(vocabulary.closest("ca")).toEqual([]);
    expect(vocabulary.closest("10kh")).toEqual([]);
    expect(vocabulary.suggest("zzzzzz", matches)).toBeNull();
    expect(vocabulary.suggest("royl zzzzzz", matches)).toBeNull();
  });

  it("allows one edit in a word of 3 or 4 letters and two in a longer one", () => {
    // "kong" -> "kpmg": two edits, too many for four letters; "whiskas" -> "wiskaz": two, allowed.
    expect(vocabulary.closest("kpmg")).toEqual([]);
    expect(vocabulary.closest("kpng")).toEqual(["kong"]);
    expect(vocabulary.closest("wiskaz")).toEqual(["whiskas"]);
    expect(vocabulary.closest("wiskazz")).toEqual([]);
  });

  it("says nothing when no correction matches a product", () => {
    // "canin" and "whiskas" are both known, but "lintt" -> "lint" with them matches nothing.
    expect(vocabulary.suggest("lintt canin", matches)).toBeNull();
  });

  it("does not correct a text with more than 3 unknown words", () => {
    expect(vocabulary.suggest("royl cannin wiskas pupy", matches)).toBeNull();
    expect(vocabulary.suggest("royl cannin pupy", matches)).toEqual({ q: "royal canin puppy", label: "Royal Canin Puppy", total: 1 });
  });

  it("writes a word as most products write it, the first in the alphabet of spellings as common, without the punctuation around it", () => {
    // "KONG" once, "Kong" three times (two names and a brand).
    expect(vocabulary.suggest("kpng", matches)?.label).toBe("Kong");
    const spelt = new SearchVocabulary([
      { name: "(Zoomies) Rope Tug", brand: "ZOOMIES" },
      { name: "Zoomies, Ball", brand: null },
      { name: "zoomies! frisbee", brand: null },
    ]);
    // "Zoomies" twice (once inside brackets, once before a comma), "ZOOMIES" and "zoomies" once each.
    expect(spelt.suggest("zoomiez", () => 3)?.label).toBe("Zoomies");
    const tied = new SearchVocabulary([
      { name: "Barker Bed", brand: null },
      { name: "BARKER Mat", brand: null },
    ]);
    // One each: "BARKER" sorts before "Barker".
    expect(tied.suggest("barkr", () => 2)?.label).toBe("BARKER");
    // A word that is only part of a written word ("Hill's" is the token "hills") keeps the token's spelling.
    expect(new SearchVocabulary([{ name: "Hill's Diet", brand: null }]).suggest("hils", () => 1)?.label).toBe("hills");
  });

  it("counts how many products use a word once per product, however often one writes it", () => {
    // "cong" is written four times by one product; "kong" once each by two.
    const counted = new SearchVocabulary([
      { name: "Cong Cong Cong", brand: "Cong" },
      { name: "Kong Toy", brand: null },
      { name: "Kong Ball", brand: null },
    ]);
    // "hong" is one edit from each: the word more products use comes first.
    expect(counted.closest("hong")).toEqual(["kong", "cong"]);
    expect(counted.size).toBe(4);
  });
});

describe("a search that found a little", () => {
  it("treats a word only one product uses as unknown, and corrects it to a word more products use", () => {
    const withTypo = new SearchVocabulary([...catalogue, { name: "Whiskaz Travel Bowl", brand: null }]);
    // Found nothing: "whiskaz" is a known word, nothing to correct.
    expect(withTypo.suggest("whiskaz", matches)).toBeNull();
    // Found a little: one product's word, corrected to the word two products use (never to itself).
    expect(withTypo.suggest("whiskaz", matches, 2)).toEqual({ q: "whiskas", label: "Whiskas", total: 2 });
    expect(withTypo.closest("whiskaz", 3, 2)).toEqual(["whiskas"]);
    // Another word one product uses is no correction either; a known word is never its own.
    expect(withTypo.closest("whiskaq", 3, 2)).toEqual(["whiskas"]);
    expect(withTypo.closest("whiskaq")).toEqual(["whiskas", "whiskaz"]);
    expect(withTypo.closest("whiskas")).toEqual(["whiskaz"]);
    expect(withTypo.knowsPrefix("whiskaz", 2)).toBe(false);
    expect(withTypo.knowsPrefix("whiskaz", 1)).toBe(true);
    // "whisk" starts both words: "whiskas" is used by two products, so it is known.
    expect(withTypo.knowsPrefix("whisk", 2)).toBe(true);
    expect(withTypo.knowsPrefix("whisk", 3)).toBe(false);
  });
});
