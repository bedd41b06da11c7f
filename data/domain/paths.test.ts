import { describe, expect, it } from "vitest";
import {
  imageFallback,
  packshotPath,
  productImage,
  adminPath,
  alertsPath,
  apiPath,
  browserDataPath,
  categoryPath,
  cookiePath,
  petPath,
  favoritesPath,
  homePath,
  privacyPath,
  productPath,
  searchBasePath,
  searchPath,
  comparePath,
  vouchersPath,
} from "./paths.ts";

describe("page paths", () => {
  it("are the site's routes", () => {
    expect([homePath, vouchersPath, alertsPath, favoritesPath, adminPath, privacyPath, cookiePath, searchBasePath]).toEqual([
      "/",
      "/vouchers",
      "/my-alerts",
      "/favorites",
      "/admin",
      "/privacy-policy",
      "/cookie-policy",
      "/search",
    ]);
    expect(browserDataPath).toBe("/your-data");
  });
  it("encode slugs", () => {
    expect(productPath("royal-canin-maxi")).toBe("/product/royal-canin-maxi");
    expect(categoryPath("dog-food")).toBe("/category/dog-food");
    expect(productPath("a/b?c#d")).toBe("/product/a%2Fb%3Fc%23d");
    expect(categoryPath("cats & kittens")).toBe("/category/cats%20%26%20kittens");
    expect(petPath("small-pets")).toBe("/pets/small-pets");
    expect(petPath("a/b")).toBe("/pets/a%2Fb");
  });
});

describe("searchPath", () => {
  it("builds the search URL from the trimmed text", () => {
    expect(searchPath(" dog food ")).toBe("/search?q=dog%20food");
    expect(searchPath("dog food", 2)).toBe("/search?q=dog%20food&page=2");
    expect(searchPath("dog food", 1)).toBe("/search?q=dog%20food");
  });
  it("is the bare search page for blank text", () => {
    expect(searchPath("  ")).toBe("/search");
  });
});

describe("comparePath", () => {
  it("names the ids in the order given, commas unescaped, and is plain /compare for none", () => {
    expect(comparePath([12, 3, 40])).toBe("/compare?ids=12,3,40");
    expect(comparePath([7])).toBe("/compare?ids=7");
    expect(comparePath([])).toBe("/compare");
  });
});

describe("apiPath", () => {
  it("adds the /api prefix once", () => {
    expect(apiPath("/products")).toBe("/api/products");
    expect(apiPath("categories")).toBe("/api/categories");
    expect(apiPath("/api/brands")).toBe("/api/brands");
    expect(apiPath("/apiary")).toBe("/api/apiary");
  });
  it("skips empty, null and undefined parameters and keeps zero", () => {
    expect(apiPath("/products", { category: "dog-food", brand: "", minPrice: null, maxPrice: undefined, offset: 0, limit: 15 })).toBe(
      "/api/products?category=dog-food&offset=0&limit=15",
    );
    expect(apiPath("/products", { brand: "", limit: Number.NaN })).toBe("/api/products");
  });
  it("URL-encodes names and values", () => {
    expect(apiPath("/search", { q: "Hill's & co=1" })).toBe("/api/search?q=Hill's%20%26%20co%3D1");
    expect(apiPath("/brands", { "a b": "c/d" })).toBe("/api/brands?a%20b=c%2Fd");
  });
});

describe("packshotPath and productImage", () => {
  it("draws a product without an image of its own as its packshot", () => {
    expect(packshotPath("burns-adult-12kg")).toBe("/api/packshot/burns-adult-12kg.svg");
    expect(productImage({ image: "", slug: "kong-classic" })).toBe("/api/packshot/kong-classic.svg");
    expect(productImage({ image: "   ", slug: "kong-classic" })).toBe("/api/packshot/kong-classic.svg");
    expect(productImage({ image: "https://images.example.co.uk/k.jpg", slug: "kong-classic" })).toBe("https://images.example.co.uk/k.jpg");
  });
});

describe("imageFallback", () => {
  it("falls back to the packshot only from another picture", () => {
    expect(imageFallback({ image: "https://images.example.co.uk/k.jpg", slug: "kong-classic" })).toBe("/api/packshot/kong-classic.svg");
    expect(imageFallback({ image: "", slug: "kong-classic" })).toBeUndefined();
    expect(imageFallback({ image: "/api/packshot/kong-classic.svg", slug: "kong-classic" })).toBeUndefined();
  });
});
