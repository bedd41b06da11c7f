import { describe, expect, it } from "vitest";
import { SearchIndex, searchColumnWeights, searchTerms, searchTokens, type SearchDocument } from "./search.ts";

/**
 * The definition, computed the plain way: every document scored for every word (f summed over
 * every token the word is a prefix of), idf from how many documents match the word; the fewest
 * words that are not a whole word of the name or category first (after, for a species' name
 * alone, that species' food), then best score, then rank, then id. The index must give exactly this, whatever shortcuts it takes.
 */
function reference(documents: readonly SearchDocument[], text: string, offset: number, limit: number) {
  const k1 = 1.2;
  const b = 0.75;
  const tokenWeights = documents.map((document) => {
    const weights = new Map<string, number>();
    document.columns.forEach((column, c) => {
      for (const token of searchTokens(column)) weights.set(token, (weights.get(token) ?? 0) + searchColumnWeights[c]!);
    });
    return weights;
  });
  const lengths = documents.map((document) => document.columns.reduce((sum, column) => sum + searchTokens(column).length, 0));
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / documents.length;
  const wholeWords = documents.map((document) => new Set([...searchTokens(document.columns[0]), ...searchTokens(document.columns[2])]));
  const prefixes = searchTerms(text);
  // A species' name alone puts that species' food first.
  const species = prefixes.length === 1 ? ({ dog: "dog", dogs: "dog", cat: "cat", cats: "cat" } as const)[prefixes[0] as "dog"] : undefined;
  const f = prefixes.map((prefix) =>
    tokenWeights.map((weights) => [...weights].reduce((sum, [token, weight]) => (token.startsWith(prefix) ? sum + weight : sum), 0)),
  );
  const idf = f.map((counts) => {
    const n = counts.filter((count) => count > 0).length;
    const value = Math.log((documents.length - n + 0.5) / (n + 0.5));
    return value <= 0 ? 1e-6 : value;
  });
  const hits = documents
    .map((document, d) => {
      if (f.some((counts) => counts[d] === 0)) return null;
      let score = 0;
      f.forEach((counts, w) => {
        const count = counts[d]!;
        score += idf[w]! * ((count * (k1 + 1.0)) / (count + k1 * (1 - b + (b * lengths[d]!) / averageLength)));
      });
      const favoured = species === undefined || document.foodFor === species;
      const tier = (favoured ? 0 : 100) + prefixes.filter((prefix) => !wholeWords[d]!.has(prefix)).length;
      return { id: document.id, rank: document.rank, tier, score: -1.0 * score };
    })
    .filter((hit) => hit !== null)
    .sort((x, y) => x.tier - y.tier || x.score - y.score || x.rank - y.rank || x.id - y.id);
  return { ids: hits.slice(offset, offset + limit).map((hit) => hit.id), total: hits.length };
}

const doc = (id: number, rank: number, name: string, brand = "", category = "", description = ""): SearchDocument => ({
  id,
  rank,
  columns: [name, brand, category, description],
});

/**
 * 600 products: "food" and the "fo…" words in nearly all of them, "dog"/"cat" in half each, a
 * few rare words ("zebra" in 5, "quokka" in 1), and products written identically so that
 * scores tie and rank, then id, must decide.
 */
function catalogue(): SearchDocument[] {
  const documents: SearchDocument[] = [];
  const flavours = ["chicken", "lamb", "salmon", "turkey", "beef"];
  for (let i = 0; i < 600; i++) {
    const animal = i % 2 === 0 ? "Dog" : "Cat";
    const extra = i % 120 === 7 ? " Zebra" : i === 333 ? " Quokka Formula" : "";
    documents.push({
      ...doc(
        1000 + ((i * 7919) % 600), // ids not in document order
        (i * 31) % 97, // ranks repeat: ties on score and rank fall to id
        `${flavours[i % 5]} ${animal} Food${extra}`,
        i % 3 === 0 ? "Forthglade" : "Royal Canin",
        `${animal} Food`,
        i % 4 === 0 ? "Complete food for adult pets, with fortified vitamins" : "For fussy eaters",
      ),
      // Most in their species' food category, some elsewhere (a species' name alone favours the first).
      foodFor: i % 7 === 3 ? null : animal === "Dog" ? "dog" : "cat",
    });
  }
  return documents;
}

