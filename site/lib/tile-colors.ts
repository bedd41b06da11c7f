/**
 * Category tile colours keyed on words in the slug. The more specific words
 * come first, so "dog-toys" is a toy tile and "dog-food" a dog tile. AA contrast on each.
 */
const tiles = [
  ["toy", "bg-violet-50 text-violet-800 ring-violet-200"],
  ["bed", "bg-indigo-50 text-indigo-800 ring-indigo-200"],
  ["health", "bg-rose-50 text-rose-800 ring-rose-200"],
  ["grooming", "bg-pink-50 text-pink-800 ring-pink-200"],
  ["training", "bg-lime-50 text-lime-800 ring-lime-200"],
  ["small-animal", "bg-orange-50 text-orange-800 ring-orange-200"],
  ["bird", "bg-sky-50 text-sky-800 ring-sky-200"],
  ["fish", "bg-cyan-50 text-cyan-800 ring-cyan-200"],
  ["cat", "bg-purple-50 text-purple-800 ring-purple-200"],
  ["dog", "bg-amber-50 text-amber-800 ring-amber-200"],
] as const;

export function tileColor(slug: string): string {
  return tiles.find(([word]) => slug.includes(word))?.[1] ?? "bg-slate-100 text-slate-800 ring-slate-200";
}
