import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { badRequest, noContent } from "../../http/http.ts";
import { storeWithinBudget } from "../../lib/storage-budget.ts";
import { visitorIdSchema } from "../../../data/domain/visitor.ts";
import { productExists } from "../../../data/db/products.ts";
import { recordView } from "../../../data/db/visitors.ts";

const bodySchema = z.object({
  userId: visitorIdSchema,
  productId: z.number({ error: "productId must be a product id" }).int("productId must be a product id").positive("productId must be a product id"),
});

export default defineRoute({ body: bodySchema }, async (event, { db }, { body }) => {
  const { userId, productId } = await body();
  if (!productExists(db, productId)) throw badRequest("productId: unknown product");
  // A product new to the visitor's list is a row stored; a repeat view only moves its entry to the front.
  storeWithinBudget(event, db, () => ({ value: null, rows: recordView(db, userId, productId) ? 1 : 0 }));
  return noContent();
});
