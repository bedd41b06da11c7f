import { useEffect, useState } from "react";
import RadixToaster, { type ToastPlacement } from "./RadixToaster.tsx";

/**
 * Mount once per page; shows the toasts any island or page script raises with `toast()`.
 * Public pages hydrate it with client:toast (when the first toast is raised), so this island and
 * Radix Toast load only then. The first render is empty, as the build rendered it, and the toast
 * UI follows right after: the store may already hold a toast when hydration starts.
 */
export default function Toaster({ placement }: { placement?: ToastPlacement }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  // A fragment, not null: Astro's React renderer recognises a component by the element it returns.
  return <>{mounted && <RadixToaster placement={placement} />}</>;
}
