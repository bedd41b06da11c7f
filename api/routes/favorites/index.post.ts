import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { badRequest } from "../../http/http.ts";
import { storeWithinBudget } from "../../lib/storage-budget.ts";
import { favoriteLimit, notesSchema, productIdSchema, visitorIdSchema } from "../../../data/domain/visitor.ts";
import { productExists } from "../../../data/db/products.ts";
import { addFavorite } from "../../../data/db/favorites.ts";

const bodySchema = z.object({ userId: visitorIdSchema, productId: productIdSchema, notes: notesSchema.optional() });

/** 201 with the new favourite; 200 with the existing one when the product is already saved. */
export default defineRoute({ body: bodySchema }, async (event, { db }, { body }) => {
  const { userId, productId, notes } = await body();
  if (!productExists(db, productId)) throw badRequest("productId: unknown product");
  const result = storeWithinBudget(event, db, () => {
    const result = addFavorite(db, userId, productId, notes);
    return { value: result, rows: "created" in result && result.created ? 1 : 0 };
  });
  if ("limitReached" in result) throw badRequest(`You can save up to ${favoriteLimit} favourites. Remove one to add another.`);
  event.res.status = result.created ? 201 : 200;
  return result.favorite;
});
