import { useStore } from "@nanostores/react";
import { X } from "lucide-react";
import { Toast } from "radix-ui";
import { cn } from "../../lib/cn.ts";
import { $toast, dismissToast } from "./toast.store.ts";

/**
 * Where toasts show: at the foot of the screen, above whatever is docked there (keep-clear.ts:
 * the compare bar and tray), or at the top under the admin's header, clear of its Save bars and
 * results at the foot.
 */
export type ToastPlacement = "bottom" | "top";

const viewportPlacement: Record<ToastPlacement, string> = {
  bottom: "bottom-[var(--toasts-keep-clear-bottom,0px)]",
  top: "top-14",
};

/** Radix Toast gives the toast timings: 5 s, swipe right 50 px to dismiss, F8 focuses the region. */
export default function RadixToaster({ placement = "bottom" }: { placement?: ToastPlacement }) {
  const current = useStore($toast);
  return (
    <Toast.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {current && (
        <Toast.Root
          key={current.id}
          defaultOpen
          onOpenChange={(open) => {
            if (!open) dismissToast(current.id);
          }}
          className={cn(
            "pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)]",
            current.variant === "destructive" ? "border-red-700 bg-red-700 text-white" : "border-slate-200 bg-white text-slate-900",
          )}
          data-testid="toast"
        >
          <div className="grid gap-1">
            {current.title && <Toast.Title className="text-sm font-semibold">{current.title}</Toast.Title>}
            {current.description && <Toast.Description className="text-sm whitespace-pre-line opacity-90">{current.description}</Toast.Description>}
          </div>
          <Toast.Close aria-label="Close" className="absolute top-3 right-3 rounded-md p-1 opacity-80 hover:opacity-100">
            <X className="size-4" aria-hidden="true" />
          </Toast.Close>
        </Toast.Root>
      )}
      <Toast.Viewport className={cn("fixed right-0 z-[100] flex w-full max-w-sm flex-col gap-2 p-4 outline-none", viewportPlacement[placement])} />
    </Toast.Provider>
  );
}
