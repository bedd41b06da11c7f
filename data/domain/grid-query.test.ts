import { describe, expect, it } from "vitest";
import {
  canGoNext,
  canGoPrev,
  clampPage,
  gridDefaultSort,
  gridPageSize,
  gridQueryString,
  gridSortOptions,
  pageCount,
  parseGridQuery,
  resetFilters,
  toApiParams,
  toCountParams,
  toFacetParams,
  withFilter,
  withPage,
  type GridState,
} from "./grid-query.ts";
import { priceRangeOptions } from "./price-range.ts";
import { defaultPageSize } from "./query-values.ts";
import { productListQuery, searchQuery } from "./queries.ts";
import { searchSortOptions, sortKeys, sortOptions } from "./sorting.ts";

const base: GridState = { sort: "rank_asc", page: 1 };

describe("parseGridQuery", () => {
  it("reads every filter", () => {
    expect(parseGridQuery("?category=dog-food&retailer=3&brand=Royal+Canin&priceRange=10-25&sort=price_desc&page=2")).toEqual({
      category: "dog-food",
      retailer: 3,
      brand: "Royal Canin",
      priceRange: "10-25",
      sort: "price_desc",
      page: 2,
    });
  });
  it("accepts URLSearchParams and a string without ?", () => {
    expect(parseGridQuery(new URLSearchParams({ sort: "rating_desc" }))).toEqual({ sort: "rating_desc", page: 1 });
    expect(parseGridQuery("page=4")).toEqual({ sort: "rank_asc", page: 4 });
  });
  it("defaults to no filters, the default sort and page 1", () => {
    expect(parseGridQuery("")).toEqual(base);
  });
  it("falls back to the default for invalid values", () => {
    expect(
      parseGridQuery("?category=Dog Food&retailer=abc&brand=all&priceRange=cheap&sort=random&page=0"),
    ).toEqual(base);
    for (const page of ["-1", "1.5", "2.0", "x", "", "99999999999999999999"]) {
      expect(parseGridQuery(`?page=${page}`).page).toBe(1);
    }
    expect(parseGridQuery("?retailer=0").retailer).toBeUndefined();
    expect(parseGridQuery("?brand=%20%20").brand).toBeUndefined();
    expect(parseGridQuery(`?brand=${"b".repeat(101)}`).brand).toBeUndefined();
  });
  it("treats the price range 'any', an empty range and a reversed range as no filter", () => {
    expect(parseGridQuery("?priceRange=any").priceRange).toBeUndefined();
    expect(parseGridQuery("?priceRange=-").priceRange).toBeUndefined();
    expect(parseGridQuery("?priceRange=50-10").priceRange).toBeUndefined();
  });
  it("keeps every price-range option and sort key", () => {
    for (const option of priceRangeOptions.filter((o) => o.value !== "any")) {
      expect(parseGridQuery(`?priceRange=${option.value}`).priceRange).toBe(option.value);
    }
    for (const sort of sortKeys) expect(parseGridQuery(`?sort=${sort}&category=dog-food`).sort).toBe(sort);
  });
  it("keeps price per kg only in a category sold by weight, else drops it to the default (the canonical address)", () => {
    expect(parseGridQuery("?sort=price_per_kg_asc", { category: "cat-food" }).sort).toBe("price_per_kg_asc");
    expect(parseGridQuery("?category=dog-treats&sort=price_per_kg_asc").sort).toBe("price_per_kg_asc");
    expect(parseGridQuery("?sort=price_per_kg_asc", { category: "dog-toys" })).toEqual({ category: "dog-toys", sort: "rank_asc", page: 1 });
    expect(parseGridQuery("?sort=price_per_kg_asc")).toEqual({ sort: "rank_asc", page: 1 });
    expect(parseGridQuery("?q=food&sort=price_per_kg_asc", { search: true }).sort).toBe("relevance");
    expect(gridQueryString(parseGridQuery("?sort=price_per_kg_asc&page=2", { category: "dog-toys" }), { category: "dog-toys" })).toBe("?page=2");
  });
  it("drops price per kg when the filter moves to a category not sold by weight", () => {
    const perKg: GridState = { category: "dog-food", sort: "price_per_kg_asc", page: 3 };
    expect(withFilter(perKg, { brand: "Royal Canin" })).toEqual({ category: "dog-food", brand: "Royal Canin", sort: "price_per_kg_asc", page: 1 });
    expect(withFilter(perKg, { category: "dog-toys" })).toEqual({ category: "dog-toys", sort: "rank_asc", page: 1 });
    expect(withFilter(perKg, { category: undefined })).toEqual({ sort: "rank_asc", page: 1 });
  });
  it("takes the category from the page on a category page", () => {
    expect(parseGridQuery("?category=cat-food&page=2", { category: "dog-food" })).toEqual({ category: "dog-food", sort: "rank_asc", page: 2 });
  });
});

