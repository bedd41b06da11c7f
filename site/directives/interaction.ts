/**
 * `client:interaction="key1,key2"`: for an island whose server-rendered HTML is complete (the
 * product grid) and which only needs React once the visitor uses it. It hydrates on the first
 * sign of use inside it (pointer over or down, touch, focus, key), or at the first idle moment
 * when this browser holds state under one of the storage keys (session or local storage, not
 * empty; a returning visitor's saved and compared products show as such without a tap) or the
 * address has a query string (the island's view may depend on it). Once the page is idle the
 * island's modules are preloaded, so hydrating waits on no network.
 *
 * A tap lands before hydration has finished: until the island says it is live (it dispatches
 * "pawprice:island-ready" from an effect, that is after React has committed), a click on a
 * control is held and replayed on the same element, and a changed field gets its value back
 * and is re-announced.
 * A link is left to the browser (it navigates at once) and its click is replayed with the
 * navigation cancelled, so the island's click handler (the click record) still runs once.
 * The event names are written out here: this file is inlined in every page that uses it.
 */
import type { ClientDirective } from "astro";

const wakeEvents = ["pointerover", "pointerdown", "touchstart", "focusin", "keydown"] as const;
/** What the directive holds until the island is live: taps, and fields' changes. */
const heldEvents = ["click", "input", "change"] as const;

function storedState(keys: string[]): boolean {
  try {
    return keys.some((key) => {
      const value = sessionStorage.getItem(key) ?? localStorage.getItem(key);
      return value !== null && value !== "" && value !== "[]" && value !== "{}";
    });
  } catch {
    return false;
  }
}

function whenIdle(run: () => void): void {
  if ("requestIdleCallback" in window) window.requestIdleCallback(run);
  else setTimeout(run, 200);
}

const interactionDirective: ClientDirective = (load, options, el) => {
  let started = false;
  let ready = false;
  /** What the visitor did before the island was live, in order. */
  const held: (() => void)[] = [];

  const hydrate = async () => {
    if (started) return;
    started = true;
    for (const name of wakeEvents) el.removeEventListener(name, wake, true);
    await (await load())();
  };
  const wake = () => void hydrate();

  /** Fields changed before the island was live, with the value the visitor chose last. */
  const heldValues = new Map<HTMLSelectElement | HTMLInputElement, string>();

  const hold = (event: Event) => {
    if (ready || !(event.target instanceof Element)) return;
    // "input" as well as "change": a select reports "input" first, and that event alone can make
    // React finish hydrating on the spot, which resets the select to the value it rendered
    // before the "change" that follows reaches it. The chosen value is put back and announced
    // once the island is live (once per field, with its last value).
    if (event.type === "change" || event.type === "input") {
      const field = event.target;
      if (field instanceof HTMLSelectElement || field instanceof HTMLInputElement) {
        if (!heldValues.has(field)) {
          held.push(() => {
            field.value = heldValues.get(field)!;
            field.dispatchEvent(new Event("change", { bubbles: true }));
          });
        }
        heldValues.set(field, field.value);
      }
      return;
    }
    const link = event.target.closest("a[href]");
    if (link instanceof HTMLAnchorElement) {
      held.push(() => {
        const cancelNavigation = (replayed: Event) => replayed.preventDefault();
        window.addEventListener("click", cancelNavigation, { once: true });
        link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
        window.removeEventListener("click", cancelNavigation);
      });
      void hydrate();
      return;
    }
    // A select opens on pointer down and reports by "change" (above); a text field's click only focuses it.
    const control = event.target.closest('button, label, [role=button], input[type="checkbox"], input[type="radio"]');
    if (!(control instanceof HTMLElement)) return;
    event.preventDefault();
    event.stopPropagation();
    held.push(() => control.click());
    void hydrate();
  };

  el.addEventListener(
    "pawprice:island-ready",
    () => {
      ready = true;
      for (const name of heldEvents) el.removeEventListener(name, hold, true);
      // In a task of their own, after the effect that announced the island has returned.
      setTimeout(() => {
        for (const replay of held.splice(0)) replay();
      });
    },
    { once: true },
  );
  for (const name of heldEvents) el.addEventListener(name, hold, true);

  const keys = typeof options.value === "string" ? options.value.split(",").filter(Boolean) : [];
  if (storedState(keys) || window.location.search !== "") {
    whenIdle(wake);
    return;
  }
  for (const name of wakeEvents) el.addEventListener(name, wake, { capture: true, passive: true });
  whenIdle(() => {
    for (const attribute of ["renderer-url", "component-url"]) {
      const href = el.getAttribute(attribute);
      if (!href || document.querySelector(`link[rel="modulepreload"][href="${href}"]`)) continue;
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.append(link);
    }
  });
};

export default interactionDirective;
