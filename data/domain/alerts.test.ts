import { describe, expect, it } from "vitest";
import { alertStatus } from "./alerts.ts";

describe("alertStatus", () => {
  it("is reached at or below the target, waiting above it or with no price", () => {
    expect(alertStatus(1000, 1000)).toBe("Price reached!");
    expect(alertStatus(999, 1000)).toBe("Price reached!");
    expect(alertStatus(1001, 1000)).toBe("Waiting for drop");
    expect(alertStatus(null, 1000)).toBe("Waiting for drop");
  });
});
