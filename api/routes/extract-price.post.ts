import { HTTPError } from "h3";
import { z } from "zod";
import { defineAdminRoute } from "../context.ts";
import { FetchFailed, FetchRefused } from "../lib/guarded-fetch.ts";
import type { OfferCandidate, OfferConfidence, OfferEvidence } from "../../data/domain/offer-extract.ts";

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

/** An offer the page lists, its price in pounds when it is in pounds. */
export interface CandidateAnswer {
  price: number | null;
  currency: string | null;
  inStock: boolean | null;
  label: string;
}

export interface ExtractAnswer {
  /** Pounds; null when the page shows no one price, or not in pounds (currency says what it is). */
  price: number | null;
  currency: string | null;
  inStock: boolean | null;
  source: string | null;
  /** The rule that found the price; null when none was found. */
  evidence: OfferEvidence | null;
  confidence: OfferConfidence | null;
  /** Present when the page lists several prices: the offers to pick from. */
  candidates?: CandidateAnswer[];
  /** Why there is no price: none on the page, several and nothing picks one, no currency named. */
  reason?: string;
}

const pounds = (pence: number, currency: string | null) => (currency === "GBP" ? pence / 100 : null);
const candidateAnswer = (candidate: OfferCandidate): CandidateAnswer => ({ ...candidate, price: pounds(candidate.price, candidate.currency) });

/**
 * Reads the price on a retailer page (admin only). 200 `{ price, currency, inStock, source,
 * evidence, confidence, candidates?, reason? }`: price in pounds, null when the page shows none,
 * lists several that nothing on it picks (then `candidates`), or is not priced in pounds
 * (currency says what it is; null when the page names none). 400 for a URL that may not be
 * fetched, 502 when the page could not be read.
 */
export default defineAdminRoute({ body: extractInput }, async (_event, { admin }, { body }): Promise<ExtractAnswer> => {
  const { url } = await body();
  let reading;
  try {
    ({ reading } = await admin.pipeline.readPage(url));
  } catch (error) {
    if (error instanceof FetchRefused) throw new HTTPError({ status: 400, message: error.message });
    if (error instanceof FetchFailed) throw new HTTPError({ status: 502, message: error.message });
    throw error;
  }
  const nothing = { price: null, currency: null, inStock: null, source: null, evidence: null, confidence: null };
  if (reading === null || reading.status === "none") return { ...nothing, reason: reading?.reason ?? "no price found on the page" };
  if (reading.status === "undecided") return { ...nothing, source: reading.source, reason: reading.reason, candidates: reading.candidates.map(candidateAnswer) };
  const { offer } = reading;
  return {
    price: pounds(offer.price, offer.currency),
    currency: offer.currency,
    inStock: offer.inStock,
    source: offer.source,
    evidence: offer.evidence,
    confidence: offer.confidence,
    ...(offer.candidates.length > 0 ? { candidates: offer.candidates.map(candidateAnswer) } : {}),
    ...(offer.currency === null ? { reason: "the page names no currency" } : {}),
  };
});
