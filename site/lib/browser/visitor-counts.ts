/**
 * The header's favourite and alert badges follow the visitor's own saves: whatever adds or removes
 * a favourite, or creates or deletes an alert, announces it with this window event, and the
 * header's script reads the counts again (site/scripts/header-counts.ts).
 */
export const visitorCountsChangedEvent = "pawprice:visitor-counts-changed";

export function announceVisitorCountsChanged(): void {
  window.dispatchEvent(new Event(visitorCountsChangedEvent));
}
