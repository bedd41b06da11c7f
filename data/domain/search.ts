import type { Species } from "./feeding.ts";

/** Longest search text accepted (characters); longer is a 400, not a silent cut. */
export const maxSearchLength = 200;
const maxTerms = 10;

/** The words that name a species by themselves. */
const speciesWords: Readonly<Record<string, Species>> = { dog: "dog", dogs: "dog", cat: "cat", cats: "cat" };

/**
 * The species a search is for when its whole text is that species' name ("cat", "Dogs"), else
 * null. Such a search lists the products of the species' food categories (its main aisle: what
 * its owners buy most often, and where the home page's "Browse Cat Products" leads) before its
 * other matches, so "cat" starts with cat food, not litter or toys.
 * @example bareSpecies(["cats"]) // "cat"
 * @example bareSpecies(["cat", "litter"]) // null
 */
export function bareSpecies(terms: readonly string[]): Species | null {
  return terms.length === 1 ? (speciesWords[terms[0]!] ?? null) : null;
}

/**
 * Turns visitor text into an FTS5 MATCH expression: every word must match as a prefix, so
 * "roy can" finds "Royal Canin". Apostrophes are dropped (the index drops them too, so
 * "hill's", "hills" and "hill" all find Hill's). Words are quoted, so FTS syntax in the text
 * ("AND", "*", quotes, column filters) is searched for, never executed. Returns null when no
 * word is left.
 * @example toFtsQuery("Roy  can") // '"roy"* "can"*'
 * @example toFtsQuery("  ") // null
 */
export function toFtsQuery(text: string): string | null {
  const terms = searchTerms(text);
  if (terms.length === 0) return null;
  return terms.map((term) => `"${term}"*`).join(" ");
}

/**
 * Per word of the text, an FTS5 MATCH expression for that word as a whole word of the name or
 * the category name (not a prefix): a product matching it is in a better tier than one that
 * matches the word only as the start of a longer word or in the brand or description.
 * @example toWholeWordQueries("cat lit") // ['{name category} : "cat"', '{name category} : "lit"']
 */
export function toWholeWordQueries(text: string): string[] {
  return searchTerms(text).map((term) => `{name category} : "${term}"`);
}

/** The words of visitor text as search terms (lowercased, apostrophes dropped, at most ten). */
export function searchTerms(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term.length > 0)
    .slice(0, maxTerms);
}

/** Search ranking weights of a product's name, brand, category name and description: the in-memory index and FTS5's bm25 (searchBm25) both rank by these. */
export const searchColumnWeights = [10, 6, 3, 1] as const;

/**
 * The columns where a query word found as a whole word puts a product in a better tier: the name
 * and the category name. "cat" is a word of "Cat Litter & Trays" and of "Whiskas Cat Food", but
 * only the start of the brand "Catsan": a shopper typing "cat" means cats.
 */
const wholeWordColumns: ReadonlySet<number> = new Set([0, 2]);

/**
 * The tokens the search index holds for a text, as SQLite's FTS5 `unicode61 remove_diacritics 2`
 * tokenizer makes them from the indexed text (apostrophes already dropped): diacritics removed,
 * lowercased, split at anything but letters, numbers and private-use characters.
 * @example searchTokens("Hill's Science Plan 2-10kg") // ["hills", "science", "plan", "2", "10kg"]
 */
