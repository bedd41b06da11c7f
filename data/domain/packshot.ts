/**
 * Illustrative packshots: a drawing of the kind of pack a product comes in (a sack of dry food,
 * a tin, a pouch, a box, a bottle, a toy on its backing card, a bed) in its brand's colours, with
 * the brand, a short name and the pack size on the label, marked "Illustration" so nobody takes it
 * for a photo. Products without a real image (the demo catalogue, feed rows without one) show it.
 * Pure and deterministic: the same product always draws the same bytes.
 */
import { parsePackQuantity } from "./pack-size.ts";

export const packshotForms = ["bag", "tin", "pouch", "box", "bottle", "toy", "bed"] as const;
export type PackshotForm = (typeof packshotForms)[number];

export interface PackshotProduct {
  name: string;
  brand: string | null;
  categorySlug: string;
  /** The pack size shown on the label ("15kg", "12 x 400g", "Large"); read from the name when left out. */
  packLabel?: string | null;
}

export interface BrandColours {
  /** The pack's colour; white text must read on it and it must read on white. */
  body: string;
  /** A second colour for stripes and the lid or cap. */
  accent: string;
}

const has = (text: string, pattern: RegExp) => pattern.test(text);

const bedWords = /\b(beds?|mattress(es)?|blankets?|cushions?|bedding|duvets?)\b/;
const toyWords = /\b(toys?|balls?|launchers?|frisbees?|tug|squeaky|plush|catnip|scratch(ing|er)?|activity|game|kickeroo)\b/;
const litterWords = /\blitter\b/;
const tinWords = /\b(tins?|cans?|canned)\b/;
const pouchWords = /\b(pouch(es)?|sachets?)\b/;
const bottleWords = /\b(shampoos?|conditioners?|sprays?|liquids?|lotions?|drops|oils?|paste|diffusers?|refills?|solutions?|rinse|spritz)\b/;
const bagWords = /\b(dry|kibble|complete|nuggets|seed|seeds|mix|hay|muesli|hearts|pellets|biscuit mix)\b/;
const treatWords = /\b(treats?|biscuits|sticks|chews?|tablets|bones?)\b/;
/** Equipment sold boxed whose name states a capacity, not contents. */
const capacityWords = /\b(aquariums?|tanks?|vivariums?|terrariums?|kits?|filters?)\b/;
const foodCategory = /(^|-)(food|treats)(-|$)/;

/**
 * The kind of pack a product comes in, from its name and category (first rule that fits):
 * beds and bedding -> bed; toys (not food: "energy balls" are bird food) -> toy; cat litter -> bag
 * (a sack); tins and cans -> tin; pouches and sachets -> pouch; tanks, kits and filters (a volume
 * that is a capacity) -> box; shampoos, sprays, liquids, diffusers, or a volume in a non-food ->
 * bottle; dry food, seed, hay, or a single pack of 1 kg or more -> bag; treats, chews, tablets ->
 * box; wet food or food in portions -> pouch (portions of at most 150 g) or tin (larger);
 * anything else -> box.
 * @example packshotForm({ name: "Royal Canin Medium Adult Dry Dog Food 15kg", brand: "Royal Canin", categorySlug: "dog-food" }) // "bag"
 * @example packshotForm({ name: "Butcher's Classic Wet Dog Food Tins 12 x 400g", brand: "Butcher's", categorySlug: "dog-food" }) // "tin"
 * @example packshotForm({ name: "Kong Classic Dog Toy Large", brand: "Kong", categorySlug: "dog-toys" }) // "toy"
 */
export function packshotForm(product: PackshotProduct): PackshotForm {
  const name = product.name.normalize("NFKC").toLowerCase();
  const category = product.categorySlug.toLowerCase();
  const text = `${name} ${category.replace(/-/g, " ")}`;
  const pack = parsePackQuantity(product.packLabel ? `${product.name} ${product.packLabel}` : product.name);
  const isFood = foodCategory.test(category) || has(name, /\bfood\b/);

  if (has(name, bedWords) || /(^|-)beds?(-|$)/.test(category)) return "bed";
  if ((has(name, toyWords) && !isFood) || /(^|-)toys?(-|$)/.test(category)) return "toy";
  if (has(text, litterWords)) return "bag";
  if (has(name, tinWords)) return "tin";
  if (has(name, pouchWords)) return "pouch";
  if (has(name, capacityWords)) return "box";
  if (has(name, bottleWords) || (pack?.measure === "volume" && !isFood)) return "bottle";
  if (has(name, bagWords) && !has(name, /\bwet\b/)) return "bag";
  if (pack?.measure === "weight" && pack.count === 1 && pack.amount >= 1000) return "bag";
  if (has(name, treatWords)) return "box";
  if (isFood && (has(name, /\bwet\b/) || (pack?.measure === "weight" && pack.count > 1))) {
    return pack?.each != null && pack.each > 150 ? "tin" : "pouch";
  }
  return "box";
}

