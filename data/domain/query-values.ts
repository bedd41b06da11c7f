/**
 * Small readers of query-string values shared by the grid's and the search page's queries, and
 * the page sizes the API's query schemas (queries.ts) and the islands' readers both use. Pure, no
 * zod, so the islands bundle it.
 */

/** Products a page holds when the caller does not say: the grid's and the search results' page size. */
export const defaultPageSize = 15;
/** The most products one page of the API may hold. */
export const maxPageSize = 100;

const positiveIntegerPattern = /^[1-9]\d{0,14}$/;

export const toParams = (search: string | URLSearchParams): URLSearchParams =>
  typeof search === "string" ? new URLSearchParams(search) : search;

/** A whole number of 1 or more written as digits, else undefined. */
export const positiveInteger = (value: string | null): number | undefined =>
  value !== null && positiveIntegerPattern.test(value) ? Number(value) : undefined;

/** A page number from the query string or a caller: a whole number of 1 or more, else 1. */
export function validPage(value: string | number | null | undefined): number {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 1 ? value : 1;
  return positiveInteger(value ?? null) ?? 1;
}
