import { defineCachedRead } from "../../http/cached-route.ts";
import { productListQuery } from "../../../data/domain/queries.ts";
import { listProducts } from "../../../data/db/products.ts";
import { listProductsByCostPerDay } from "../../../data/db/food-costs.ts";
import { productJson } from "../../../data/domain/catalogue-json.ts";
import { toPounds } from "../../../data/domain/money.ts";

export default defineCachedRead({
  query: productListQuery,
  maxAgeSeconds: 10,
  read: ({ query: { sort, offset, limit, species, weightKg, lifeStage, activity, neutered, ...filters } }, { db }) => {
    if (sort !== "cost_per_day") return listProducts(db, filters, { sort, offset, limit }).map(productJson);
    // The query schema has checked that the whole pet came with this sort.
    const pet = { species: species!, weightKg: weightKg!, lifeStage: lifeStage!, activity: activity!, neutered: neutered! };
    return listProductsByCostPerDay(db, filters, pet, { offset, limit }).map(({ costPerDayPence, ...product }) => ({
      ...productJson(product),
      costPerDay: toPounds(costPerDayPence),
    }));
  },
});