/**
 * Colours of the brands in the demo catalogue, chosen to suggest each brand's packs (not copies of
 * their artwork). Keys are lower-case brand names.
 */
const brandColourTable: Readonly<Record<string, BrandColours>> = {
  "royal canin": { body: "#b4112a", accent: "#f2c4cc" },
  "hill's science plan": { body: "#0b4f9c", accent: "#f5b324" },
  "purina pro plan": { body: "#1d2b4f", accent: "#c9a45c" },
  "purina one": { body: "#1f3f8f", accent: "#e31d2b" },
  bakers: { body: "#c2410c", accent: "#fde047" },
  "lily's kitchen": { body: "#2f6b3a", accent: "#f4c542" },
  harringtons: { body: "#1b5e8c", accent: "#9bd06f" },
  burns: { body: "#6d4c2f", accent: "#c9e4a6" },
  "james wellbeloved": { body: "#5b2a6e", accent: "#e3c0ef" },
  "arden grange": { body: "#7a1e3a", accent: "#e8c28f" },
  forthglade: { body: "#35593b", accent: "#f0d8a8" },
  "butcher's": { body: "#a61b1b", accent: "#f8d34a" },
  pedigree: { body: "#8a5a00", accent: "#fcd34d" },
  wagg: { body: "#1e40af", accent: "#facc15" },
  "skinner's": { body: "#14532d", accent: "#fbbf24" },
  whiskas: { body: "#6b2fa0", accent: "#f9a8d4" },
  felix: { body: "#1f2937", accent: "#f87171" },
  sheba: { body: "#3b1d4a", accent: "#d4af37" },
  applaws: { body: "#0f766e", accent: "#ccfbf1" },
  encore: { body: "#7c2d12", accent: "#fed7aa" },
  whimzees: { body: "#15803d", accent: "#fde68a" },
  nylabone: { body: "#1d4ed8", accent: "#fca5a5" },
  kong: { body: "#b91c1c", accent: "#fecaca" },
  "chuckit!": { body: "#c2410c", accent: "#bfdbfe" },
  trixie: { body: "#0e7490", accent: "#fde047" },
  petface: { body: "#9d174d", accent: "#fbcfe8" },
  catit: { body: "#0369a1", accent: "#bae6fd" },
  scruffs: { body: "#374151", accent: "#d6c7a1" },
  ancol: { body: "#1e3a8a", accent: "#93c5fd" },
  mikki: { body: "#0f766e", accent: "#fcd34d" },
  catsan: { body: "#1d4ed8", accent: "#a5f3fc" },
  "world's best cat litter": { body: "#166534", accent: "#fef08a" },
  "cat's best": { body: "#4d7c0f", accent: "#d9f99d" },
  seresto: { body: "#0c4a6e", accent: "#7dd3fc" },
  frontline: { body: "#9a3412", accent: "#fdba74" },
  drontal: { body: "#1e3a8a", accent: "#fde047" },
  "johnson's": { body: "#0e7490", accent: "#a7f3d0" },
  beaphar: { body: "#15803d", accent: "#fef9c3" },
  yumove: { body: "#6d28d9", accent: "#ddd6fe" },
  "pro-kolin": { body: "#b45309", accent: "#fde68a" },
  "pet remedy": { body: "#4338ca", accent: "#c7d2fe" },
  adaptil: { body: "#0369a1", accent: "#bbf7d0" },
  feliway: { body: "#7e22ce", accent: "#f5d0fe" },
  furminator: { body: "#1f2937", accent: "#fb923c" },
  animology: { body: "#be185d", accent: "#fbcfe8" },
  wahl: { body: "#111827", accent: "#d1d5db" },
  "company of animals": { body: "#0f766e", accent: "#fca5a5" },
  burgess: { body: "#166534", accent: "#fde047" },
  "science selective": { body: "#047857", accent: "#bbf7d0" },
  "versele-laga": { body: "#b91c1c", accent: "#fef3c7" },
  peckish: { body: "#065f46", accent: "#fcd34d" },
  "johnston & jeff": { body: "#92400e", accent: "#fde68a" },
  tetra: { body: "#1e3a8a", accent: "#fb7185" },
  jbl: { body: "#1d4ed8", accent: "#fde047" },
  fluval: { body: "#0c4a6e", accent: "#67e8f9" },
  ferplast: { body: "#1e40af", accent: "#bfdbfe" },
  "exo terra": { body: "#14532d", accent: "#bef264" },
  prorep: { body: "#365314", accent: "#fde047" },
  komodo: { body: "#7c2d12", accent: "#fdba74" },
};

