/**
 * Search that forgives a typo: "royl canin" finds Royal Canin, "wiskas" finds Whiskas. The
 * vocabulary is the words of the catalogue's product names and brands, each with how many
 * products use it and how it is most often written ("Royal", "Whiskas"). A search whose words
 * find nothing or little (searchSuggestionBelow) asks for a correction: each word the catalogue
 * does not know, neither as a word nor as the start of one (the search matches words as
 * prefixes), becomes the closest known word within a few edits; a word the catalogue knows stays.
 * For a search that found a little, a word only one product uses counts as unknown (that
 * product's own typo, or a rare word), and is corrected to words more products use.
 *
 * Rules of a correction (edit distance: letters added, removed or changed, by the
 * fastest-levenshtein library):
 * - words of fewer than 3 letters, and words with digits ("2kg", "12x400g"), are never corrected;
 * - a word's candidates are the known words at most 1 edit away (a word of 3 or 4 letters) or 2
 *   (longer words): the 3 best, by fewest edits, then the word more products use, then the alphabet;
 * - of the texts the candidates make, the one the search matches most products with wins (the
 *   better candidates first on a tie); a text of more than 3 unknown words is not corrected.
 */
import { distance } from "fastest-levenshtein";
import { searchTokens } from "./search.ts";

/** A search finding fewer products than this gets a suggestion when a correction finds more. */
export const searchSuggestionBelow = 3;
/** The most unknown words a text may have to be corrected. */
const maxCorrectedWords = 3;

const minLength = 3;
const maxEditsFor = (length: number) => (length <= 4 ? 1 : 2);
const correctable = (word: string) => word.length >= minLength && !/\d/.test(word);

interface Entry {
  /** How many products use the word in their name or brand. */
  products: number;
  /** How the word is most often written there. */
  display: string;
}

export interface SearchSuggestion {
  /** The corrected search text, lower case, as a query: "royal canin". */
  q: string;
  /** The same words as the catalogue writes them: "Royal Canin". */
  label: string;
  /** How many products it matches. */
  total: number;
}

export class SearchVocabulary {
  /** Every known word, sorted: the words starting with a prefix are neighbours. */
  readonly #words: string[];
  readonly #entries: Map<string, Entry>;
  /** The known words by length, for the candidates of a correction. */
  readonly #byLength = new Map<number, string[]>();

  /** From each product's name and brand. */
  constructor(products: readonly { name: string; brand: string | null }[]) {
    const counts = new Map<string, { products: number; spellings: Map<string, number> }>();
    for (const { name, brand } of products) {
      const seen = new Set<string>();
      for (const written of `${name} ${brand ?? ""}`.split(/\s+/)) {
        for (const word of searchTokens(written)) {
          if (!correctable(word)) continue;
          let count = counts.get(word);
          if (!count) counts.set(word, (count = { products: 0, spellings: new Map() }));
          if (!seen.has(word)) {
            seen.add(word);
            count.products++;
          }
          // The written form, when it is the word itself (not "Hill's" for "hills").
          const spelling = written.replace(/[^\p{L}\p{N}]+$/u, "").replace(/^[^\p{L}\p{N}]+/u, "");
          if (spelling.toLowerCase() === word) count.spellings.set(spelling, (count.spellings.get(spelling) ?? 0) + 1);
        }
      }
    }
    this.#entries = new Map();
    for (const [word, { products: used, spellings }] of counts) {
      let display = word;
      let most = 0;
      for (const [spelling, times] of spellings) {
        if (times > most || (times === most && spelling < display)) {
          display = spelling;
          most = times;
        }
      }
      this.#entries.set(word, { products: used, display });
      const sameLength = this.#byLength.get(word.length);
      if (sameLength) sameLength.push(word);
      else this.#byLength.set(word.length, [word]);
    }
    this.#words = [...this.#entries.keys()].sort();
  }

  get size(): number {
    return this.#words.length;
  }

  /** Whether some known word that at least `minProducts` products use starts with `prefix` (the word itself included). */
  knowsPrefix(prefix: string, minProducts = 1): boolean {
    let low = 0;
    let high = this.#words.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#words[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    for (let at = low; at < this.#words.length && this.#words[at]!.startsWith(prefix); at++) {
      if (this.#entries.get(this.#words[at]!)!.products >= minProducts) return true;
    }
    return false;
  }

  /**
   * The known words closest to `word` by the rules above that at least `minProducts` products
   * use, best first, at most `limit`; none when none is close enough. Never the word itself.
   */
  closest(word: string, limit = 3, minProducts = 1): string[] {
    if (!correctable(word)) return [];
    const maxEdits = maxEditsFor(word.length);
    const found: { candidate: string; edits: number; products: number }[] = [];
    for (let length = word.length - maxEdits; length <= word.length + maxEdits; length++) {
      for (const candidate of this.#byLength.get(length) ?? []) {
        if (candidate === word) continue;
        const products = this.#entries.get(candidate)!.products;
        if (products < minProducts) continue;
        const edits = distance(word, candidate);
        if (edits <= maxEdits) found.push({ candidate, edits, products });
      }
    }
    found.sort((x, y) => x.edits - y.edits || y.products - x.products || (x.candidate < y.candidate ? -1 : 1));
    return found.slice(0, limit).map(({ candidate }) => candidate);
  }

  /**
   * The search text with its unknown words corrected, or null when no word needs correcting. A
   * word is unknown when no known word starting with it is used by `minProducts` products (1:
   * by any; more, for a search that found little, whose rare word may be one product's typo); it
   * is corrected to known words used by that many. Of the corrections (up to 3 close words for
   * each unknown word), the one the most products match (`matches`: the search's own count for a
   * text) wins, the closer words first on a tie; null when none matches anything. So "royl canin"
   * becomes "royal canin", not "roll canin".
   * @example vocabulary.suggest("royl canin", count) // { q: "royal canin", label: "Royal Canin", total: 24 }
   */
  suggest(text: string, matches: (q: string) => number, minProducts = 1): SearchSuggestion | null {
    const options: string[][] = [];
    let corrections = 0;
    for (const word of searchTokens(text)) {
      if (!correctable(word) || this.knowsPrefix(word, minProducts)) {
        options.push([word]);
        continue;
      }
      const closest = this.closest(word, 3, minProducts);
      if (closest.length === 0) return null;
      options.push(closest);
      corrections++;
    }
    if (corrections === 0 || corrections > maxCorrectedWords) return null;
    let best: string[] | null = null;
    let bestCount = 0;
    for (const words of combinations(options)) {
      const count = matches(words.join(" "));
      if (count > bestCount) {
        best = words;
        bestCount = count;
      }
    }
    if (best === null) return null;
    return { q: best.join(" "), label: best.map((word) => this.#entries.get(word)?.display ?? word).join(" "), total: bestCount };
  }
}

/** Every way of taking one word from each list, in order (the first list's choices vary slowest). */
function combinations(options: readonly string[][]): string[][] {
  return options.reduce<string[][]>((sofar, choices) => sofar.flatMap((words) => choices.map((choice) => [...words, choice])), [[]]);
}
