import { listVouchers } from "../../data/db/catalogue.ts";
import { siteConfig } from "../../data/config.ts";
import { buildAffiliateIds, buildDb } from "./build-data.ts";

/** Build-time props of the vouchers island: the first page of active vouchers and the retailer list. */
export function voucherProps(pageSize: number) {
  const db = buildDb();
  const { vouchers, total } = listVouchers(db, { status: "active", sort: "expiry", offset: 0, limit: pageSize });
  const retailers = [...new Set(listVouchers(db, { status: "all", sort: "expiry", offset: 0, limit: 100 }).vouchers.map((v) => v.retailer))].sort();
  return {
    initialVouchers: vouchers,
    initialTotal: total,
    retailers,
    pageSize,
    links: { affiliateIds: buildAffiliateIds(), siteName: siteConfig.siteName },
  };
}
