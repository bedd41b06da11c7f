/**
 * Mounts the Feeding Cost panel in the browser, in place of the static panel the page was built
 * with (FeedingCostPanel.astro), from the props the page wrote into `data-feeding-cost`. The panel
 * is rendered only here: its form does nothing without JavaScript, so the build does not render
 * it with React on every food page.
 */
// First: the feeding schemas must be constructed with Zod jitless (CSP without eval).
import "../../lib/zod-jitless.ts";
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import FeedingCost, { type FeedingCostProps } from "./FeedingCost.tsx";

const mounted = new WeakSet<HTMLElement>();

export function mountFeedingCost(container: HTMLElement): void {
  const props = JSON.parse(container.dataset.feedingCost ?? "null") as FeedingCostProps | null;
  if (props === null || mounted.has(container)) return;
  mounted.add(container);
  createRoot(container).render(createElement(FeedingCost, props));
}
