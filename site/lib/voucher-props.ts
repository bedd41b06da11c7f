import { siteConfig } from "../../data/config.ts";
import { buildAffiliateIds, voucherLists } from "./build-data.ts";

/** Build-time props of the vouchers island: the first page of active vouchers and the retailer list. */
export function voucherProps(pageSize: number) {
  const { vouchers, total, retailers } = voucherLists(pageSize);
  return {
    initialVouchers: vouchers,
    initialTotal: total,
    retailers,
    pageSize,
    links: { affiliateIds: buildAffiliateIds(), siteName: siteConfig.siteName },
  };
}
