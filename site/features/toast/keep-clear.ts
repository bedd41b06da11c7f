/**
 * What toasts keep clear of at the foot of the screen: bars and panels docked there (the compare
 * bar and the open compare tray) register themselves, and the screen height they cover from the
 * bottom up is kept in a custom property on the root element, which the toast viewport sits on.
 */
import { useEffect, type RefObject } from "react";

/** The custom property (px) the toast viewport's bottom is set from. */
export const keepClearProperty = "--toasts-keep-clear-bottom";

const docked = new Set<HTMLElement>();

/** Writes how far up from the screen's bottom edge the highest docked element reaches. */
function publish(): void {
  let top = window.innerHeight;
  for (const element of docked) top = Math.min(top, element.getBoundingClientRect().top);
  document.documentElement.style.setProperty(keepClearProperty, `${Math.max(0, Math.ceil(window.innerHeight - top))}px`);
}

/**
 * Registers the element in `ref` (rendered while `shown`) as docked at the screen's foot: toasts
 * stay above it while it is there, follow its size, and are measured again whenever `deps` change.
 */
export function useKeepToastsClear(ref: RefObject<HTMLElement | null>, shown: boolean, deps: readonly unknown[] = []): void {
  useEffect(() => {
    const element = ref.current;
    if (!shown || element === null) return;
    docked.add(element);
    const observer = new ResizeObserver(publish);
    observer.observe(element);
    window.addEventListener("resize", publish);
    publish();
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", publish);
      docked.delete(element);
      publish();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- deps are the caller's list of what moves the element
  }, [ref, shown, ...deps]);
}
