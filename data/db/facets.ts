/**
 * Filter options with counts for the grid and the search page (data/domain/facets.ts): which
 * brands a view holds and how many products of each. A view is the grid's filters (the brand's
 * own left out) and optionally a search's text; a product counts exactly when the grid's filter
 * would list it (products.ts filterClause: the same category, retailer and inclusive price rule).
 */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { filterClause, searchMatchIds } from "./products.ts";
import type { BrandCount } from "../domain/facets.ts";
import type { BrandScope } from "../domain/queries.ts";

/** Brands differing only in case are one brand, as the brand filter (COLLATE NOCASE) sees them. */
const brandGroups = "GROUP BY p.brand COLLATE NOCASE ORDER BY brand COLLATE NOCASE";
const hasBrand = "p.brand IS NOT NULL AND p.brand <> ''";

/** The brands of a view with their product counts, by name; brands with no product there are left out. */
export function listBrandCounts(db: Db, scope: BrandScope): BrandCount[] {
  const { q, ...filters } = scope;
  const { where, params } = filterClause(filters);
  const conditions = [hasBrand];
  if (q !== undefined) {
    conditions.push("p.id IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(searchMatchIds(db, q)));
  }
  const sql = `SELECT min(p.brand) AS brand, count(*) AS count FROM products p ${where ? `${where} AND` : "WHERE"} ${conditions.join(" AND ")} ${brandGroups}`;
  return statement<BrandCount>(db, sql).all(...params);
}

/** Every category's brands with their counts, by category slug, in one query (the static build's category pages). */
export function brandCountsByCategory(db: Db): Map<string, BrandCount[]> {
  const rows = statement<(BrandCount & { slug: string })>(
    db,
    `SELECT c.slug AS slug, min(p.brand) AS brand, count(*) AS count FROM products p JOIN categories c ON c.id = p.category_id
     WHERE ${hasBrand} GROUP BY c.slug, p.brand COLLATE NOCASE ORDER BY c.slug, brand COLLATE NOCASE`,
  ).all();
  const bySlug = new Map<string, BrandCount[]>();
  for (const { slug, brand, count } of rows) {
    const list = bySlug.get(slug);
    if (list) list.push({ brand, count });
    else bySlug.set(slug, [{ brand, count }]);
  }
  return bySlug;
}
