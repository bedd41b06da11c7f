import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names, skipping falsy ones. (No tailwind-merge: it costs 8 KB gzip on every page;
 * components avoid passing conflicting utilities instead.)
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
