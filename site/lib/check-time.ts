/**
 * A check time as a UK reader reads it: "27 November 2026 at 00:39". One formatter for every
 * page: making an Intl.DateTimeFormat costs about half a millisecond, as much as the rest of a
 * product page's own code, and a full build renders tens of thousands of product pages.
 */
export const checkedAtText = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
