import { describe, expect, it } from "vitest";
import { percentOff } from "./percent-off.ts";

describe("percentOff", () => {
  it("rounds a half percent down, never up", () => {
    expect(percentOff(800, 700)).toBe(12); // 12.5%
    expect(percentOff(1000, 875)).toBe(12); // 12.5%
    expect(percentOff(200, 150)).toBe(25);
    expect(percentOff(2000, 1700)).toBe(15);
    expect(percentOff(400, 338)).toBe(15); // 15.5%
  });

  it("rounds every other fraction down too", () => {
    expect(percentOff(2000, 1800)).toBe(10);
    expect(percentOff(2999, 2699)).toBe(10); // 10.003%
    expect(percentOff(2000, 1801)).toBe(9); // 9.95%
    expect(percentOff(3, 2)).toBe(33); // 33.3%
    expect(percentOff(3, 1)).toBe(66); // 66.7%
    expect(percentOff(1000, 1)).toBe(99); // 99.9%
  });

  it("is exact where float division would not be: 100 x (was - now) / was landing on a whole number", () => {
    // A saving of exactly a whole percent is that percent, and every result is within 1 below the exact one.
    expect(percentOff(700, 693)).toBe(1);
    expect(percentOff(100, 93)).toBe(7);
    for (let was = 1; was <= 2000; was++) {
      for (const now of [1, Math.floor(was / 2), was - 1]) {
        if (now <= 0 || now >= was) continue;
        const percent = percentOff(was, now);
        const exact = ((was - now) * 100) / was;
        if (percent === null) expect(exact).toBeLessThan(1);
        else {
          expect(percent).toBeLessThanOrEqual(exact);
          expect(exact - percent).toBeLessThan(1);
        }
      }
    }
  });

  it("claims no saving under 1%, for the same price, a rise, or a missing or zero price", () => {
    expect(percentOff(200, 199)).toBeNull(); // 0.5%
    expect(percentOff(10_000, 9_901)).toBeNull(); // 0.99%
    expect(percentOff(10_000, 9_900)).toBe(1);
    expect(percentOff(2000, 2000)).toBeNull();
    expect(percentOff(2000, 2500)).toBeNull();
    expect(percentOff(null, 1800)).toBeNull();
    expect(percentOff(2000, null)).toBeNull();
    expect(percentOff(0, 0)).toBeNull();
    expect(percentOff(2000, 0)).toBeNull();
    expect(percentOff(-5, -10)).toBeNull();
    expect(percentOff(2000.5, 1000)).toBeNull(); // not whole pence
  });
});
