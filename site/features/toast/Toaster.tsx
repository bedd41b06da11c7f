import { useStore } from "@nanostores/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { $toast } from "./toast.store.ts";

/** Radix Toast (with its shared primitives, ~13 KB gzip) loads with the first toast, not with every page. */
const RadixToaster = lazy(() => import("./RadixToaster.tsx"));

/** Mount once per page; shows the toasts any island raises with `toast()`. */
export default function Toaster() {
  const current = useStore($toast);
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (current) setNeeded(true);
  }, [current]);
  if (!needed && !current) return null;
  return (
    <Suspense fallback={null}>
      <RadixToaster />
    </Suspense>
  );
}
