import { defineAdminRoute } from "../../context.ts";
import { exportFileName, productsXlsxStream, xlsxContentType } from "../../lib/products-xlsx.ts";
import { siteConfig } from "../../../data/config.ts";

/**
 * Every product and offer as an .xlsx download, streamed as it is written (50,000 products never
 * sit in memory as one workbook). Named {site}-products-{YYYY-MM-DD}.xlsx (UK date).
 */
export default defineAdminRoute((_event, { db }) => {
  const name = exportFileName(siteConfig.siteName, new Date());
  return new Response(productsXlsxStream(db, { siteName: siteConfig.siteName }), {
    headers: {
      "content-type": xlsxContentType,
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
