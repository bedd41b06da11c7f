/**
 * `client:companion="storage-key"`: for islands that show nothing until the visitor has done
 * something (the compare tray, recently viewed). When this visit already holds state under the
 * key (session or local storage, not empty), the island hydrates on idle as `client:idle` would;
 * otherwise it waits until another island on the page hydrates (the first moment the visitor
 * could add to it) and then for the next idle moment, so that its work is not added to the long
 * task of the island that woke it. A fresh visit to a page that hydrates nothing loads no React for them.
 * Astro dispatches "astro:hydrate" on each island element without bubbling: it is heard on the
 * document in the capture phase.
 */
import type { ClientDirective } from "astro";

function storedState(key: string): boolean {
  try {
    const value = sessionStorage.getItem(key) ?? localStorage.getItem(key);
    return value !== null && value !== "" && value !== "[]" && value !== "{}";
  } catch {
    return false;
  }
}

/** Hydrates once the main thread is idle: in a task of its own, not in the one that woke it. */
function whenIdle(hydrate: () => void): void {
  if ("requestIdleCallback" in window) window.requestIdleCallback(hydrate);
  else setTimeout(hydrate, 200);
}

const companionDirective: ClientDirective = (load, options, el) => {
  let started = false;
  const hydrate = async () => {
    if (started) return;
    started = true;
    document.removeEventListener("astro:hydrate", onHydrate, true);
    await (await load())();
  };
  const onHydrate = (event: Event) => {
    if (event.target !== el) whenIdle(() => void hydrate());
  };
  if (typeof options.value === "string" && storedState(options.value)) whenIdle(() => void hydrate());
  else document.addEventListener("astro:hydrate", onHydrate, true);
};

export default companionDirective;
