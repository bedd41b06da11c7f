/**
 * Toasts: one visible at a time (a new one replaces the old), 5 seconds,
 * variants default and destructive. Any island or page script calls `toast()`; the Toaster
 * island shows it. The Toaster hydrates only when the first toast is raised (the client:toast
 * directive listens for `toastEvent`), so the store already holds that toast when it does.
 */
import { atom } from "nanostores";

export interface ToastMessage {
  id: number;
  title?: string;
  description?: string;
  variant: "default" | "destructive";
}

export const $toast = atom<ToastMessage | null>(null);
let nextId = 1;

/** Dispatched on window after each toast is stored (plain event: the directive has no store). */
export const toastEvent = "pawprice:toast";

export function toast(message: Omit<ToastMessage, "id" | "variant"> & { variant?: ToastMessage["variant"] }): void {
  $toast.set({ variant: "default", ...message, id: nextId++ });
  if (typeof window !== "undefined") window.dispatchEvent(new Event(toastEvent));
}

export function dismissToast(id: number): void {
  if ($toast.get()?.id === id) $toast.set(null);
}
