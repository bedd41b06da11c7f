/** Small readers of query-string values shared by the grid's and the search page's queries. */

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
