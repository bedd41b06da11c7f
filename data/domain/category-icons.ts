/**
 * The icons a category tile can show, by name. The names are lower-case words joined by hyphens
 * ("shield-dog"); "paw-print" is the default icon, the one a tile shows for any name it does not
 * know. No zod here: the admin form bundles this module.
 */

/** Every icon name a category may have, in the order the admin form offers them. */
export const categoryIconNames = [
  "paw-print",
  "bone",
  "fish",
  "baseball",
  "house",
  "shield-dog",
  "scissors",
  "whistle",
  "rabbit",
  "bird",
  "heart",
  "toy",
  "bed",
] as const;

export type CategoryIconName = (typeof categoryIconNames)[number];

/** The default icon: what a tile shows for a name it does not know. */
export const defaultCategoryIcon: CategoryIconName = "paw-print";

/** A name compared without case, spaces, hyphens or underscores: "PawPrint", "paw-print" and "Paw print" are one name. */
const looseKey = (name: string) => name.toLowerCase().replace(/[\s_-]/g, "");

const byLooseKey = new Map<string, CategoryIconName>(categoryIconNames.map((name) => [looseKey(name), name]));

/**
 * The icon name as stored, for a name typed in any case or style, or null when it names no
 * known icon.
 * @example categoryIconName("Bone") // "bone"
 * @example categoryIconName("ShieldDog") // "shield-dog"
 * @example categoryIconName("PawPrint") // "paw-print"
 * @example categoryIconName("Turtle") // null
 */
export function categoryIconName(typed: string): CategoryIconName | null {
  return byLooseKey.get(looseKey(typed)) ?? null;
}
