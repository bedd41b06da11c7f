import { escapeXml } from "./packshot.ts";

const minSide = 16;
const maxSide = 2000;

const clamp = (value: number) => Math.min(maxSide, Math.max(minSide, Math.round(value)));

/** Coordinates to at most two decimals: 168.48, not 168.48000000000002. */
const n = (value: number) => String(Math.round(value * 100) / 100);


/**
 * A neutral product-image placeholder: a paw print on a soft background, with an optional
 * label (the brand). Sides are clamped to 16..2000 px so a request cannot ask for a huge image.
 * @example placeholderSvg(400, 300).startsWith("<svg") // true
 */
export function placeholderSvg(width: number, height: number, label?: string): string {
  const w = clamp(width);
  const h = clamp(height);
  const size = Math.min(w, h);
  const paw = size * 0.28;
  const cx = w / 2;
  const cy = label ? h / 2 - size * 0.08 : h / 2;
  const toe = paw * 0.2;
  const text = label
    ? `<text x="${n(cx)}" y="${n(cy + paw * 0.95)}" text-anchor="middle" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="${Math.max(10, Math.round(size * 0.07))}" font-weight="600" fill="#64748b">${escapeXml(label)}</text>`
    : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${escapeXml(label ?? "No image")}">
<rect width="100%" height="100%" fill="#f1f5f9"/>
<g fill="#cbd5e1">
<ellipse cx="${n(cx)}" cy="${n(cy + paw * 0.22)}" rx="${n(paw * 0.34)}" ry="${n(paw * 0.28)}"/>
<circle cx="${n(cx - paw * 0.36)}" cy="${n(cy - paw * 0.12)}" r="${n(toe)}"/>
<circle cx="${n(cx - paw * 0.13)}" cy="${n(cy - paw * 0.32)}" r="${n(toe)}"/>
<circle cx="${n(cx + paw * 0.13)}" cy="${n(cy - paw * 0.32)}" r="${n(toe)}"/>
<circle cx="${n(cx + paw * 0.36)}" cy="${n(cy - paw * 0.12)}" r="${n(toe)}"/>
</g>${text}
</svg>`;
}