/** FNV-1a over the UTF-16 code units: a small, stable hash for picking colours. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** An HSL colour as #rrggbb (h in degrees, s and l in 0..1). */
function hslHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const value = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/**
 * A brand's colours: from the table for the demo catalogue's brands, else derived from the brand
 * name (the same name always gets the same colours): a dark body white text reads on, a pale accent.
 * @example brandColours("Royal Canin").body // "#b4112a"
 */
export function brandColours(brand: string | null): BrandColours {
  const key = (brand ?? "").trim().toLowerCase();
  const known = brandColourTable[key];
  if (known) return known;
  const hue = hash(key) % 360;
  return { body: hslHex(hue, 0.55, 0.27), accent: hslHex((hue + 40) % 360, 0.75, 0.82) };
}

/** Text for SVG character data and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch]!);
}

const sizeWords = /\b(x{0,2}-?small|x{0,3}-?large|medium|regular|mini|standard|xxl|xl|size \d+)$/i;

/**
 * The pack size to print: the quantity the name states ("15kg", "12 x 400g"), else a trailing
 * size word ("Large", "Size 3"), else none.
 * @example packLabelOf("Kong Classic Dog Toy Red Large") // "Large"
 */
export function packLabelOf(name: string): string | null {
  const quantity = parsePackQuantity(name);
  if (quantity) return quantity.label;
  const size = name.trim().match(sizeWords);
  return size ? size[0] : null;
}

/** Characters that fit a line of the label at a font size (a generous average glyph width). */
const charsFitting = (width: number, fontSize: number) => Math.max(4, Math.floor(width / (fontSize * 0.6)));

/**
 * The name without the brand in front, the pack size, "(Pack of N)" or a "#2" repeat marker,
 * broken into at most `maxLines` lines of `perLine` characters; an ellipsis ends a cut name.
 */
export function shortNameLines(product: PackshotProduct, packLabel: string | null, perLine: number, maxLines: number): string[] {
  let name = product.name.normalize("NFKC").replace(/\s+/g, " ").trim();
  const brand = product.brand?.trim();
  if (brand && name.toLowerCase().startsWith(brand.toLowerCase())) name = name.slice(brand.length).trim();
  name = name.replace(/\s*#\d+(\s*\(\d+\))?$/, "").replace(/\s*\(pack of \d+\)$/i, "");
  if (packLabel && name.toLowerCase().endsWith(packLabel.toLowerCase())) name = name.slice(0, -packLabel.length).trim();
  name = name.replace(/\s*\b\d+(\.\d+)?\s?(kg|g|ml|l)$/i, "").trim() || product.name.trim();

  const lines: string[] = [];
  let current = "";
  const words = name.split(" ");
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!.length > perLine ? `${words[i]!.slice(0, perLine - 1)}…` : words[i]!;
    const joined = current ? `${current} ${word}` : word;
    if (joined.length <= perLine) {
      current = joined;
      continue;
    }
    lines.push(current);
    current = word;
    if (lines.length === maxLines) {
      const last = lines[maxLines - 1]!;
      lines[maxLines - 1] = `${last.length >= perLine ? last.slice(0, perLine - 1) : last}…`;
      return lines;
    }
  }
  if (current) lines.push(current);
  return lines;
}

const font = `font-family="system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"`;

