import { describe, expect, it } from "vitest";
import { isLegalCategory, isPrescriptionOnly, legalCategories, legalCategoryLabels, parseLegalCategory } from "./legal-category.ts";

describe("isPrescriptionOnly", () => {
  it("is true for POM-V and POM-VPS only", () => {
    expect(legalCategories.filter((category) => isPrescriptionOnly(category))).toEqual(["POM-V", "POM-VPS"]);
  });

  it("is false for no category, an unknown one, or a code in the wrong case", () => {
    expect(isPrescriptionOnly(null)).toBe(false);
    expect(isPrescriptionOnly(undefined)).toBe(false);
    expect(isPrescriptionOnly("")).toBe(false);
    expect(isPrescriptionOnly("pom-v")).toBe(false);
    expect(isPrescriptionOnly("POM")).toBe(false);
  });
});

describe("legal categories", () => {
  it("has a label for every category and none for anything else", () => {
    expect(Object.keys(legalCategoryLabels)).toEqual([...legalCategories]);
    expect(isLegalCategory("AVM-GSL")).toBe(true);
    expect(isLegalCategory("GSL")).toBe(false);
    expect(isLegalCategory(1)).toBe(false);
  });
});

describe("parseLegalCategory", () => {
  it("reads each code however a feed writes it", () => {
    expect(parseLegalCategory("POM-V")).toBe("POM-V");
    expect(parseLegalCategory(" pom v ")).toBe("POM-V");
    expect(parseLegalCategory("POM_VPS")).toBe("POM-VPS");
    expect(parseLegalCategory("POM–VPS")).toBe("POM-VPS");
    expect(parseLegalCategory("nfa.vps")).toBe("NFA-VPS");
    expect(parseLegalCategory("AVMGSL")).toBe("AVM-GSL");
    expect(parseLegalCategory("None")).toBe("none");
  });

  it("says nothing for an empty cell and refuses a code it does not know", () => {
    expect(parseLegalCategory(undefined)).toBeUndefined();
    expect(parseLegalCategory("   ")).toBeUndefined();
    expect(parseLegalCategory("GSL")).toBeNull();
    expect(parseLegalCategory("POM")).toBeNull();
    expect(parseLegalCategory("POM-V-X")).toBeNull();
  });
});
