import { describe, expect, it } from "vitest";
import { placeholderSvg } from "./placeholder.ts";

describe("placeholderSvg", () => {
  it("draws a paw print centred on a soft background, labelled No image", () => {
    expect(placeholderSvg(400, 300)).toBe(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300" role="img" aria-label="No image">
<rect width="100%" height="100%" fill="#f1f5f9"/>
<g fill="#cbd5e1">
<ellipse cx="200" cy="168.48" rx="28.56" ry="23.52"/>
<circle cx="169.76" cy="139.92" r="16.8"/>
<circle cx="189.08" cy="123.12" r="16.8"/>
<circle cx="210.92" cy="123.12" r="16.8"/>
<circle cx="230.24" cy="139.92" r="16.8"/>
</g>
</svg>`);
  });
  it("sizes the print by the shorter side and lifts it above the label", () => {
    expect(placeholderSvg(200, 500, "Kong")).toBe(`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="500" viewBox="0 0 200 500" role="img" aria-label="Kong">
<rect width="100%" height="100%" fill="#f1f5f9"/>
<g fill="#cbd5e1">
<ellipse cx="100" cy="246.32" rx="19.04" ry="15.68"/>
<circle cx="79.84" cy="227.28" r="11.2"/>
<circle cx="92.72" cy="216.08" r="11.2"/>
<circle cx="107.28" cy="216.08" r="11.2"/>
<circle cx="120.16" cy="227.28" r="11.2"/>
</g><text x="100" y="287.2" text-anchor="middle" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="14" font-weight="600" fill="#64748b">Kong</text>
</svg>`);
  });
  it("keeps the label legible on small images", () => {
    expect(placeholderSvg(60, 60, "x")).toContain('font-size="10"');
  });
  it("clamps the size", () => {
    expect(placeholderSvg(100000, 1)).toContain('width="2000" height="16"');
  });
  it("escapes the label", () => {
    const svg = placeholderSvg(300, 300, `<script>"&'`);
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&lt;script&gt;&quot;&amp;&apos;");
  });
});
