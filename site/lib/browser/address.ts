/**
 * The address bar's query string, as the islands that keep their view in it (the product grid,
 * the search results) write it: a change the visitor made is a new history entry; the canonical
 * form of what the page was opened with (bad values dropped, a page brought within the result)
 * replaces the current one, so Back does not return to an address that cannot be shown.
 */

const withQuery = (query: string) => `${window.location.pathname}${query}${window.location.hash}`;

/** Adds a history entry for the view with this query string ("" or "?..."). */
export function pushQuery(query: string): void {
  window.history.pushState(null, "", withQuery(query));
}

/** Puts this query string ("" or "?...") in place of the current one, when it differs. */
export function replaceQuery(query: string): void {
  if (window.location.search === query) return;
  window.history.replaceState(window.history.state, "", withQuery(query));
}
