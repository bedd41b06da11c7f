import { describe, expect, it } from "vitest";
import { productLineSeeds } from "../seed/catalogue-data.ts";
import { brandColours, escapeXml, packLabelOf, packshotForm, packshotSvg, shortNameLines, type PackshotForm } from "./packshot.ts";

const form = (name: string, categorySlug: string, brand = "Acme") => packshotForm({ name, brand, categorySlug });

describe("packshotForm", () => {
  const table: [string, string, PackshotForm][] = [
    ["Royal Canin Medium Adult Dry Dog Food 15kg", "dog-food", "bag"],
    ["Catsan Ultra Clumping Cat Litter 15L", "cat-litter", "bag"],
    ["Burgess Excel Feeding Hay with Dandelion 3kg", "small-animal", "bag"],
    ["Peckish Sunflower Hearts 12.75kg", "bird-food", "bag"],
    // A single pack of 1 kg or more is a sack even without a food word.
    ["Acme Chicken Recipe 1kg", "dog-food", "bag"],
    ["Butcher's Classic Mixed Selection Wet Dog Food Tins 24 x 400g", "dog-food", "tin"],
    ["Applaws Natural Wet Cat Food Tins Chicken Breast 24 x 70g", "cat-food", "tin"],
    ["Whiskas 1+ Adult Wet Cat Food Pouches 80 x 85g", "cat-food", "pouch"],
    // Wet food in portions: at most 150 g each is a pouch, above that a tin.
    ["Felix As Good As It Looks Mixed Selection in Jelly 80 x 100g", "cat-food", "pouch"],
    ["Acme Wet Dog Food Chunks 12 x 150g", "dog-food", "pouch"],
    ["Acme Wet Dog Food Chunks 12 x 151g", "dog-food", "tin"],
    ["Pedigree Dentastix Daily Dental Chews Medium Dog 112 Sticks", "dog-treats", "box"],
    ["Lily's Kitchen Bedtime Biscuits Dog Treats 4 x 100g", "dog-treats", "box"],
    ["Drontal Cat Wormer Tablets 4 Tablets", "pet-health", "box"],
    ["Johnson's Clean 'n' Fresh Dog Shampoo 500ml", "dog-grooming", "bottle"],
    ["Adaptil Calm Home Diffuser 48ml Refill", "health-supplements", "bottle"],
    ["Tetra AquaSafe Water Conditioner 500ml", "fish-aquatics", "bottle"],
    // A tank's litres are its capacity: it comes boxed.
    ["Fluval Flex Aquarium Kit Black 123L", "fish-aquatics", "box"],
    ["Kong Classic Dog Toy Red Large", "dog-toys", "toy"],
    ["Trixie Baza Cat Scratching Post Grey 78cm", "cat-toys", "toy"],
    ["Acme Squeaky Plush Hedgehog", "dog-training", "toy"],
    // Bird food "energy balls" are food, not a toy.
    ["Peckish Extra Goodness Energy Balls 100 Pack", "bird-food", "box"],
    ["Scruffs Chester Box Bed Graphite X-Large", "dog-beds", "bed"],
    ["Mikki Fleece Dog Blanket Large", "dog-training", "bed"],
    ["Ancol Dog Training Whistle Twin Pack", "dog-training", "box"],
    ["Komodo Reptile Heat Mat Large", "reptile-supplies", "box"],
  ];
  it.each(table)("%s (%s) -> %s", (name, category, expected) => {
    expect(form(name, category)).toBe(expected);
  });

  it("reads a pack label given apart from the name", () => {
    expect(packshotForm({ name: "Acme Wet Dog Food Chunks", brand: "Acme", categorySlug: "dog-food", packLabel: "6 x 400g" })).toBe("tin");
    expect(packshotForm({ name: "Acme Wet Dog Food Chunks", brand: "Acme", categorySlug: "dog-food", packLabel: "6 x 85g" })).toBe("pouch");
  });
});