describe("SearchIndex", () => {
  const documents = catalogue();
  const index = new SearchIndex(documents);

  it.each([
    "food", // a word in every product: every one scored, the page is the best 15
    "fo", // a prefix of several words, a product counted once however many it holds
    "f",
    "dog food", // two common words: the second read through its postings
    "zebra fo", // a rare word first: the common prefix checked in each candidate's own tokens
    "fo zebra", // the same, the rare word last
    "quokka for dog", // one candidate
    "quokka cat", // a candidate that fails the second word
    "chicken dog forth",
    "royal royal", // the same word twice
    "nothing", // no match
    "food nothing",
    "dog", // in exactly half the products: idf is log(1) = 0, which bm25 raises to 1e-6 (not 0); dog food first
    "cats", // a species' name alone: its food first
    "cat food", // a species among other words: no species tier
  ])("ranks %j exactly as bm25 defines, on every page", (text) => {
    for (const [offset, limit] of [
      [0, 15],
      [15, 15],
      [0, 100],
      [280, 40], // past the short list: every match sorted
      [590, 50],
    ] as const) {
      expect(index.search(searchTerms(text), offset, limit), `${text} ${offset}`).toEqual(reference(documents, text, offset, limit));
    }
  });

  it("breaks score ties at a page boundary by rank, then by id", () => {
    // 40 identical products, ranks 0-9 four times: the page boundary falls inside a tie.
    const twins = Array.from({ length: 40 }, (_, i) => doc(500 - i, i % 10, "Twin Biscuits"));
    const twinIndex = new SearchIndex([...twins, doc(1, 0, "Other Thing")]);
    const byRankThenId = twins.toSorted((x, y) => x.rank - y.rank || x.id - y.id).map((twin) => twin.id);
    expect(twinIndex.search(["twin"], 0, 15)).toEqual({ ids: byRankThenId.slice(0, 15), total: 40 });
    expect(twinIndex.search(["tw", "bisc"], 15, 15)).toEqual({ ids: byRankThenId.slice(15, 30), total: 40 });
    expect(twinIndex.search(["twin"], 30, 300)).toEqual({ ids: byRankThenId.slice(30), total: 40 });
  });

  it("counts each prefix's matches on its own, searched in any order (remembered counts never mix)", () => {
    // Words sharing prefixes at every length, so that "f", "fo" and "foo" cover different token
    // ranges that start at the same token, and match different numbers of products.
    const vocabulary = ["food", "foods", "forage", "fork", "fun", "fund", "mix", "mixer", "bowl", "ball", "bell"];
    const filler = ["cat", "dog", "toy", "lead", "rope", "treat", "chew", "bed", "mat", "tin", "jar", "pouch", "gel", "nut"];
    let state = 7;
    const random = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    // Mostly filler, so that each prefix matches a different and small share of the products.
    const word = () => {
      const list = random() < 0.3 ? vocabulary : filler;
      return list[Math.floor(random() * list.length)]!;
    };
    const words = (n: number) => Array.from({ length: n }, word).join(" ");
    const products = Array.from({ length: 200 }, (_, i) => doc(i + 1, Math.floor(random() * 50), words(1 + Math.floor(random() * 3)), "", "", words(Math.floor(random() * 6))));
    const small = new SearchIndex(products);
    const prefixes = ["f", "fo", "foo", "food", "for", "fu", "fun", "m", "mi", "mix", "b", "ba", "be", "bo"];
    for (const first of prefixes) {
      for (const second of ["", ...prefixes]) {
        const text = `${first} ${second}`;
        expect(small.search(searchTerms(text), 0, 10), text).toEqual(reference(products, text, 0, 10));
      }
    }
  });

  it("gives the same answers searched again (its reused scratch is left clean)", () => {
    const first = ["zebra fo", "dog food", "fo", "quokka cat"].map((text) => index.search(searchTerms(text), 0, 20));
    const again = ["zebra fo", "dog food", "fo", "quokka cat"].map((text) => index.search(searchTerms(text), 0, 20));
    expect(again).toEqual(first);
  });

  it("leaves text that is not one token per word to FTS5", () => {
    expect(index.search(["2-10kg"], 0, 15)).toBeNull();
    expect(index.search([], 0, 15)).toBeNull();
    // One such word is enough, wherever it stands.
    expect(index.search(["dog", "2-10kg"], 0, 15)).toBeNull();
    expect(index.search(["dog", ""], 0, 15)).toBeNull();
  });

  it("holds every document", () => {
    expect(index.size).toBe(600);
    expect(new SearchIndex([]).size).toBe(0);
  });

  it("ranks a product whose category or name holds the word as a whole word above one matched only by a longer word", () => {
    // "cat": the brand Catsan and the name's "Catsan" match only as a prefix (a high bm25 score:
    // name and brand weigh most), the others hold "cat" as a word of the category or the name.
    const documents = [
      doc(1, 1, "Catsan Hygiene Plus Litter 20L", "Catsan", "Litter & Trays", "Non-clumping litter"),
      doc(2, 9, "Whiskas Tuna Pouches", "Whiskas", "Cat Food", "Wet food"),
      doc(3, 5, "Kong Kickeroo Toy", "Kong", "Cat Toys & Scratchers", "A kicking toy"),
      doc(4, 2, "Catit Senses Play Circuit", "Catit", "Small Animal", "Catnip"),
      doc(5, 7, "Trixie Cat Scratching Post", "Trixie", "Scratchers", "Sisal"),
      doc(6, 3, "Dog Lead", "Ruffwear", "Training & Walking", "For a dog who chases a cat"),
    ];
    const index = new SearchIndex(documents);
    const hits = index.search(["cat"], 0, 10)!;
    // Whole-word matches (2, 3, 5) first, by bm25 then rank; then the prefix-only and description matches.
    expect(hits.ids.slice(0, 3).sort()).toEqual([2, 3, 5]);
    expect(hits.ids.slice(3).sort()).toEqual([1, 4, 6]);
    expect(hits.ids.indexOf(2)).toBeLessThan(hits.ids.indexOf(1));
    expect(hits).toEqual(reference(documents, "cat", 0, 10));
    // Equal products in one tier go by rank: the same category word, identical text.
    const twins = [doc(10, 8, "Tuna Pouches", "Whiskas", "Cat Food"), doc(11, 4, "Tuna Pouches", "Whiskas", "Cat Food"), doc(12, 1, "Catsan Litter", "Catsan")];
    expect(new SearchIndex(twins).search(["cat"], 0, 10)).toEqual({ ids: [11, 10, 12], total: 3 });
  });

  it("lists a species' food first for its name alone, ahead of better bm25 and whole-word matches; not for other words", () => {
    const documents: SearchDocument[] = [
      doc(1, 1, "Catsan Ultra Clumping Cat Litter", "Catsan", "Cat Litter & Trays", "Cat litter"),
      doc(2, 2, "Petface Catnip Cat Toys", "Petface", "Cat Toys & Scratchers"),
      { ...doc(3, 9, "Burns Adult Dry Food Chicken 2kg", "Burns", "Complete Feline Diet", "For adult cats"), foodFor: "cat" },
      { ...doc(4, 5, "Whiskas Tuna Cat Pouches", "Whiskas", "Cat Food"), foodFor: "cat" },
      { ...doc(5, 3, "Wagg Dry Dog Food", "Wagg", "Dog Food", "Not for a cat"), foodFor: "dog" },
    ];
    const index = new SearchIndex(documents);
    // Cat food first (4 holds "cat" whole, 3 only "cats" in its description), then the rest as before.
    expect(index.search(["cat"], 0, 10)).toEqual({ ids: [4, 3, 1, 2, 5], total: 5 });
    expect(index.search(["cat"], 0, 10)).toEqual(reference(documents, "cat", 0, 10));
    expect(index.search(["cats"], 0, 10)).toEqual(reference(documents, "cats", 0, 10));
    expect(index.search(["cats"], 0, 10)!.ids[0]).toBe(3);
    // Paged: the boundary falls inside the food block.
    expect(index.search(["cat"], 1, 2)).toEqual({ ids: [3, 1], total: 5 });
    // "dog" puts dog food first; "catnip" and "cat litter" are not a species' name alone.
    expect(index.search(["dog"], 0, 10)!.ids[0]).toBe(5);
    expect(index.search(["catnip"], 0, 10)).toEqual(reference(documents, "catnip", 0, 10));
    expect(index.search(["cat", "litter"], 0, 10)!.ids[0]).toBe(1);
    expect(index.search(["cat", "litter"], 0, 10)).toEqual(reference(documents, "cat litter", 0, 10));
  });

  it("counts the words not held whole: more whole-word matches rank higher, a prefix being typed ties", () => {
    const documents = [
      doc(1, 1, "Royal Canin Mini Adult", "Royal Canin", "Dog Food"),
      doc(2, 2, "Royalty Canine Treats", "Royalty", "Dog Treats"),
      doc(3, 3, "Royal Chews", "Chewco", "Dog Treats", "canine dental"),
    ];
    const index = new SearchIndex(documents);
    expect(index.search(["royal", "canin"], 0, 10)).toEqual({ ids: [1, 3, 2], total: 3 });
    expect(index.search(["royal", "canin"], 0, 10)).toEqual(reference(documents, "royal canin", 0, 10));
    expect(index.search(["roy", "can"], 0, 10)).toEqual(reference(documents, "roy can", 0, 10));
  });

  it("computes scores in FTS5's order of operations, so rounding ranks as FTS5 does", () => {
    // In exact arithmetic both score idf × 1.375 (f = 2 over 3 tokens, f = 3 over 5, average 3);
    // in doubles, FTS5's f × (k1 + 1) / (f + norm) puts product 2 first, which SQLite confirms
    // (bm25 -1.3750000000000002e-6 against -1.375e-6). The same formula written another way,
    // (k1 + 1) factored out or the division done first, ties them and product 1 wins on id.
    const documents = [doc(1, 0, "", "", "", "dog dog bowl"), doc(2, 0, "", "", "dog", "bowl bowl bowl bowl"), doc(3, 0, "cat")];
    expect(new SearchIndex(documents).search(["dog"], 0, 10)).toEqual({ ids: [2, 1], total: 2 });
    expect(reference(documents, "dog", 0, 10)).toEqual({ ids: [2, 1], total: 2 });
  });
});
