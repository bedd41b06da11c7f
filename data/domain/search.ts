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
  const terms = text
    .toLowerCase()
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term.length > 0)
    .slice(0, maxTerms);
  if (terms.length === 0) return null;
  return terms.map((term) => `"${term}"*`).join(" ");
}