describe("escapeXml", () => {
  it("escapes the five XML specials and nothing else", () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a> £5`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt; £5");
  });
});

describe("brandColours", () => {
  it("takes a demo brand's colours from the table, whatever the case", () => {
    expect(brandColours("Royal Canin")).toEqual({ body: "#b4112a", accent: "#f2c4cc" });
    expect(brandColours(" royal CANIN ")).toEqual(brandColours("Royal Canin"));
  });
  it("derives another brand's colours from its name: the same every time, different for another name", () => {
    const first = brandColours("Zanzibar Pet Co");
    expect(brandColours("Zanzibar Pet Co")).toEqual(first);
    expect(first.body).toMatch(/^#[0-9a-f]{6}$/);
    expect(first.accent).toMatch(/^#[0-9a-f]{6}$/);
    expect(brandColours("Yonder Pets")).not.toEqual(first);
    // A dark body white text reads on (WCAG contrast 4.5 or more) and a pale accent, whatever the hue.
    const channel = (value: number) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4);
    const luminance = (hex: string) => [1, 3, 5].reduce((sum, i, k) => sum + channel(parseInt(hex.slice(i, i + 2), 16) / 255) * [0.2126, 0.7152, 0.0722][k]!, 0);
    const contrastWithWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);
    for (let i = 0; i < 300; i++) {
      const colours = brandColours(`Brand ${i}`);
      expect(contrastWithWhite(colours.body), `Brand ${i}`).toBeGreaterThanOrEqual(4.5);
      expect(luminance(colours.accent), `Brand ${i}`).toBeGreaterThan(0.45);
    }
    expect(brandColours(null)).toEqual(brandColours(""));
    // The demo catalogue's brands: each has its own entry, and white text reads on each body.
    for (const brand of new Set(productLineSeeds.map((line) => line.brand))) {
      expect(contrastWithWhite(brandColours(brand).body), brand).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("packLabelOf", () => {
  it("prints the stated quantity, else a trailing size word, else nothing", () => {
    expect(packLabelOf("Royal Canin Medium Adult Dry Dog Food 15kg")).toBe("15kg");
    expect(packLabelOf("Whiskas Pouches 40 x 85g")).toBe("40 x 85g");
    expect(packLabelOf("Kong Classic Dog Toy Red X-Large")).toBe("X-Large");
    expect(packLabelOf("Ancol Viva Padded Buckle Collar Black Size 6")).toBe("Size 6");
    expect(packLabelOf("Trixie Natura Dog Kennel with Flat Roof")).toBeNull();
  });
});

describe("shortNameLines", () => {
  const product = (name: string, brand: string | null = "Royal Canin") => ({ name, brand, categorySlug: "dog-food" });
  it("leaves out the brand, the pack size and a repeat marker, and wraps at word boundaries", () => {
    expect(shortNameLines(product("Royal Canin Medium Adult Dry Dog Food 15kg #2"), "15kg", 14, 3)).toEqual(["Medium Adult", "Dry Dog Food"]);
  });
  it("ends a name cut short with an ellipsis, within the line length", () => {
    const lines = shortNameLines(product("Royal Canin Medium Adult Dry Dog Food With Chicken And Rice And Extra Vegetables 15kg"), "15kg", 14, 2);
    expect(lines).toEqual(["Medium Adult", "Dry Dog Food…"]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(14);
  });
  it("cuts a single word longer than a line", () => {
    expect(shortNameLines(product("Supercalifragilisticexpialidocious", null), null, 10, 2)).toEqual(["Supercali…"]);
  });
});

describe("packshotSvg", () => {
  const product = { name: `Kong "Classic" <Toy> & Ball's Large`, brand: "Kong", categorySlug: "dog-toys" };
  it("is the same bytes every time, in a 600 x 600 view box, marked as an illustration", () => {
    const svg = packshotSvg(product);
    expect(packshotSvg({ ...product })).toBe(svg);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="600" height="600" viewBox="0 0 600 600"/);
    expect(svg).toContain(">Illustration</text>");
    expect(svg).toContain(`fill="${brandColours("Kong").body}"`);
  });
  it("escapes every text from the product and holds no script, style or link", () => {
    const svg = packshotSvg(product);
    expect(svg).toContain(`aria-label="Illustration of Kong &quot;Classic&quot; &lt;Toy&gt; &amp; Ball&apos;s Large"`);
    expect(svg).toContain("&lt;Toy&gt;");
    expect(svg).not.toContain("<Toy>");
    expect(svg).not.toMatch(/<script|<style|href|url\(/i);
    // Every element is one the drawing itself writes.
    const tags = new Set([...svg.matchAll(/<\/?([a-zA-Z]+)/g)].map((match) => match[1]));
    expect([...tags].sort()).toEqual(["circle", "ellipse", "path", "rect", "svg", "text", "title"]);
  });
  it("draws the chosen form's outline: a tin has its lid, a bed its cushion", () => {
    const tin = packshotSvg({ name: "Butcher's Wet Dog Food Tins 12 x 400g", brand: "Butcher's", categorySlug: "dog-food" });
    expect(tin).toContain('<ellipse cx="300" cy="150" rx="140" ry="30"');
    const bed = packshotSvg({ name: "Scruffs Chester Box Bed Large", brand: "Scruffs", categorySlug: "dog-beds" });
    expect(bed).toContain('<ellipse cx="300" cy="375" rx="190" ry="115"');
    expect(bed).toContain(">Large</text>");
  });
  it("squeezes a long brand into the label instead of letting it run over", () => {
    const svg = packshotSvg({ name: "World's Best Cat Litter Original Clumping Corn Litter 12.7kg", brand: "World's Best Cat Litter", categorySlug: "cat-litter" });
    expect(svg).toMatch(/textLength="252" lengthAdjust="spacingAndGlyphs">WORLD&apos;S BEST CAT LITTER</);
  });
});