/** One line of text, centred on x; squeezed to `maxWidth` when it would be wider. */
function textLine(x: number, y: number, size: number, weight: number, fill: string, text: string, maxWidth: number): string {
  // Average glyph widths of a bold sans-serif: capitals are wider than mixed case.
  const estimated = text.length * size * (text === text.toUpperCase() ? 0.72 : 0.6);
  const squeeze = estimated > maxWidth ? ` textLength="${maxWidth}" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text x="${x}" y="${y}" text-anchor="middle" ${font} font-size="${size}" font-weight="${weight}" fill="${fill}"${squeeze}>${escapeXml(text)}</text>`;
}

/** Where a form's label sits: centre x, top y, width and height. */
interface LabelBox {
  cx: number;
  top: number;
  width: number;
  height: number;
}

interface Outline {
  /** Shapes drawn under the label. */
  body: string;
  label: LabelBox;
  /** Shapes drawn over the label (a lid's shine, a toy on its card). */
  over?: string;
}

const outlines: Readonly<Record<PackshotForm, (c: BrandColours) => Outline>> = {
  bag: (c) => ({
    body: `<path d="M150 118 L450 118 L470 520 Q470 540 450 540 L150 540 Q130 540 130 520 Z" fill="${c.body}"/>
<path d="M150 92 L450 92 L450 130 L150 130 Z" fill="${c.accent}"/>
<path d="M150 92 l12 -12 l12 12 l12 -12 l12 12 l12 -12 l12 12 l12 -12 l12 12 l12 -12 l12 12 l12 -12 l12 12 l12 -12 l12 12 l12 -12 l12 12 l12 -12 l12 12 l12 -12 l12 12 l12 -12 l12 12 l12 -12 l12 12 Z" fill="${c.accent}"/>
<path d="M142 520 L458 520" stroke="#000" stroke-opacity="0.15" stroke-width="6"/>`,
    label: { cx: 300, top: 170, width: 280, height: 300 },
  }),
  tin: (c) => ({
    body: `<rect x="160" y="150" width="280" height="360" fill="${c.body}"/>
<ellipse cx="300" cy="510" rx="140" ry="30" fill="${c.body}"/>
<rect x="160" y="150" width="280" height="22" fill="#94a3b8"/>
<ellipse cx="300" cy="150" rx="140" ry="30" fill="#cbd5e1" stroke="#94a3b8" stroke-width="6"/>
<ellipse cx="300" cy="150" rx="112" ry="20" fill="none" stroke="#94a3b8" stroke-width="4"/>
<rect x="160" y="478" width="280" height="10" fill="#000" fill-opacity="0.12"/>`,
    label: { cx: 300, top: 200, width: 250, height: 260 },
  }),
  pouch: (c) => ({
    body: `<path d="M170 110 L430 110 L430 470 Q430 540 360 540 L240 540 Q170 540 170 470 Z" fill="${c.body}"/>
<path d="M170 110 L430 110 L430 150 L170 150 Z" fill="${c.accent}"/>
<path d="M170 128 l10 -6 l-10 -6 Z M430 128 l-10 -6 l10 -6 Z" fill="#f8fafc"/>`,
    label: { cx: 300, top: 185, width: 230, height: 290 },
  }),
  box: (c) => ({
    body: `<path d="M130 170 L190 120 L480 120 L420 170 Z" fill="${c.accent}"/>
<path d="M420 170 L480 120 L480 480 L420 530 Z" fill="${c.body}"/>
<path d="M420 170 L480 120 L480 480 L420 530 Z" fill="#000" fill-opacity="0.25"/>
<rect x="130" y="170" width="290" height="360" fill="${c.body}"/>`,
    label: { cx: 275, top: 210, width: 250, height: 280 },
  }),
  bottle: (c) => ({
    body: `<rect x="262" y="70" width="76" height="60" rx="8" fill="${c.accent}"/>
<path d="M270 130 L330 130 L330 165 Q400 180 400 240 L400 510 Q400 540 370 540 L230 540 Q200 540 200 510 L200 240 Q200 180 270 165 Z" fill="${c.body}"/>
<rect x="262" y="70" width="76" height="14" rx="6" fill="#000" fill-opacity="0.15"/>`,
    label: { cx: 300, top: 250, width: 180, height: 250 },
  }),
  toy: (c) => ({
    body: `<rect x="140" y="70" width="320" height="470" rx="24" fill="${c.body}"/>
<rect x="270" y="90" width="60" height="18" rx="9" fill="#f1f5f9"/>
<circle cx="300" cy="230" r="95" fill="${c.accent}" stroke="#fff" stroke-width="6"/>
<path d="M215 195 Q300 250 385 195 M215 265 Q300 210 385 265" fill="none" stroke="${c.body}" stroke-opacity="0.55" stroke-width="10" stroke-linecap="round"/>`,
    label: { cx: 300, top: 345, width: 280, height: 175 },
  }),
  bed: (c) => ({
    body: `<ellipse cx="300" cy="360" rx="250" ry="165" fill="${c.body}"/>
<ellipse cx="300" cy="375" rx="190" ry="115" fill="${c.accent}"/>
<ellipse cx="300" cy="385" rx="175" ry="98" fill="#000" fill-opacity="0.06"/>`,
    label: { cx: 300, top: 300, width: 260, height: 170 },
  }),
};

