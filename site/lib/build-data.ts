/**
 * Build-time access to the catalogue: pages read SQLite through the data layer directly (no HTTP
 * round trip). One connection per build process; small shared lists are read once.
 */
import { databasePath } from "../../data/config.ts";
import { openDb, type Db } from "../../data/db/client.ts";
import { getAffiliateIds, listCategories, listRetailers } from "../../data/db/catalogue.ts";
import type { AffiliateIds, Category, Retailer } from "../../data/domain/catalogue.ts";

let db: Db | undefined;
let categories: Category[] | undefined;
let retailers: Retailer[] | undefined;
let affiliateIds: AffiliateIds | undefined;

export function buildDb(): Db {
  return (db ??= openDb(databasePath()));
}

export function allCategories(): Category[] {
  return (categories ??= listCategories(buildDb()));
}

export function allRetailers(): Retailer[] {
  return (retailers ??= listRetailers(buildDb()));
}

export function buildAffiliateIds(): AffiliateIds {
  return (affiliateIds ??= getAffiliateIds(buildDb()));
}