describe("gridQueryString", () => {
  it("is empty when everything is at its default", () => {
    expect(gridQueryString(base)).toBe("");
  });
  it("writes the parameters in a fixed order, leaving page 1 and the default sort out", () => {
    const state: GridState = { page: 2, sort: "price_asc", priceRange: "0-10", brand: "Lily's Kitchen", retailer: 5, category: "cat-food" };
    expect(gridQueryString(state)).toBe("?category=cat-food&retailer=5&brand=Lily%27s+Kitchen&priceRange=0-10&sort=price_asc&page=2");
    expect(gridQueryString({ ...state, page: 1, sort: "rank_asc" })).toBe("?category=cat-food&retailer=5&brand=Lily%27s+Kitchen&priceRange=0-10");
  });
  it("leaves out the category fixed by a category page", () => {
    expect(gridQueryString({ category: "dog-food", sort: "rank_asc", page: 3 }, { category: "dog-food" })).toBe("?page=3");
  });
  it("round-trips through parseGridQuery", () => {
    const state: GridState = { retailer: 2, brand: "Hill's & Co", priceRange: "100-", sort: "savings_desc", page: 7 };
    expect(parseGridQuery(gridQueryString(state))).toEqual(state);
  });
});

describe("the search page's view (the grid's filters with the text q)", () => {
  const search = { search: true } as const;
  it("reads the text and the grid's filters, relevance being the default sort", () => {
    expect(parseGridQuery("?q=+royal%20canin+&brand=Royal+Canin&priceRange=10-25&category=dog-food&sort=price_asc&page=2", search)).toEqual({
      q: "royal canin",
      category: "dog-food",
      brand: "Royal Canin",
      priceRange: "10-25",
      sort: "price_asc",
      page: 2,
    });
    expect(parseGridQuery("?q=cat", search)).toEqual({ q: "cat", sort: "relevance", page: 1 });
    expect(parseGridQuery("", search)).toEqual({ q: "", sort: "relevance", page: 1 });
    expect(parseGridQuery("?q=cat&sort=relevance", search).sort).toBe("relevance");
  });
  it("ignores unknown values, and relevance outside the search page", () => {
    expect(parseGridQuery("?q=cat&sort=bogus&priceRange=x&page=-2", search)).toEqual({ q: "cat", sort: "relevance", page: 1 });
    expect(parseGridQuery("?sort=relevance")).toEqual(base);
    expect(parseGridQuery("?q=cat")).toEqual(base);
  });
  it("writes q first, as the header's form does, and leaves relevance out", () => {
    expect(gridQueryString({ q: "royal canin", sort: "relevance", page: 1 }, search)).toBe("?q=royal%20canin");
    expect(gridQueryString({ q: "dog", sort: "relevance", page: 2 }, search)).toBe("?q=dog&page=2");
    expect(gridQueryString({ q: "cat", brand: "Felix", sort: "rank_asc", page: 1 }, search)).toBe("?q=cat&brand=Felix&sort=rank_asc");
    expect(gridQueryString({ q: "", sort: "relevance", page: 1 }, search)).toBe("");
    const state: GridState = { q: "Hill's & co", category: "cat-food", priceRange: "0-10", sort: "price_desc", page: 3 };
    expect(parseGridQuery(gridQueryString(state, search), search)).toEqual(state);
  });
  it("keeps the text through filter changes and Reset Filters", () => {
    const state: GridState = { q: "cat", brand: "Felix", sort: "price_asc", page: 3 };
    expect(withFilter(state, { priceRange: "0-10" })).toEqual({ q: "cat", brand: "Felix", priceRange: "0-10", sort: "price_asc", page: 1 });
    expect(resetFilters(search, state)).toEqual({ q: "cat", sort: "relevance", page: 1 });
  });
  it("sends the text with the filters to the API", () => {
    expect(toApiParams({ q: "cat", brand: "Felix", priceRange: "10-", sort: "relevance", page: 2 })).toEqual({
      q: "cat",
      brand: "Felix",
      minPrice: "10",
      sort: "relevance",
      offset: "15",
      limit: "15",
    });
  });
  it("offers the grid's sort options, with Best Match first on the search page", () => {
    expect(gridSortOptions()).toBe(sortOptions);
    expect(gridSortOptions({ category: "dog-toys" }, "dog-toys")).toBe(sortOptions);
    expect(gridSortOptions({ category: "dog-food" }, "dog-food").map((o) => o.label)).toEqual([...sortOptions.map((o) => o.label), "Price per kg: Low to High"]);
    expect(gridSortOptions(search, "dog-food")).toBe(searchSortOptions);
    expect(gridSortOptions(search)).toBe(searchSortOptions);
    expect(searchSortOptions.slice(1)).toEqual([...sortOptions]);
    expect(gridDefaultSort(search)).toBe("relevance");
    expect(gridDefaultSort({ category: "dog-food" })).toBe("rank_asc");
  });
});

