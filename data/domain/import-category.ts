/**
 * Which catalogue category an imported product goes into, from the feed's category text
 * ("Pet Supplies > Dogs > Dog Food", "Flea & Tick", "Cat Litter"). Exact names and slugs win;
 * then the keyword table below, most specific first; no match: the row is not imported (a
 * product in the wrong aisle is worse than one the admin adds by hand).
 */

export interface CategoryRef {
  id: number;
  name: string;
  slug: string;
}

const normalise = (text: string) =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

/**
 * Keywords (normalised, whole words, all must appear) to a category slug; first match wins, so
 * the specific ("cat toys") comes before the general ("toys").
 */
const keywordTable: readonly (readonly [readonly string[], string])[] = [
  [["cat", "litter"], "cat-litter"],
  [["litter"], "cat-litter"],
  [["cat", "toy"], "cat-toys"],
  [["cat", "toys"], "cat-toys"],
  [["scratch"], "cat-toys"],
  [["scratcher"], "cat-toys"],
  [["cat", "treats"], "cat-food"],
  [["cat", "food"], "cat-food"],
  [["dog", "treats"], "dog-treats"],
  [["treats"], "dog-treats"],
  [["chews"], "dog-treats"],
  [["dog", "food"], "dog-food"],
  [["dog", "toys"], "dog-toys"],
  [["toys"], "dog-toys"],
  [["beds"], "dog-beds"],
  [["bedding"], "dog-beds"],
  [["flea"], "pet-health"],
  [["tick"], "pet-health"],
  [["worming"], "pet-health"],
  [["wormer"], "pet-health"],
  [["supplements"], "health-supplements"],
  [["vitamins"], "health-supplements"],
  [["grooming"], "dog-grooming"],
  [["shampoo"], "dog-grooming"],
  [["leads"], "dog-training"],
  [["collars"], "dog-training"],
  [["training"], "dog-training"],
  [["harness"], "dog-training"],
  [["small", "animal"], "small-animal"],
  [["rabbit"], "small-animal"],
  [["guinea"], "small-animal"],
  [["hamster"], "small-animal"],
  [["bird"], "bird-food"],
  [["fish"], "fish-aquatics"],
  [["aquatic"], "fish-aquatics"],
  [["aquatics"], "fish-aquatics"],
  [["aquarium"], "fish-aquatics"],
  [["reptile"], "reptile-supplies"],
  [["crates"], "dog-kennels-crates"],
  [["kennels"], "dog-kennels-crates"],
  [["carriers"], "dog-kennels-crates"],
];

/**
 * @example categoryForFeed("Dog Food", categories)?.slug                      // "dog-food"
 * @example categoryForFeed("Pet Supplies > Cats > Cat Litter", categories)?.slug // "cat-litter"
 * @example categoryForFeed("Garden Furniture", categories)                    // null
 */
export function categoryForFeed(feedCategory: string, categories: readonly CategoryRef[]): CategoryRef | null {
  const text = normalise(feedCategory);
  if (text === "") return null;
  // The most specific part of a breadcrumb first ("Pet Supplies > Dogs > Dog Food" -> "dog food").
  const parts = feedCategory.split(/>|\/|\|/).map(normalise).filter((part) => part !== "").reverse();
  for (const part of [...parts, text]) {
    const exact = categories.find((category) => normalise(category.name) === part || normalise(category.slug) === part);
    if (exact) return exact;
  }
  const words = new Set(text.split(" "));
  for (const [keywords, slug] of keywordTable) {
    if (keywords.every((keyword) => words.has(keyword))) return categories.find((category) => category.slug === slug) ?? null;
  }
  return null;
}
