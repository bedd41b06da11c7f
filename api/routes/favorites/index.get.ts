import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { cacheNone } from "../../http/http.ts";
import { visitorIdSchema } from "../../../data/domain/visitor.ts";
import { listFavorites } from "../../../data/db/favorites.ts";
import { productJson } from "../../../data/domain/catalogue-json.ts";

const query = z.object({ userId: visitorIdSchema });

export default defineRoute({ query }, (event, { db }, { query: { userId } }) => {
  cacheNone(event);
  return listFavorites(db, userId).map((favorite) => ({ ...favorite, product: productJson(favorite.product) }));
});