describe("withFilter, withPage and resetFilters", () => {
  it("resets the page to 1 on any filter change", () => {
    const onPage3: GridState = { ...base, page: 3 };
    expect(withFilter(onPage3, { brand: "Whiskas" })).toEqual({ brand: "Whiskas", sort: "rank_asc", page: 1 });
    expect(withFilter(onPage3, { sort: "price_asc" })).toEqual({ sort: "price_asc", page: 1 });
    expect(withFilter(onPage3, { retailer: 4 }).page).toBe(1);
  });
  it("clears a filter for 'all', 'any' or undefined", () => {
    const filtered: GridState = { brand: "Whiskas", priceRange: "10-25", retailer: 2, sort: "rank_asc", page: 2 };
    expect(withFilter(filtered, { brand: "all", priceRange: "any", retailer: undefined })).toEqual(base);
  });
  it("moves between pages keeping the filters", () => {
    expect(withPage({ ...base, brand: "Whiskas" }, 2)).toEqual({ brand: "Whiskas", sort: "rank_asc", page: 2 });
    expect(withPage(base, 0).page).toBe(1);
    expect(withPage(base, 2.5).page).toBe(1);
  });
  it("resets to no filters, keeping a category page's category", () => {
    expect(resetFilters()).toEqual(base);
    expect(resetFilters({ category: "cat-food" })).toEqual({ category: "cat-food", sort: "rank_asc", page: 1 });
  });
});

describe("toApiParams and toCountParams", () => {
  it("maps the state to the API's query, the price range to minPrice and maxPrice", () => {
    const state: GridState = { category: "dog-food", retailer: 1, brand: "Pedigree", priceRange: "10-25", sort: "price_asc", page: 3 };
    expect(toApiParams(state)).toEqual({
      category: "dog-food",
      retailer: "1",
      brand: "Pedigree",
      minPrice: "10",
      maxPrice: "25",
      sort: "price_asc",
      offset: "30",
      limit: "15",
    });
    expect(toCountParams(state)).toEqual({ category: "dog-food", retailer: "1", brand: "Pedigree", minPrice: "10", maxPrice: "25" });
  });
  it("sends only the given bounds of an open range", () => {
    expect(toCountParams({ ...base, priceRange: "100-" })).toEqual({ minPrice: "100" });
    expect(toCountParams({ ...base, priceRange: "0-10" })).toEqual({ minPrice: "0", maxPrice: "10" });
  });
  it("scopes the brand list by every filter but the brand, and by the search text", () => {
    const state: GridState = { category: "dog-food", retailer: 1, brand: "Pedigree", priceRange: "10-25", sort: "price_asc", page: 3 };
    expect(toFacetParams(state)).toEqual({ category: "dog-food", retailer: "1", minPrice: "10", maxPrice: "25" });
    expect(toFacetParams({ q: "cat", brand: "Felix", sort: "relevance", page: 1 })).toEqual({ q: "cat" });
    expect(toFacetParams(base)).toEqual({});
  });
  it("starts at offset 0 and honours a page size", () => {
    expect(toApiParams(base)).toEqual({ sort: "rank_asc", offset: "0", limit: "15" });
    expect(toApiParams({ ...base, page: 2 }, 100)).toEqual({ sort: "rank_asc", offset: "100", limit: "100" });
  });
  it("uses the API's default page size", () => {
    expect(gridPageSize).toBe(defaultPageSize);
  });

  it("asks the API for a page of the size the API gives when no limit is sent", () => {
    expect(productListQuery.parse({}).limit).toBe(gridPageSize);
    expect(searchQuery.parse({ q: "kibble" }).limit).toBe(gridPageSize);
    expect(toApiParams(base).limit).toBe(String(productListQuery.parse({}).limit));
  });

  it("reads a brand of up to the API's longest, not one more", () => {
    expect(parseGridQuery(`?brand=${"b".repeat(100)}`).brand).toBe("b".repeat(100));
    expect(parseGridQuery(`?brand=${"b".repeat(101)}`).brand).toBeUndefined();
    expect(productListQuery.safeParse({ brand: "b".repeat(100) }).success).toBe(true);
    expect(productListQuery.safeParse({ brand: "b".repeat(101) }).success).toBe(false);
  });
});

