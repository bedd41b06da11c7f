import { describe, expect, it } from "vitest";
import { placeholderSvg } from "./placeholder.ts";

describe("placeholderSvg", () => {
  it("clamps the size", () => {
    expect(placeholderSvg(100000, 1)).toContain('width="2000" height="16"');
  });
  it("escapes the label", () => {
    const svg = placeholderSvg(300, 300, `<script>"&'`);
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&lt;script&gt;&quot;&amp;&apos;");
  });
});
