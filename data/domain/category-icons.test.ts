import { describe, expect, it } from "vitest";
import { categoryIconName, categoryIconNames } from "./category-icons.ts";
import { categoryInput } from "./catalogue-input.ts";

describe("categoryIconName", () => {
  it("takes every icon's own name as it is", () => {
    for (const name of categoryIconNames) expect(categoryIconName(name)).toBe(name);
  });

  it("takes a name in any case or style, as the form's hint spells them", () => {
    expect(categoryIconName("Bone")).toBe("bone");
    expect(categoryIconName("BONE")).toBe("bone");
    expect(categoryIconName(" fish ")).toBe("fish");
    expect(categoryIconName("ShieldDog")).toBe("shield-dog");
    expect(categoryIconName("Shield-Dog")).toBe("shield-dog");
    expect(categoryIconName("shield dog")).toBe("shield-dog");
    expect(categoryIconName("PawPrint")).toBe("paw-print");
  });

  it("knows no other icon", () => {
    for (const typed of ["", "Turtle", "bones", "bon", "shield", "dog-shield", "<svg>", "paw--print!"]) expect(categoryIconName(typed), typed).toBeNull();
  });
});

describe("categoryInput icon", () => {
  it("stores the icon's own name and refuses an unknown one", () => {
    expect(categoryInput.parse({ name: "Dogs", slug: "dogs", icon: "Bone" }).icon).toBe("bone");
    const refused = categoryInput.safeParse({ name: "Dogs", slug: "dogs", icon: "Turtle" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(`icon must be one of ${categoryIconNames.join(", ")}`);
  });
});
