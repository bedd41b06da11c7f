import { describe, expect, it } from "vitest";
import { isLegalCategory, isPrescriptionOnly, legalCategories, legalCategoryLabels, parseLegalCategory, prescriberText, promotedProducts } from "./legal-category.ts";

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

describe("prescriberText", () => {
  it("names who prescribes each prescription-only category, and nothing for the others", () => {
    expect(prescriberText("POM-V")).toBe("a prescription from a vet (POM-V)");
    expect(prescriberText("POM-VPS")).toBe("a prescription from a vet, pharmacist or SQP (POM-VPS)");
    for (const category of ["none", "NFA-VPS", "AVM-GSL", null]) expect(prescriberText(category)).toBeNull();
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

describe("promotedProducts", () => {
  const wormer = { name: "Vetcare Wormer Tablets 4 pack", slug: "vetcare-wormer-tablets-4-pack" };
  const spotOn = { name: "Vetcare Spot On", slug: "vetcare-spot-on" };

  it("finds a medicine the issue links to, by its page's whole slug", () => {
    expect(promotedProducts("Now only £9: https://pawprice.example/product/vetcare-spot-on?utm=x", [wormer, spotOn])).toEqual([spotOn]);
    expect(promotedProducts('<a href="/product/vetcare-wormer-tablets-4-pack">here</a>', [wormer, spotOn])).toEqual([wormer]);
    // A longer slug that starts with it is another product's page.
    expect(promotedProducts("/product/vetcare-spot-on-large", [spotOn])).toEqual([]);
  });

  it("finds a medicine the issue names in full, in any case and spacing", () => {
    expect(promotedProducts("Deal of the week:\nVETCARE  wormer tablets\n4 pack!", [wormer, spotOn])).toEqual([wormer]);
    expect(promotedProducts("Vetcare Wormer Tablets are back", [wormer])).toEqual([]);
    // Spacing is loosened, not dropped: "Spoton" is not "Spot On".
    expect(promotedProducts("Vetcare Spoton drops", [spotOn])).toEqual([]);
  });

  it("never matches a product without a name by its name", () => {
    expect(promotedProducts("Any issue at all", [{ name: " ", slug: "unnamed" }])).toEqual([]);
  });

  it("finds nothing in an issue about other products, and lists each medicine once", () => {
    expect(promotedProducts("New chews: /product/beef-chews", [wormer, spotOn])).toEqual([]);
    expect(promotedProducts("Vetcare Spot On, /product/vetcare-spot-on, Vetcare Spot On", [spotOn])).toEqual([spotOn]);
  });
});
