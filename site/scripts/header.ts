/**
 * Header behaviour in plain script (no framework): the category dropdown (a disclosure:
 * Escape closes it and returns focus, a click outside closes it), the mobile menu (any link
 * closes it) and the search form (trimmed, URL-encoded, nothing happens when empty; on the
 * search page it shows the text searched for).
 */
import { searchBasePath } from "../../data/domain/paths.ts";
import { parseSearchQuery, searchQueryString } from "../../data/domain/search-query.ts";

/** Opens or closes a menu panel: its styles show it while it has data-open. */
function setOpen(toggle: HTMLElement, panel: HTMLElement, open: boolean): void {
  toggle.setAttribute("aria-expanded", String(open));
  panel.toggleAttribute("data-open", open);
}

const isOpen = (panel: HTMLElement) => panel.hasAttribute("data-open");

function initDropdown(root: HTMLElement): void {
  const toggle = root.querySelector<HTMLElement>("[data-dropdown-toggle]");
  const panel = root.querySelector<HTMLElement>("[data-dropdown-panel]");
  if (!toggle || !panel) return;
  toggle.addEventListener("click", () => setOpen(toggle, panel, !isOpen(panel)));
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen(panel)) {
      setOpen(toggle, panel, false);
      toggle.focus();
    }
    if ((event.key === "ArrowDown" || event.key === "ArrowUp") && isOpen(panel)) {
      const links = [...panel.querySelectorAll<HTMLAnchorElement>("a")];
      const index = links.indexOf(document.activeElement as HTMLAnchorElement);
      const next = event.key === "ArrowDown" ? index + 1 : index - 1;
      links[(next + links.length) % links.length]?.focus();
      event.preventDefault();
    }
  });
  document.addEventListener("click", (event) => {
    if (!root.contains(event.target as Node)) setOpen(toggle, panel, false);
  });
  root.addEventListener("focusout", (event) => {
    if (!root.contains(event.relatedTarget as Node | null) && event.relatedTarget !== null) setOpen(toggle, panel, false);
  });
}

function initMobileMenu(): void {
  const toggle = document.querySelector<HTMLElement>("[data-mobile-toggle]");
  const menu = document.querySelector<HTMLElement>("[data-mobile-menu]");
  if (!toggle || !menu) return;
  const openIcon = toggle.querySelector<HTMLElement>("[data-icon-open]");
  const closeIcon = toggle.querySelector<HTMLElement>("[data-icon-close]");
  const set = (open: boolean) => {
    setOpen(toggle, menu, open);
    toggle.setAttribute("aria-label", open ? "Close menu" : "Open menu");
    openIcon?.toggleAttribute("hidden", open);
    closeIcon?.toggleAttribute("hidden", !open);
  };
  toggle.addEventListener("click", () => set(!isOpen(menu)));
  menu.addEventListener("click", (event) => {
    if ((event.target as Element).closest("a")) set(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen(menu)) {
      set(false);
      toggle.focus();
    }
  });
}

function initSearchForms(): void {
  // The page is the same static HTML for every search: the text searched for is in the address.
  const { pathname } = window.location;
  const searched = pathname === searchBasePath || pathname === `${searchBasePath}/` ? parseSearchQuery(window.location.search).q : "";
  for (const form of document.querySelectorAll<HTMLFormElement>("[data-search-form]")) {
    const box = form.querySelector<HTMLInputElement>("input[name=q]");
    if (box && searched && box.value === "") box.value = searched;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = form.querySelector<HTMLInputElement>("input[name=q]");
      const target = searchQueryString(input?.value ?? "", 1);
      if (target !== null) window.location.assign(target);
    });
  }
}

export function initHeader(): void {
  document.querySelectorAll<HTMLElement>("[data-dropdown]").forEach(initDropdown);
  initMobileMenu();
  initSearchForms();
}
