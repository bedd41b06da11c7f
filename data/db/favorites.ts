/** Favourites (the wishlist) of anonymous visitors: one row per visitor and product. */
import type { Db } from "./client.ts";
import { statement } from "./statements.ts";
import { getProductsByIds } from "./products.ts";
import type { Product } from "../domain/catalogue.ts";
import { favoriteLimit } from "../domain/visitor.ts";
import { toPounds } from "../domain/money.ts";

export interface Favorite {
  id: number;
  userId: string;
  productId: number;
  notes: string | null;
  createdAt: string;
  /** The product's best price to the door when it was saved, in pounds (null: saved before prices were kept, or none in stock then). */
  savedPrice: number | null;
}

export interface FavoriteWithProduct extends Favorite {
  product: Product;
}

interface FavoriteRow {
  id: number;
  user_id: string;
  product_id: number;
  notes: string | null;
  created_at: string;
  saved_price_pence: number | null;
}

const columns = "id, user_id, product_id, notes, created_at, saved_price_pence";
const toFavorite = (row: FavoriteRow): Favorite => ({
  id: row.id,
  userId: row.user_id,
  productId: row.product_id,
  notes: row.notes,
  createdAt: row.created_at,
  savedPrice: toPounds(row.saved_price_pence),
});

export type AddFavoriteResult = { favorite: Favorite; created: boolean } | { limitReached: true };

/** Adds a favourite; an existing one for the same product is returned as it is (no second row). */
export function addFavorite(db: Db, userId: string, productId: number, notes?: string): AddFavoriteResult {
  return db.$client.transaction((): AddFavoriteResult => {
    const existing = statement<FavoriteRow>(db, `SELECT ${columns} FROM favorites WHERE user_id = ? AND product_id = ?`).get(userId, productId);
    if (existing) return { favorite: toFavorite(existing), created: false };
    const { n } = statement<{ n: number }>(db, "SELECT count(*) AS n FROM favorites WHERE user_id = ?").get(userId)!;
    if (n >= favoriteLimit) return { limitReached: true };
    // The price when saved is the product's best price to the door at that moment (its stored, derived best price).
    const row = statement<FavoriteRow>(
      db,
      `INSERT INTO favorites (user_id, product_id, notes, saved_price_pence) VALUES (?, ?, ?, (SELECT best_price_pence FROM products WHERE id = ?)) RETURNING ${columns}`,
    ).get(userId, productId, notes ? notes : null, productId)!;
    return { favorite: toFavorite(row), created: true };
  })();
}

/** The visitor's favourites, newest first, each with its product (two queries for the products). */
export function listFavorites(db: Db, userId: string): FavoriteWithProduct[] {
  const rows = statement<FavoriteRow>(db, `SELECT ${columns} FROM favorites WHERE user_id = ? ORDER BY created_at DESC, id DESC`).all(userId);
  const products = getProductsByIds(db, rows.map((row) => row.product_id));
  return rows.flatMap((row) => {
    const product = products.get(row.product_id);
    return product ? [{ ...toFavorite(row), product }] : [];
  });
}

export function findFavorite(db: Db, userId: string, productId: number): Favorite | null {
  const row = statement<FavoriteRow>(db, `SELECT ${columns} FROM favorites WHERE user_id = ? AND product_id = ?`).get(userId, productId);
  return row ? toFavorite(row) : null;
}

/** Removes the visitor's own favourite; false when there is none of that id for this visitor. */
export function removeFavorite(db: Db, id: number, userId: string): boolean {
  return statement(db, "DELETE FROM favorites WHERE id = ? AND user_id = ?").run(id, userId).changes === 1;
}

/** Sets (or clears, with "") the note on the visitor's own favourite. */
export function updateFavoriteNotes(db: Db, id: number, userId: string, notes: string): Favorite | null {
  const row = statement<FavoriteRow>(db, `UPDATE favorites SET notes = ? WHERE id = ? AND user_id = ? RETURNING ${columns}`).get(
    notes ? notes : null,
    id,
    userId,
  );
  return row ? toFavorite(row) : null;
}
