/**
 * Mounts "Similar food, cheaper per day" (Alternatives.tsx) over the static section the food page
 * was built with (AlternativesPanel.astro), from the props it wrote into `data-alternatives`.
 */
// First: the pet-profile schema must be constructed with Zod jitless (CSP without eval).
import "../../lib/zod-jitless.ts";
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import Alternatives, { type AlternativesProps } from "./Alternatives.tsx";

const mounted = new WeakSet<HTMLElement>();

export function mountAlternatives(container: HTMLElement): void {
  const props = JSON.parse(container.dataset.alternatives ?? "null") as AlternativesProps | null;
  if (props === null || mounted.has(container)) return;
  mounted.add(container);
  createRoot(container).render(createElement(Alternatives, props));
}
