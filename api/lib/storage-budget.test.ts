import { describe, expect, it } from "vitest";
import { StorageBudget } from "./storage-budget.ts";

describe("StorageBudget", () => {
  it("counts rows per client up to the day's budget; spending nothing takes no room", () => {
    const budget = new StorageBudget({ rowsPerDay: 10, now: () => new Date("2026-03-10T08:00:00.000Z") });
    expect(budget.remaining("a")).toBe(10);
    budget.spend("a", 4);
    budget.spend("a", 6);
    budget.spend("b", 0);
    expect(budget.remaining("a")).toBe(0);
    expect(budget.remaining("b")).toBe(10);
    expect(budget.size).toBe(1);
    expect(budget.secondsToNextDay()).toBe(16 * 60 * 60);
  });

  it("forgets every count when the UTC day changes", () => {
    let now = new Date("2026-03-10T23:59:59.999Z");
    const budget = new StorageBudget({ rowsPerDay: 10, now: () => now });
    budget.spend("a", 10);
    budget.spend("b", 3);
    expect(budget.secondsToNextDay()).toBe(1);
    now = new Date("2026-03-11T00:00:00.000Z");
    expect(budget.size).toBe(0);
    expect(budget.remaining("a")).toBe(10);
    expect(budget.secondsToNextDay()).toBe(24 * 60 * 60);
  });

  it("holds at most maxClients clients, dropping the one counted first", () => {
    const budget = new StorageBudget({ rowsPerDay: 10, maxClients: 3, now: () => new Date("2026-03-10T08:00:00.000Z") });
    for (const client of ["a", "b", "c"]) budget.spend(client, 5);
    // A client already counted takes no new room.
    budget.spend("a", 1);
    expect(budget.size).toBe(3);
    budget.spend("d", 5);
    expect(budget.size).toBe(3);
    expect(budget.remaining("a")).toBe(10);
    expect(budget.remaining("b")).toBe(5);
    expect(budget.remaining("d")).toBe(5);
  });

  it("refuses a budget that is not a whole number of at least 1", () => {
    for (const rowsPerDay of [0, -1, 1.5, Number.NaN]) expect(() => new StorageBudget({ rowsPerDay })).toThrow(/rowsPerDay/);
  });
});
