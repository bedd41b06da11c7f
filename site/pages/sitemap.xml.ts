/**
 * The sitemap index: the static pages' sitemap and one sitemap per 40,000 products
 * (site/pages/sitemaps/[file].xml.ts), each product file with its latest modification.
 */
import type { APIRoute } from "astro";
import { siteConfig } from "../../data/config.ts";
import { productSitemapFiles } from "../lib/build-data.ts";

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export const GET: APIRoute = () => {
  const files = [
    { name: "pages", lastModified: undefined },
    ...productSitemapFiles().map((file) => ({
      name: file.name,
      lastModified: file.entries.reduce((latest, entry) => (entry.lastModified > latest ? entry.lastModified : latest), ""),
    })),
  ];
  const sitemaps = files.map(({ name, lastModified }) => {
    const loc = `<loc>${escapeXml(`${siteConfig.baseUrl}/sitemaps/${name}.xml`)}</loc>`;
    return lastModified ? `<sitemap>${loc}<lastmod>${escapeXml(lastModified)}</lastmod></sitemap>` : `<sitemap>${loc}</sitemap>`;
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps.join("\n")}\n</sitemapindex>\n`;
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
};
