/** Longest search text accepted (characters); longer is a 400, not a silent cut. */
export const maxSearchLength = 200;
const maxTerms = 10;

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

/** The words of visitor text as search terms (lowercased, apostrophes dropped, at most ten). */
export function searchTerms(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term.length > 0)
    .slice(0, maxTerms);
}

/** Search ranking weights of a product's name, brand, category name and description. */
export const searchColumnWeights = [10, 6, 3, 1] as const;

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
}

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
 * An in-memory copy of the product search index that ranks exactly as FTS5's
 * `bm25(product_search, 10, 6, 3, 1)` does, without FTS5's per-row cost: every word of the
 * query must match a token of the product as a prefix (in any column); a product scores, per
 * word, idf × f(k1 + 1) / (f + k1(1 − b + b·D/avgD)), where f is the weighted count of the word's
 * matches over the columns, D the product's token count and avgD the average. Results come best
 * score first, then by rank, then by id.
 */
export class SearchIndex {
  /** Sorted distinct tokens; tokens sharing a prefix are neighbours. */
  readonly #tokens: string[];
  /** Per token (same order): the documents holding it and its weighted count in each. */
  readonly #postings: { docs: Int32Array; weights: Float64Array }[];
  readonly #ids: Int32Array;
  readonly #ranks: Float64Array;
  readonly #lengths: Float64Array;
  readonly #averageLength: number;
  /** Per-word match counts, one array per word of the query, reused (zeroed after each search). */
  readonly #scratch: Float64Array[] = [];

  constructor(documents: readonly SearchDocument[]) {
    const byToken = new Map<string, { docs: number[]; weights: number[] }>();
    this.#ids = new Int32Array(documents.length);
    this.#ranks = new Float64Array(documents.length);
    this.#lengths = new Float64Array(documents.length);
    let totalLength = 0;
    documents.forEach((document, doc) => {
      this.#ids[doc] = document.id;
      this.#ranks[doc] = document.rank;
      const weights = new Map<string, number>();
      let length = 0;
      document.columns.forEach((text, column) => {
        const tokens = searchTokens(text);
        length += tokens.length;
        for (const token of tokens) weights.set(token, (weights.get(token) ?? 0) + searchColumnWeights[column]!);
      });
      this.#lengths[doc] = length;
      totalLength += length;
      for (const [token, weight] of weights) {
        let posting = byToken.get(token);
        if (!posting) byToken.set(token, (posting = { docs: [], weights: [] }));
        posting.docs.push(doc);
        posting.weights.push(weight);
      }
    });
    this.#tokens = [...byToken.keys()].sort();
    this.#postings = this.#tokens.map((token) => {
      const posting = byToken.get(token)!;
      return { docs: Int32Array.from(posting.docs), weights: Float64Array.from(posting.weights) };
    });
    this.#averageLength = documents.length === 0 ? 0 : totalLength / documents.length;
  }

  get size(): number {
    return this.#ids.length;
  }

  /** Index of the first token not below `prefix`. */
  #lowerBound(prefix: string): number {
    let low = 0;
    let high = this.#tokens.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#tokens[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * Weighted match count per document for one prefix word (0: no match), and the documents
   * that match it, in the order first met.
   */
  #frequencies(prefix: string, slot: number): { perDoc: Float64Array; docs: number[] } {
    const perDoc = (this.#scratch[slot] ??= new Float64Array(this.#ids.length));
    const docs: number[] = [];
    for (let t = this.#lowerBound(prefix); t < this.#tokens.length && this.#tokens[t]!.startsWith(prefix); t++) {
      const posting = this.#postings[t]!;
      for (let i = 0; i < posting.docs.length; i++) {
        const doc = posting.docs[i]!;
        if (perDoc[doc] === 0) docs.push(doc);
        perDoc[doc]! += posting.weights[i]!;
      }
    }
    return { perDoc, docs };
  }

  /**
   * The page `offset`..`offset + limit` of the products matching every term (each a prefix).
   * Returns null when a term is not one token as the index splits text (FTS5 must answer it).
   */
  search(terms: readonly string[], offset: number, limit: number): SearchHits | null {
    const prefixes = terms.map((term) => searchTokens(term));
    if (prefixes.length === 0 || prefixes.some((tokens) => tokens.length !== 1)) return null;
    const words = prefixes.map(([prefix], slot) => this.#frequencies(prefix!, slot));
    try {
      return this.#rank(words, offset, limit);
    } finally {
      for (const { perDoc, docs } of words) for (const doc of docs) perDoc[doc] = 0;
    }
  }

  #rank(words: { perDoc: Float64Array; docs: number[] }[], offset: number, limit: number): SearchHits {
    const count = this.#ids.length;
    const idf = words.map(({ docs }) => {
      const value = Math.log((count - docs.length + 0.5) / (docs.length + 0.5));
      return value <= 0 ? 1e-6 : value;
    });
    // Only documents matching the rarest word can match them all.
    const candidates = words.reduce((rarest, word) => (word.docs.length < rarest.docs.length ? word : rarest)).docs;
    // Kept: the best `offset + limit` so far, best first (score ascending, as FTS5's negated bm25).
    const wanted = offset + limit;
    const kept: { doc: number; score: number }[] = [];
    let total = 0;
    const before = (x: { doc: number; score: number }, y: { doc: number; score: number }) =>
      x.score !== y.score ? x.score < y.score : this.#ranks[x.doc] !== this.#ranks[y.doc] ? this.#ranks[x.doc]! < this.#ranks[y.doc]! : this.#ids[x.doc]! < this.#ids[y.doc]!;
    // A deep page sorts every match instead of keeping a short sorted list.
    const sortAll = wanted > 256;
    for (const doc of candidates) {
      let score = 0;
      let matches = true;
      for (let w = 0; w < words.length; w++) {
        const f = words[w]!.perDoc[doc]!;
        if (f === 0) {
          matches = false;
          break;
        }
        score += idf[w]! * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + (b * this.#lengths[doc]!) / this.#averageLength)));
      }
      if (!matches) continue;
      total++;
      const hit = { doc, score: -1.0 * score };
      if (sortAll) {
        kept.push(hit);
        continue;
      }
      if (kept.length === wanted && !before(hit, kept[kept.length - 1]!)) continue;
      let at = kept.length;
      while (at > 0 && before(hit, kept[at - 1]!)) at--;
      kept.splice(at, 0, hit);
      if (kept.length > wanted) kept.pop();
    }
    if (sortAll) kept.sort((x, y) => (before(x, y) ? -1 : before(y, x) ? 1 : 0));
    return { ids: kept.slice(offset, wanted).map((hit) => this.#ids[hit.doc]!), total };
  }
}