describe("paging", () => {
  it("counts at least one page", () => {
    expect(pageCount(0, 15)).toBe(1);
    expect(pageCount(15, 15)).toBe(1);
    expect(pageCount(16, 15)).toBe(2);
    expect(pageCount(31)).toBe(3);
  });
  it("disables Next at or beyond the last page", () => {
    expect(canGoNext(1, 16, 15)).toBe(true);
    expect(canGoNext(2, 16, 15)).toBe(false);
    expect(canGoNext(5, 16, 15)).toBe(false);
    expect(canGoNext(1, 0, 15)).toBe(false);
    expect(canGoNext(1, 15, 15)).toBe(false);
  });
  it("brings a page past the last one back to the last page, and keeps the filters", () => {
    expect(clampPage({ ...base, page: 40 }, 120)).toEqual({ ...base, page: 8 });
    expect(clampPage({ ...base, page: 9 }, 121)).toEqual({ ...base, page: 9 });
    expect(clampPage({ ...base, page: 10 }, 121)).toEqual({ ...base, page: 9 });
    expect(clampPage({ brand: "Whiskas", sort: "price_asc", page: 5 }, 16, 15)).toEqual({ brand: "Whiskas", sort: "price_asc", page: 2 });
    // An empty result has one page.
    expect(clampPage({ ...base, page: 3 }, 0)).toEqual(base);
  });
  it("leaves a page within the result as it is", () => {
    const onPage2: GridState = { ...base, page: 2 };
    expect(clampPage(onPage2, 30)).toBe(onPage2);
    expect(clampPage(base, 0)).toBe(base);
  });
  it("reads a page past the end as asked (the count decides it), and 0, negative or non-numbers as 1", () => {
    expect(parseGridQuery("?page=40").page).toBe(40);
    for (const page of ["0", "-3", "abc", "4x", "1e2"]) expect(parseGridQuery(`?page=${page}`).page).toBe(1);
    expect(gridQueryString(parseGridQuery("?page=0&sort=bogus"))).toBe("");
  });
  it("disables Previous on page 1", () => {
    expect(canGoPrev(1)).toBe(false);
    expect(canGoPrev(2)).toBe(true);
  });
});


describe("the cost-per-day sort (a food category with a pet of its species saved)", () => {
  const dogFood = { category: "dog-food" };
  const withPet = { category: "dog-food", costSortFor: "Rex" };
  const rex = { name: "Rex", species: "dog", weightKg: 12.5, lifeStage: "adult", activity: "active", neutered: true } as const;

  it("is an option only where the view offers it", () => {
    expect(gridSortOptions(dogFood).map((o) => o.value)).not.toContain("cost_per_day");
    expect(gridSortOptions({}).map((o) => o.value)).not.toContain("cost_per_day");
    expect(gridSortOptions({ search: true }).map((o) => o.value)).not.toContain("cost_per_day");
    expect(gridSortOptions(withPet).at(-1)).toEqual({ value: "cost_per_day", label: "Cost per Day: Low to High" });
  });

  it("stays in the address only with a pet: without one the address falls back to the default sort", () => {
    expect(parseGridQuery("?sort=cost_per_day&page=2", withPet)).toEqual({ category: "dog-food", sort: "cost_per_day", page: 2 });
    expect(gridQueryString(parseGridQuery("?sort=cost_per_day", withPet), withPet)).toBe("?sort=cost_per_day");
    expect(parseGridQuery("?sort=cost_per_day", dogFood)).toEqual({ category: "dog-food", sort: "rank_asc", page: 1 });
    expect(gridQueryString(parseGridQuery("?sort=cost_per_day", dogFood), dogFood)).toBe("");
    expect(parseGridQuery("?sort=cost_per_day", { search: true }).sort).toBe("relevance");
  });

  it("sends the pet's body with that sort, never its name, and nothing of the pet with another sort", () => {
    expect(toApiParams({ category: "dog-food", sort: "cost_per_day", page: 2 }, 15, rex)).toEqual({
      category: "dog-food",
      sort: "cost_per_day",
      offset: "15",
      limit: "15",
      species: "dog",
      weightKg: "12.5",
      lifeStage: "adult",
      activity: "active",
      neutered: "true",
    });
    expect(toApiParams({ category: "dog-food", sort: "price_asc", page: 1 }, 15, rex)).toEqual({ category: "dog-food", sort: "price_asc", offset: "0", limit: "15" });
    expect(JSON.stringify(toApiParams({ category: "dog-food", sort: "cost_per_day", page: 1 }, 15, rex))).not.toContain("Rex");
  });

  it("keeps the sort through a filter change, and Reset goes back to best sellers", () => {
    const state = parseGridQuery("?sort=cost_per_day", withPet);
    expect(withFilter(state, { brand: "Burns" })).toEqual({ category: "dog-food", brand: "Burns", sort: "cost_per_day", page: 1 });
    expect(resetFilters(withPet)).toEqual({ category: "dog-food", sort: "rank_asc", page: 1 });
  });
});
