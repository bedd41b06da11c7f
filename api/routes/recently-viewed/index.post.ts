import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { badRequest, noContent, readJson } from "../../lib/http.ts";
import { visitorIdSchema } from "../../../data/domain/visitor.ts";
import { productExists } from "../../../data/db/products.ts";
import { recordView } from "../../../data/db/visitors.ts";

const body = z.object({
  userId: visitorIdSchema,
  productId: z.number({ error: "productId must be a product id" }).int("productId must be a product id").positive("productId must be a product id"),
});

export default defineRoute(async (event, { db }) => {
  const { userId, productId } = await readJson(event, body);
  if (!productExists(db, productId)) throw badRequest("productId: unknown product");
  recordView(db, userId, productId);
  return noContent();
});
