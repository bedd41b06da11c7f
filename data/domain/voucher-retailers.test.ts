import { describe, expect, it } from "vitest";
import { retailerNameKey, voucherFilterRetailers } from "./voucher-retailers.ts";

describe("voucher retailer filter", () => {
  it("offers exactly these retailers, spelled so, in this order", () => {
    expect(voucherFilterRetailers).toEqual(["Amazon", "Pets at Home", "Jollyes", "Zooplus", "Viovet", "Fetch", "Petplanet"]);
  });

  it("matches a retailer's name without case, spaces or punctuation, and nothing else", () => {
    expect(retailerNameKey("Petplanet")).toBe(retailerNameKey("Pet Planet"));
    expect(retailerNameKey("Pets at Home")).toBe(retailerNameKey("pets-at-home"));
    expect(retailerNameKey("Viovet")).not.toBe(retailerNameKey("VetUK"));
    expect(retailerNameKey("Fetch")).not.toBe(retailerNameKey("Fetch Pets"));
  });
});
