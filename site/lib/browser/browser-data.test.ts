import { describe, expect, it } from "vitest";
import { browserDataKeys } from "./browser-data.ts";
import { clickLogKey } from "./clicks.ts";
import { sessionKey, userKey } from "./visitor.ts";
import { favoritesSavedKey } from "../../features/favorites/favorites.store.ts";
import { viewedKey } from "../../features/recently-viewed/record-view.ts";
import { petProfileKey } from "../../features/pet-profile/pet-profile.store.ts";
import { compareStorageKey } from "../../features/compare/compare.store.ts";
import { priceViewKey } from "../../features/price-view/price-view.ts";
import { basketStorageKey } from "../../features/basket/basket.store.ts";
import { memberSchemesKey } from "../../features/member-price/member-price.ts";

describe("this browser's data", () => {
  it("is every key the stores keep about the visitor, written as the stores write them", () => {
    expect([...browserDataKeys.local].sort()).toEqual([userKey, favoritesSavedKey, viewedKey, clickLogKey, petProfileKey, basketStorageKey, memberSchemesKey].sort());
    expect([...browserDataKeys.session].sort()).toEqual([sessionKey, compareStorageKey].sort());
  });

  it("leaves the settings alone: the cookie choice and the price view", () => {
    const all: string[] = [...browserDataKeys.local, ...browserDataKeys.session];
    expect(all).not.toContain("cookie_consent");
    expect(all).not.toContain(priceViewKey);
  });
});
