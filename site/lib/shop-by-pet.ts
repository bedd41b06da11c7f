import type { Category } from "../../data/domain/catalogue.ts";
import { categoryPath, petPath } from "../../data/domain/paths.ts";

/** Footer 'Shop By Pet': the pets, and the words of their categories' slugs. */
const pets = [
  { label: "Dogs", slug: "dogs", words: ["dog"] },
  { label: "Cats", slug: "cats", words: ["cat"] },
  { label: "Small Pets", slug: "small-pets", words: ["small-animal", "small-pet", "rabbit"] },
  { label: "Fish", slug: "fish", words: ["fish", "aquatic"] },
  { label: "Birds", slug: "birds", words: ["bird"] },
  { label: "Reptiles", slug: "reptiles", words: ["reptile"] },
] as const;

export interface PetRange {
  label: string;
  /** The pet's own page's slug (petPath). */
  slug: string;
  /** Every category for the pet (a word of its slug names the pet), food first, then in catalogue order. */
  categories: Category[];
  /** Where 'Shop By Pet' links: the pet's whole range, that is its one category, or with several its page listing them. */
  href: string;
}

/**
 * The pets of 'Shop By Pet' that have any category, each with its whole range: a pet with one
 * category links to it, a pet with several to its page (petPath) listing them all, so "Dogs"
 * leads to dog toys and beds as well as food.
 */
export function shopByPet(categories: readonly Category[]): PetRange[] {
  const ordered = [...categories].sort((a, b) => Number(b.slug.endsWith("-food")) - Number(a.slug.endsWith("-food")) || a.id - b.id);
  return pets.flatMap(({ label, slug, words }) => {
    const range = ordered.filter((category) => words.some((word) => category.slug.includes(word)));
    if (range.length === 0) return [];
    return [{ label, slug, categories: range, href: range.length === 1 ? categoryPath(range[0]!.slug) : petPath(slug) }];
  });
}
