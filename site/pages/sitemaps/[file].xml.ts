/**
 * The sitemaps listed by /sitemap.xml: /sitemaps/pages.xml (home, vouchers, categories, the pets'
 * pages and the static pages) and /sitemaps/products-1.xml, products-2.xml, ... with at most 40,000 product
 * URLs each, all read in one query. URLs are absolute, from the configured public base URL.
 */
import type { APIRoute, InferGetStaticPropsType } from "astro";
import { siteConfig } from "../../../data/config.ts";
import { categoryPath, cookiePath, homePath, petPath, privacyPath, productPath, vouchersPath } from "../../../data/domain/paths.ts";
import { allCategories, productSitemapFiles } from "../../lib/build-data.ts";
import { shopByPet } from "../../lib/shop-by-pet.ts";

interface UrlEntry {
  path: string;
  lastModified?: string;
}

/** Public pages with no data of their own (legal and about pages, not visitors' own lists). */
const staticPaths = [homePath, vouchersPath, privacyPath, cookiePath, "/about", "/contact", "/partner-with-us", "/how-we-compare"];

export function getStaticPaths() {
  const pets = shopByPet(allCategories()).filter((pet) => pet.href === petPath(pet.slug));
  const pages: UrlEntry[] = [
    ...staticPaths.map((path) => ({ path })),
    ...allCategories().map((category) => ({ path: categoryPath(category.slug) })),
    ...pets.map((pet) => ({ path: petPath(pet.slug) })),
  ];
  return [
    { params: { file: "pages" }, props: { entries: pages } },
    ...productSitemapFiles().map((file) => ({
      params: { file: file.name },
      props: { entries: file.entries.map((entry): UrlEntry => ({ path: productPath(entry.slug), lastModified: entry.lastModified })) },
    })),
  ];
}

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export const GET: APIRoute = ({ props }) => {
  const { entries } = props as Props;
  const urls = entries.map(({ path, lastModified }) => {
    const loc = `<loc>${escapeXml(new URL(path, `${siteConfig.baseUrl}/`).href)}</loc>`;
    return lastModified ? `<url>${loc}<lastmod>${escapeXml(lastModified)}</lastmod></url>` : `<url>${loc}</url>`;
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
};
