import { z } from "zod";
import { defineAdminRoute } from "../../../context.ts";
import type { AdminProductPage } from "../../../http/responses.ts";
import { adminPageSize, listAdminProducts } from "../../../../data/db/admin-reads.ts";
import { maxSearchLength } from "../../../../data/domain/search.ts";

const query = z.object({
  page: z
    .string({ error: "page must be given once" })
    .regex(/^\d{1,6}$/, "page must be a whole number from 1")
    .transform(Number)
    .refine((n) => n >= 1, "page must be a whole number from 1")
    .optional()
    .default(1),
  q: z.string({ error: "q must be given once" }).trim().max(maxSearchLength, `q must be at most ${maxSearchLength} characters`).optional(),
});

/** The admin product table: 100 per page, optionally filtered by a search. */
export default defineAdminRoute({ query }, (_event, { db }, { query: { page, q } }) => {
  const { products, total } = listAdminProducts(db, { page, q: q || undefined });
  return { products, total, page, pageSize: adminPageSize } satisfies AdminProductPage;
});
