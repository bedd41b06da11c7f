/**
 * Client-side navigation for the admin app. The server answers every /admin/... path with the
 * same page, so the app routes on location.pathname; links and redirects use pushState, and
 * back/forward come through popstate.
 */
import { atom } from "nanostores";

/**
 * The login screen's address. Kept here, not only in the screen registry, because the session
 * store sends an expired session to it: the store is loaded by the admin's API calls, which every
 * screen imports, so reaching the registry from there would load the screens before the calls
 * they use at load time (a circle that left a screen's calls undefined).
 */
export const loginPath = "/admin/login";

export interface AdminLocation {
  pathname: string;
  search: string;
}

function current(): AdminLocation {
  return { pathname: window.location.pathname, search: window.location.search };
}

// The app renders only in the browser, so the first render already sees the real address.
export const $location = atom<AdminLocation>(typeof window === "undefined" ? { pathname: "/admin", search: "" } : current());

let started = false;

/** Reads the address bar and follows back/forward from now on. Called once by the app. */
export function startRouter(): void {
  $location.set(current());
  if (started) return;
  started = true;
  window.addEventListener("popstate", () => $location.set(current()));
}

/** Goes to an admin path (with an optional query string). `replace` keeps it out of the history. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = new URL(to, window.location.origin);
  const next = `${url.pathname}${url.search}`;
  if (next !== `${window.location.pathname}${window.location.search}`) {
    if (options.replace) window.history.replaceState(null, "", next);
    else window.history.pushState(null, "", next);
  }
  $location.set(current());
  if (!options.replace) window.scrollTo(0, 0);
}

/**
 * Whether a click on a link to `href` should be handled in the app: a plain left click on an
 * admin path of this site (a new tab, a download or another page go to the browser).
 */
export function isAppNavigation(event: React.MouseEvent<HTMLAnchorElement>, href: string): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  const target = event.currentTarget.getAttribute("target");
  if (target && target !== "_self") return false;
  const url = new URL(href, window.location.origin);
  return url.origin === window.location.origin && (url.pathname === "/admin" || url.pathname.startsWith("/admin/"));
}
