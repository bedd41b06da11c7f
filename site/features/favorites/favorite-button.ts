/**
 * The product page's Save/Saved button in plain script: its state comes from the is-favorite
 * check and then follows the favourites store (so it agrees with every other Save control on the
 * page). It is disabled until the first check answers (it cannot have focus yet); while a change
 * is under way it is aria-disabled and ignores presses but stays focusable, as a disabled button
 * would drop the keyboard's focus to the page.
 */
import { $favorites, checkFavorite, toggleFavorite } from "./favorites.store.ts";

const savedButtonClasses = ["border-rose-300", "bg-rose-50", "text-rose-800", "hover:bg-rose-100"];
const savedIconClasses = ["fill-rose-600", "text-rose-600"];

function render(button: HTMLButtonElement, productName: string, saved: boolean): void {
  button.setAttribute("aria-pressed", String(saved));
  button.setAttribute("aria-label", saved ? `Remove ${productName} from favourites` : `Save ${productName} to favourites`);
  for (const name of savedButtonClasses) button.classList.toggle(name, saved);
  for (const name of savedIconClasses) button.querySelector("svg")?.classList.toggle(name, saved);
  const label = button.querySelector("[data-favorite-label]");
  if (label) label.textContent = saved ? "Saved" : "Save";
}

function enhance(button: HTMLButtonElement): void {
  const productId = Number(button.dataset.productId);
  const productName = button.dataset.productName ?? "";
  $favorites.subscribe((favorites) => render(button, productName, favorites[productId] !== undefined));
  button.disabled = true;
  checkFavorite(productId)
    .catch((error) => console.error("Failed to fetch favorites", error))
    .finally(() => (button.disabled = false));
  button.addEventListener("click", () => {
    if (button.getAttribute("aria-disabled") === "true") return;
    button.setAttribute("aria-disabled", "true");
    void toggleFavorite(productId).finally(() => button.removeAttribute("aria-disabled"));
  });
}

/** Wires every Save button the page rendered (data-favorite-button), once each. */
export function enhanceFavoriteButtons(root: ParentNode = document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>("button[data-favorite-button]:not([data-enhanced])")) {
    button.dataset.enhanced = "";
    enhance(button);
  }
}
