import { useSyncExternalStore } from "react";

const subscribeNever = () => () => undefined;

/**
 * False while React hydrates server HTML, true from the render after: state only the browser
 * holds (session storage) is shown once hydration has matched the static HTML, without a
 * mismatch. On an island that mounts without server HTML it is true from the first render.
 */
export function useIsClient(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
