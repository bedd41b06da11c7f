/**
 * "I'm a Pets Club member": the loyalty schemes the visitor says they belong to, kept in this
 * browser's local storage. On a product page, an offer whose member price needs one of them shows
 * the member's total to the door under its standard total; the ranking and the best price stay on
 * what anyone pays. Member prices themselves are always shown beside the standard item price, with
 * the scheme named, whether or not the visitor is a member. A display preference the visitor
 * sets, so it needs no cookie consent (it is "This browser's data", cleared with the rest).
 */
export const memberSchemesKey = "member_schemes";

export function readMemberSchemes(): Set<string> {
  try {
    const stored = JSON.parse(localStorage.getItem(memberSchemesKey) ?? "[]") as unknown;
    return new Set(Array.isArray(stored) ? stored.filter((scheme): scheme is string => typeof scheme === "string") : []);
  } catch {
    return new Set();
  }
}

function saveMemberSchemes(schemes: Set<string>): void {
  try {
    if (schemes.size === 0) localStorage.removeItem(memberSchemesKey);
    else localStorage.setItem(memberSchemesKey, JSON.stringify([...schemes].sort()));
  } catch {
    // Storage blocked: the choice holds for this page only.
  }
}

/** Shows each member total on the page whose scheme the visitor belongs to, and hides the others. */
function showMemberTotals(schemes: ReadonlySet<string>): void {
  for (const total of document.querySelectorAll<HTMLElement>("[data-member-total]")) total.hidden = !schemes.has(total.dataset.memberTotal!);
  for (const toggle of document.querySelectorAll<HTMLInputElement>("input[data-member-toggle]")) toggle.checked = schemes.has(toggle.dataset.memberToggle!);
}

/** Wires every "I'm a ... member" checkbox on the page. */
export function enhanceMemberToggles(): void {
  showMemberTotals(readMemberSchemes());
  for (const toggle of document.querySelectorAll<HTMLInputElement>("input[data-member-toggle]")) {
    toggle.addEventListener("change", () => {
      const schemes = readMemberSchemes();
      if (toggle.checked) schemes.add(toggle.dataset.memberToggle!);
      else schemes.delete(toggle.dataset.memberToggle!);
      saveMemberSchemes(schemes);
      showMemberTotals(schemes);
    });
  }
}
