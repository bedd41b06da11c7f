import { HTTPError } from "h3";
import { z } from "zod";
import { defineAdminRoute } from "../context.ts";
import { FetchFailed, FetchRefused } from "../lib/guarded-fetch.ts";
import { readJson } from "../lib/http.ts";

const extractInput = z.object({
  url: z
    .string({ error: "url is required" })
    .trim()
    .min(1, "url is required")
    .max(2000, "url must be at most 2000 characters")
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === "http:" || url.protocol === "https:";
      } catch {
        return false;
      }
    }, "url must be an http or https URL"),
});

/**
 * Reads the price on a retailer page (admin only). 200 `{ price, currency, inStock, source }`:
 * price in pounds, null when the page shows none or is not priced in pounds (currency then says
 * what it is). 400 for a URL that may not be fetched, 502 when the page could not be read.
 */
export default defineAdminRoute(async (event, { admin }) => {
  const { url } = await readJson(event, extractInput);
  let offer;
  try {
    offer = await admin.pipeline.readPage(url);
  } catch (error) {
    if (error instanceof FetchRefused) throw new HTTPError({ status: 400, message: error.message });
    if (error instanceof FetchFailed) throw new HTTPError({ status: 502, message: error.message });
    throw error;
  }
  if (offer === null) return { price: null, currency: null, inStock: null, source: null };
  return {
    price: offer.currency === "GBP" ? offer.price / 100 : null,
    currency: offer.currency,
    inStock: offer.inStock,
    source: offer.source,
  };
});
