import { describe, expect, it } from "vitest";
import { headerBasket } from "./header-counts.ts";
import { basketChangedEvent, basketStorageKey } from "../features/basket/basket.store.ts";

describe("the header's basket badge", () => {
  it("reads the key the basket is stored under and hears the event the basket announces its changes with", () => {
    expect(headerBasket).toEqual({ key: basketStorageKey, changed: basketChangedEvent });
  });
});
