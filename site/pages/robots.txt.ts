/** robots.txt: everything public may be crawled except the admin area and the API. */
import type { APIRoute } from "astro";
import { siteConfig } from "../../data/config.ts";

export const GET: APIRoute = () =>
  new Response(`User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${siteConfig.baseUrl}/sitemap.xml\n`, {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
