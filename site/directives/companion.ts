/**
 * `client:companion="storage-key"`: for islands that show nothing until the visitor has done
 * something (the compare tray, recently viewed). When this visit already holds state under the
 * key (session or local storage, not empty), the island hydrates on idle as `client:idle` would;
 * otherwise it waits until another island on the page hydrates, the first moment the visitor
 * could add to it. A fresh visit to a page that hydrates nothing loads no React for them.
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

const companionDirective: ClientDirective = (load, options, el) => {
  let started = false;
  const hydrate = async () => {
    if (started) return;
    started = true;
    document.removeEventListener("astro:hydrate", onHydrate, true);
    await (await load())();
  };
  const onHydrate = (event: Event) => {
    if (event.target !== el) void hydrate();
  };
  if (typeof options.value === "string" && storedState(options.value)) {
    if ("requestIdleCallback" in window) window.requestIdleCallback(() => void hydrate());
    else setTimeout(() => void hydrate(), 200);
  } else {
    document.addEventListener("astro:hydrate", onHydrate, true);
  }
};

export default companionDirective;
