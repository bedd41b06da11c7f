import type { Category } from "../../data/domain/catalogue.ts";

/** Footer 'Shop By Pet' (DECISIONS.md item 9): each pet links to its first matching category. */
const pets = [
  { label: "Dogs", words: ["dog"] },
  { label: "Cats", words: ["cat"] },
  { label: "Small Pets", words: ["small-animal", "small-pet", "rabbit"] },
  { label: "Fish", words: ["fish", "aquatic"] },
  { label: "Birds", words: ["bird"] },
  { label: "Reptiles", words: ["reptile"] },
] as const;

export function shopByPet(categories: readonly Category[]): { label: string; slug: string }[] {
  const bySlug = [...categories].sort((a, b) => Number(b.slug.endsWith("-food")) - Number(a.slug.endsWith("-food")) || a.id - b.id);
  return pets.flatMap(({ label, words }) => {
    const match = bySlug.find((category) => words.some((word) => category.slug.includes(word)));
    return match ? [{ label, slug: match.slug }] : [];
  });
}
