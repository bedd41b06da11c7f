/** Writes of categories; every page shows the category menu, so each is a site-wide change. */
import type { Db } from "../client.ts";
import { changedFields, recordAudit } from "../audit.ts";
import { statement } from "../statements.ts";
import type { CategoryInput } from "../../domain/catalogue-input.ts";
import { catalogueTransaction, noChange, plural, siteWideChange, WriteRefused, type Written } from "./transaction.ts";

interface StoredCategory {
  id: number;
  name: string;
  slug: string;
  icon: string;
  description: string;
}

function storedCategory(db: Db, id: number): StoredCategory | undefined {
  return statement(db, "SELECT id, name, slug, icon, description FROM categories WHERE id = ?").get(id) as StoredCategory | undefined;
}

function assertCategorySlugFree(db: Db, slug: string, exceptId: number | null): void {
  const row = statement(db, "SELECT id FROM categories WHERE slug = ?").get(slug) as { id: number } | undefined;
  if (row && row.id !== exceptId) throw new WriteRefused(409, `A category with the slug "${slug}" already exists`);
}

export function createCategory(db: Db, input: CategoryInput, now = new Date()): Written<StoredCategory> {
  return catalogueTransaction(db, () => {
    assertCategorySlugFree(db, input.slug, null);
    const row = statement(db, "INSERT INTO categories (name, slug, icon, description) VALUES (?, ?, ?, ?) RETURNING id, name, slug, icon, description").get(
      input.name,
      input.slug,
      input.icon,
      input.description,
    ) as StoredCategory;
    recordAudit(db, { action: "create", entity: "category", entityId: row.id, summary: `Created category "${row.name}"`, after: { ...input } }, now);
    return { value: row, change: siteWideChange };
  });
}

export function updateCategory(db: Db, id: number, input: CategoryInput, now = new Date()): Written<StoredCategory> {
  return catalogueTransaction(db, () => {
    const before = storedCategory(db, id);
    if (!before) throw new WriteRefused(404, "Category not found");
    assertCategorySlugFree(db, input.slug, id);
    const { id: _, ...fields } = before;
    const diff = changedFields(fields, { ...input });
    const after = { id, ...input };
    if (diff.names.length === 0) return { value: after, change: noChange };
    statement(db, "UPDATE categories SET name = ?, slug = ?, icon = ?, description = ? WHERE id = ?").run(
      input.name,
      input.slug,
      input.icon,
      input.description,
      id,
    );
    recordAudit(
      db,
      { action: "update", entity: "category", entityId: id, summary: `Updated category "${input.name}": ${diff.names.join(", ")}`, before: diff.before, after: diff.after },
      now,
    );
    return { value: after, change: siteWideChange };
  });
}

export function deleteCategory(db: Db, id: number, now = new Date()): Written<null> {
  return catalogueTransaction(db, () => {
    const before = storedCategory(db, id);
    if (!before) throw new WriteRefused(404, "Category not found");
    const { n } = statement(db, "SELECT count(*) AS n FROM products WHERE category_id = ?").get(id) as { n: number };
    if (n > 0) throw new WriteRefused(409, `Category "${before.name}" still has ${plural(n, "product")}; move or delete them first`);
    statement(db, "DELETE FROM categories WHERE id = ?").run(id);
    recordAudit(db, { action: "delete", entity: "category", entityId: id, summary: `Deleted category "${before.name}"` }, now);
    return { value: null, change: siteWideChange };
  });
}
