/**
 * A product picture that fails to load (a feed's image moved or gone, a retailer's server down)
 * shows the product's drawn packshot instead of a broken image.
 */

/** Swaps the image for its fallback, once: a fallback that fails too is left as it is. */
export function showFallbackImage(img: HTMLImageElement, fallback: string): void {
  const current = new URL(img.currentSrc || img.src, window.location.href);
  if (current.pathname === fallback && current.origin === window.location.origin) return;
  img.src = fallback;
}

/**
 * Static pages' product pictures carry their fallback in data-fallback-src: one that failed before
 * this script ran is swapped now, the others if they fail later.
 */
export function enhanceImageFallbacks(root: ParentNode = document): void {
  for (const img of root.querySelectorAll<HTMLImageElement>("img[data-fallback-src]:not([data-fallback-ready])")) {
    img.dataset.fallbackReady = "";
    const fallback = img.dataset.fallbackSrc!;
    if (img.complete && img.naturalWidth === 0 && img.currentSrc !== "") showFallbackImage(img, fallback);
    else img.addEventListener("error", () => showFallbackImage(img, fallback), { once: true });
  }
}
