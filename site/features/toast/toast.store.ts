/**
 * Toasts (SPEC.md section 9): one visible at a time (a new one replaces the old), 5 seconds,
 * variants default and destructive. Any island calls `toast()`; the Toaster island shows it.
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

export function toast(message: Omit<ToastMessage, "id" | "variant"> & { variant?: ToastMessage["variant"] }): void {
  $toast.set({ variant: "default", ...message, id: nextId++ });
}

export function dismissToast(id: number): void {
  if ($toast.get()?.id === id) $toast.set(null);
}