/** Lines of the label: the brand, the short name and the pack size, sized to the label box. */
function labelText(product: PackshotProduct, form: PackshotForm, colours: BrandColours, box: LabelBox): string {
  const packLabel = product.packLabel?.trim() || packLabelOf(product.name);
  const compact = box.height < 200;
  const inner = box.width - 28;
  const brandSize = compact ? 30 : 36;
  const nameSize = compact ? 22 : 26;
  const packSize = compact ? 30 : 38;
  const maxLines = compact ? 2 : form === "bottle" ? 4 : 3;
  const parts: string[] = [];
  parts.push(`<rect x="${box.cx - box.width / 2}" y="${box.top}" width="${box.width}" height="${box.height}" rx="18" fill="#ffffff" fill-opacity="0.94"/>`);

  let y = box.top + 18 + brandSize;
  const brand = product.brand?.trim();
  if (brand) {
    parts.push(textLine(box.cx, y, brandSize, 800, colours.body, brand.toUpperCase(), inner));
    y += 10;
    parts.push(`<rect x="${box.cx - 40}" y="${y}" width="80" height="6" rx="3" fill="${colours.accent}"/>`);
    y += 10;
  }
  const lines = shortNameLines(product, packLabel, charsFitting(inner, nameSize), maxLines);
  for (const line of lines) {
    y += nameSize + 6;
    parts.push(textLine(box.cx, y, nameSize, 600, "#1e293b", line, inner));
  }
  if (packLabel) {
    const pillHeight = packSize + 18;
    const pillTop = box.top + box.height - pillHeight - 14;
    const pillWidth = Math.min(inner, Math.max(110, packLabel.length * packSize * 0.6 + 36));
    parts.push(`<rect x="${box.cx - pillWidth / 2}" y="${pillTop}" width="${pillWidth}" height="${pillHeight}" rx="${pillHeight / 2}" fill="${colours.body}"/>`);
    parts.push(textLine(box.cx, pillTop + pillHeight / 2 + packSize * 0.36, packSize, 800, "#ffffff", packLabel, pillWidth - 24));
  }
  return parts.join("\n");
}

/**
 * The packshot drawing as an SVG document (600 x 600 view box). Every text from the product is
 * escaped; the drawing has no script, no style element and no external reference.
 * @example packshotSvg({ name: "Burns Adult Original Dry Dog Food 12kg", brand: "Burns", categorySlug: "dog-food" }).startsWith("<svg") // true
 */
export function packshotSvg(product: PackshotProduct): string {
  const form = packshotForm(product);
  const colours = brandColours(product.brand);
  const outline = outlines[form](colours);
  const title = escapeXml(`Illustration of ${product.name}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600" role="img" aria-label="${title}">
<title>${title}</title>
<rect width="600" height="600" fill="#f8fafc"/>
<ellipse cx="300" cy="556" rx="210" ry="18" fill="#0f172a" fill-opacity="0.08"/>
${outline.body}
${labelText(product, form, colours, outline.label)}
${outline.over ?? ""}
<rect x="446" y="566" width="146" height="28" rx="14" fill="#ffffff" stroke="#cbd5e1" stroke-width="2"/>
<text x="519" y="586" text-anchor="middle" ${font} font-size="16" font-weight="600" fill="#475569">Illustration</text>
</svg>`;
}