export function searchTokens(text: string): string[] {
  // Plain ASCII (nearly every product) has no diacritics to remove: the quick way gives the same tokens.
  if (/^[\x00-\x7f]*$/.test(text)) return text.replace(/'/g, "").toLowerCase().split(/[^a-z0-9]+/).filter((token) => token.length > 0);
  return text
    .replace(/['’]/g, "")
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{Co}]+/u)
    .filter((token) => token.length > 0);
}

export interface SearchDocument {
  id: number;
  /** Best-seller rank: among equally good matches the lower rank comes first. */
  rank: number;
  /** Name, brand, category name and description. */
  columns: readonly [string, string, string, string];
  /** The species whose food category it is in (see `bareSpecies`); null or absent for any other category. */
  foodFor?: Species | null;
}

/** A tier step larger than any count of words: the species tier comes before the whole-word tier. */
const speciesTierStep = maxTerms + 1;
const speciesCodes: Readonly<Record<Species, number>> = { dog: 1, cat: 2 };

export interface SearchHits {
  /** Product ids of the requested page, best match first. */
  ids: number[];
  /** How many products match. */
  total: number;
}

/** bm25 parameters, as FTS5 uses them. */
const k1 = 1.2;
const b = 0.75;

/**
 * Words of a query whose postings number at most this many times the candidates (the matches of
 * the query's word with the fewest postings) are read through their postings; the others are
 * looked up in each candidate's own token list, which costs a few steps per candidate however
 * common the word is ("fo", "with", "pack").
 */
const scanPerCandidate = 4;

/** Prefix document counts remembered per index (see `#rememberedCounts`). */
const maxRememberedCounts = 10_000;

/** Matches kept in a sorted short list up to this page end; a deeper page sorts every match. */
const shortListMax = 256;

/**
 * An in-memory copy of the product search index that ranks exactly as the FTS5 query in
 * data/db/products.ts does (`bm25(product_search, 10, 6, 3, 1)` after the whole-word tier),
 * without FTS5's per-row cost: every word of the query must match a token of the product as a
 * prefix (in any column). Products come first by tier: for a search that is a species' name
 * alone, the products of that species' food categories before the rest (`bareSpecies`); then how
 * many of the query's words are not a whole word of the product's name or category name (fewest
 * first, see `toWholeWordQueries`);
 * within a tier by score: per word, idf × f(k1 + 1) / (f + k1(1 − b + b·D/avgD)), where f is the
 * weighted count of the word's matches over the columns, D the product's token count and avgD
 * the average, and idf comes from how many products match the word; then by rank, then by id.
 *
 * The work per search is bounded by the rarest word, not the commonest: only the products
 * matching the word with the fewest postings are scored, and a common word is checked per such
 * product in that product's token list instead of through its long postings. Every match is
 * still counted and scored, so the order is exactly FTS5's.
 */
export class SearchIndex {
  /** Sorted distinct tokens; tokens sharing a prefix are neighbours. */
  readonly #tokens: string[];
  /** Token t's postings: postingDocs/postingWeights[postingStart[t] .. postingStart[t + 1]), documents ascending. */
  readonly #postingStart: Int32Array;
  readonly #postingDocs: Int32Array;
  /** The token's weighted count in that document (column weights summed over its occurrences). */
  readonly #postingWeights: Int32Array;
  /** Document d's tokens: docTokens/docWeights[docStart[d] .. docStart[d + 1]), token numbers ascending. */
  readonly #docStart: Int32Array;
  readonly #docTokens: Int32Array;
  readonly #docWeights: Int32Array;
  /** 1 where the token is a whole word of the document's name or category name: per posting, and per document's token. */
  readonly #postingWholeWord: Uint8Array;
  readonly #docWholeWord: Uint8Array;
  readonly #ids: Int32Array;
  readonly #ranks: Float64Array;
  /** Per document, the species code of its food category (0: none). */
  readonly #foodFor: Uint8Array;
  /** Per document, the length part of bm25's denominator: k1(1 − b + b·D/avgD). */
  readonly #lengthNorms: Float64Array;
  /** Scratch, reused by every search and left zeroed: f of the rarest word per document, and of each read-through word. */
  readonly #driverCounts: Float64Array;
  readonly #scanCounts: Float64Array[] = [];
  /** Scratch, left zeroed: per candidate, how many of the query's words are whole words of its name or category. */
  readonly #wholeCounts: Uint8Array;
  readonly #candidates: Int32Array;
  /**
   * Scratch for counting distinct documents: a document is counted once per `#epoch`. Doubles,
   * so the epoch (one per uncached count) stays exact far beyond any index's lifetime (2^53) and
   * the scratch never needs clearing.
   */
  readonly #seen: Float64Array;
  #epoch = 0;
  /**
   * How many documents a prefix of several tokens matches, by token range: the same prefixes come
   * again and again (everyone typing "d", "do", "dog"), and the count is a fixed property of this
   * index. At most `maxRememberedCounts` are kept; the memo starts over when full.
   */
  readonly #rememberedCounts = new Map<number, number>();

  constructor(documents: readonly SearchDocument[]) {
    const count = documents.length;
    const byToken = new Map<string, { docs: number[]; weights: number[] }>();
    const wholeWords = documents.map(() => new Set<string>());
    this.#ids = new Int32Array(count);
    this.#ranks = new Float64Array(count);
    this.#foodFor = new Uint8Array(count);
    const lengths = new Float64Array(count);
    this.#docStart = new Int32Array(count + 1);
    let totalLength = 0;
    documents.forEach((document, doc) => {
      this.#ids[doc] = document.id;
      this.#ranks[doc] = document.rank;
      this.#foodFor[doc] = document.foodFor ? speciesCodes[document.foodFor] : 0;
      const weights = new Map<string, number>();
      let length = 0;
      document.columns.forEach((text, column) => {
        const tokens = searchTokens(text);
        length += tokens.length;
        for (const token of tokens) weights.set(token, (weights.get(token) ?? 0) + searchColumnWeights[column]!);
        if (wholeWordColumns.has(column)) for (const token of tokens) wholeWords[doc]!.add(token);
      });
      lengths[doc] = length;
      totalLength += length;
      this.#docStart[doc + 1] = this.#docStart[doc]! + weights.size;
      for (const [token, weight] of weights) {
        let posting = byToken.get(token);
        if (!posting) byToken.set(token, (posting = { docs: [], weights: [] }));
        posting.docs.push(doc);
        posting.weights.push(weight);
      }
    });
    const averageLength = count === 0 ? 0 : totalLength / count;
    this.#lengthNorms = lengths.map((length) => k1 * (1 - b + (b * length) / averageLength));

    this.#tokens = [...byToken.keys()].sort();
    const postingCount = this.#docStart[count]!;
    this.#postingStart = new Int32Array(this.#tokens.length + 1);
    this.#postingDocs = new Int32Array(postingCount);
    this.#postingWeights = new Int32Array(postingCount);
    this.#docTokens = new Int32Array(postingCount);
    this.#docWeights = new Int32Array(postingCount);
    this.#postingWholeWord = new Uint8Array(postingCount);
    this.#docWholeWord = new Uint8Array(postingCount);
    const docFill = this.#docStart.slice(0, count);
    let at = 0;
    this.#tokens.forEach((token, t) => {
      const posting = byToken.get(token)!;
      for (let i = 0; i < posting.docs.length; i++, at++) {
        const doc = posting.docs[i]!;
        this.#postingDocs[at] = doc;
        this.#postingWeights[at] = posting.weights[i]!;
        // Tokens are visited in order, so each document's list comes out sorted.
        this.#docTokens[docFill[doc]!] = t;
        if (wholeWords[doc]!.has(token)) this.#postingWholeWord[at] = this.#docWholeWord[docFill[doc]!] = 1;
        this.#docWeights[docFill[doc]!++] = posting.weights[i]!;
      }
      this.#postingStart[t + 1] = at;
    });

    this.#driverCounts = new Float64Array(count);
    this.#wholeCounts = new Uint8Array(count);
    this.#candidates = new Int32Array(count);
    this.#seen = new Float64Array(count);
  }

  get size(): number {
    return this.#ids.length;
  }

  /** The tokens starting with `prefix`: token numbers first .. end - 1. */
  #range(prefix: string): { first: number; end: number } {
    const tokens = this.#tokens;
    let low = 0;
    let high = tokens.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (tokens[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    const first = low;
    high = tokens.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (tokens[middle]!.startsWith(prefix)) low = middle + 1;
      else high = middle;
    }
    return { first, end: low };
  }

  /** How many documents hold any of the tokens first .. end - 1. */
  #documentCount(first: number, end: number): number {
    const starts = this.#postingStart;
    if (end - first <= 1) return starts[end]! - starts[first]!;
    const key = first * (this.#tokens.length + 1) + end;
    const remembered = this.#rememberedCounts.get(key);
    if (remembered !== undefined) return remembered;
    const epoch = ++this.#epoch;
    const seen = this.#seen;
    const docs = this.#postingDocs;
    let distinct = 0;
    for (let i = starts[first]!, last = starts[end]!; i < last; i++) {
      const doc = docs[i]!;
      if (seen[doc] !== epoch) {
        seen[doc] = epoch;
        distinct++;
      }
    }
    if (this.#rememberedCounts.size >= maxRememberedCounts) this.#rememberedCounts.clear();
    this.#rememberedCounts.set(key, distinct);
    return distinct;
  }

  /**
   * A document's weighted count of the word's tokens (first .. end - 1), from its own token list;
   * when the word itself is one of them and a whole word of its name or category, that is
   * counted in #wholeCounts.
   */
  #countInDocument(doc: number, word: { first: number; end: number; whole: number }): number {
    const tokens = this.#docTokens;
    let low = this.#docStart[doc]!;
    let high = this.#docStart[doc + 1]!;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (tokens[middle]! < word.first) low = middle + 1;
      else high = middle;
    }
    const last = this.#docStart[doc + 1]!;
    // The word's own token, when it has one, is its first: the first of the document's in range.
    if (low < last && tokens[low] === word.whole && this.#docWholeWord[low] === 1) this.#wholeCounts[doc]!++;
    let f = 0;
    for (; low < last && tokens[low]! < word.end; low++) f += this.#docWeights[low]!;
    return f;
  }

  /**
   * The page `offset`..`offset + limit` of the products matching every term (each a prefix).
   * Returns null when a term is not one token as the index splits text (FTS5 must answer it).
   */
  search(terms: readonly string[], offset: number, limit: number): SearchHits | null {
    const prefixes = terms.map((term) => searchTokens(term));
    if (prefixes.length === 0 || prefixes.some((tokens) => tokens.length !== 1)) return null;
    const starts = this.#postingStart;
    const words = prefixes.map(([prefix]) => {
      const { first, end } = this.#range(prefix!);
      // The word itself, when the index holds it: the first of the tokens it is a prefix of.
      const whole = first < end && this.#tokens[first] === prefix ? first : -1;
      return { first, end, whole, postings: starts[end]! - starts[first]!, documents: 0, scanned: false };
    });
    if (words.some((word) => word.postings === 0)) return { ids: [], total: 0 };

    // The candidates: the documents matching the word with the fewest postings, with its f.
    let driver = 0;
    for (let w = 1; w < words.length; w++) if (words[w]!.postings < words[driver]!.postings) driver = w;
    const driverCounts = this.#driverCounts;
    const candidates = this.#candidates;
    const docs = this.#postingDocs;
    const weights = this.#postingWeights;
    let candidateCount = 0;
    for (let i = starts[words[driver]!.first]!, last = starts[words[driver]!.end]!; i < last; i++) {
      const doc = docs[i]!;
      if (driverCounts[doc] === 0) candidates[candidateCount++] = doc;
      driverCounts[doc]! += weights[i]!;
    }
    for (const [w, word] of words.entries()) word.documents = w === driver ? candidateCount : this.#documentCount(word.first, word.end);
    const count = this.#ids.length;
    const idf = words.map(({ documents }) => {
      const value = Math.log((count - documents + 0.5) / (documents + 0.5));
      return value <= 0 ? 1e-6 : value;
    });
    const counts: Float64Array[] = [];
    words.forEach((word, w) => {
      counts[w] = driverCounts;
      if (w === driver || word.postings > candidateCount * scanPerCandidate) return;
      word.scanned = true;
      const wordCounts = (counts[w] = this.#scanCounts[w] ??= new Float64Array(count));
      for (let i = starts[word.first]!, last = starts[word.end]!; i < last; i++) {
        const doc = docs[i]!;
        if (driverCounts[doc] !== 0) wordCounts[doc]! += weights[i]!;
      }
    });
    // The candidates holding a word read through its postings as a whole word of their name or category.
    const wholeCounts = this.#wholeCounts;
    words.forEach((word, w) => {
      if (word.whole < 0 || (w !== driver && !word.scanned)) return;
      for (let i = starts[word.whole]!, last = starts[word.whole + 1]!; i < last; i++) {
        if (this.#postingWholeWord[i] === 1 && driverCounts[docs[i]!] !== 0) wholeCounts[docs[i]!]!++;
      }
    });

    const species = bareSpecies(terms);
    try {
      return this.#rank(words, driver, counts, idf, candidateCount, offset, limit, species === null ? 0 : speciesCodes[species]);
    } finally {
      for (let i = 0; i < candidateCount; i++) {
        const doc = candidates[i]!;
        driverCounts[doc] = 0;
        wholeCounts[doc] = 0;
        for (let w = 0; w < words.length; w++) if (words[w]!.scanned) counts[w]![doc] = 0;
      }
    }
  }

  #rank(
    words: readonly { first: number; end: number; whole: number; scanned: boolean }[],
    driver: number,
    counts: readonly Float64Array[],
    idf: readonly number[],
    candidateCount: number,
    offset: number,
    limit: number,
    /** The species code whose food goes first (0: none). */
    favoured: number,
  ): SearchHits {
    const ranks = this.#ranks;
    const foodFor = this.#foodFor;
    const ids = this.#ids;
    const norms = this.#lengthNorms;
    const candidates = this.#candidates;
    // The tier first (lower is better), then the score, FTS5's negated bm25 (lower is better);
    // ties go to the lower rank, then id.
    const before = (tierX: number, scoreX: number, x: number, tierY: number, scoreY: number, y: number) =>
      tierX !== tierY ? tierX < tierY : scoreX !== scoreY ? scoreX < scoreY : ranks[x] !== ranks[y] ? ranks[x]! < ranks[y]! : ids[x]! < ids[y]!;
    const wanted = offset + limit;
    const sortAll = wanted > shortListMax;
    // Kept: the best `wanted` so far, best first (every match when sorting all).
    const keptDocs: number[] = [];
    const keptTiers: number[] = [];
    const keptScores: number[] = [];
    let total = 0;
    for (let i = 0; i < candidateCount; i++) {
      const doc = candidates[i]!;
      let score = 0;
      let matches = true;
      for (let w = 0; w < words.length; w++) {
        const word = words[w]!;
        const f = w === driver || word.scanned ? counts[w]![doc]! : this.#countInDocument(doc, word);
        if (f === 0) {
          matches = false;
          break;
        }
        score += idf[w]! * ((f * (k1 + 1.0)) / (f + norms[doc]!));
      }
      if (!matches) continue;
      total++;
      score = -1.0 * score;
      const tier = (favoured !== 0 && foodFor[doc] !== favoured ? speciesTierStep : 0) + words.length - this.#wholeCounts[doc]!;
      if (sortAll) {
        keptDocs.push(doc);
        keptTiers.push(tier);
        keptScores.push(score);
        continue;
      }
      let at = keptDocs.length;
      if (at === wanted && !before(tier, score, doc, keptTiers[at - 1]!, keptScores[at - 1]!, keptDocs[at - 1]!)) continue;
      while (at > 0 && before(tier, score, doc, keptTiers[at - 1]!, keptScores[at - 1]!, keptDocs[at - 1]!)) at--;
      keptDocs.splice(at, 0, doc);
      keptTiers.splice(at, 0, tier);
      keptScores.splice(at, 0, score);
      if (keptDocs.length > wanted) {
        keptDocs.pop();
        keptTiers.pop();
        keptScores.pop();
      }
    }
    if (sortAll) {
      const order = keptDocs.map((_, i) => i);
      const precedes = (x: number, y: number) => before(keptTiers[x]!, keptScores[x]!, keptDocs[x]!, keptTiers[y]!, keptScores[y]!, keptDocs[y]!);
      order.sort((x, y) => (precedes(x, y) ? -1 : precedes(y, x) ? 1 : 0));
      return { ids: order.slice(offset, wanted).map((i) => ids[keptDocs[i]!]!), total };
    }
    return { ids: keptDocs.slice(offset, wanted).map((doc) => ids[doc]!), total };
  }
}
