import { describe, expect, expectTypeOf, it } from "vitest";
import {
  alertConditionText,
  alertCreatedText,
  alertFigures,
  alertFires,
  alertKindOf,
  alertKinds,
  alertKindsTaking,
  alertKindTable,
  alertMailTexts,
  alertRefusal,
  alertRuleOf,
  metStatuses,
  offeredAlertKinds,
  ruleOfRequest,
  storedFiguresOf,
  type AlertCondition,
  type AlertFigure,
  type AlertKind,
  type AlertRequest,
  type AlertRule,
  type AlertStatus,
} from "./alerts.ts";
import { newAlertBody } from "./alerts.schema.ts";

/** A stored alert of `kind` with every figure set: each kind reads only its own. */
const stored = (kind: AlertKind): AlertCondition => ({ kind, targetPricePence: 1200, dropPercent: 10, referencePricePence: 2000 });
const ruleFor = (kind: AlertKind): AlertRule => alertRuleOf(stored(kind))!;
const visitor = { userId: "user_abcdefghijklmnopqrstuvwx", productId: 7, email: "a@example.co.uk" };
/** A request field's value that its figure's check accepts. */
const requestValue: Record<AlertFigure, number> = { targetPence: 12, percent: 10 };

describe("the alert-kind table", () => {
  it("lists the kinds in the table's order", () => {
    expect(alertKinds).toEqual(Object.keys(alertKindTable));
    expect(alertKinds).toEqual(["target", "drop", "back-in-stock", "lowest-90"]);
  });

  it("gives every kind its texts: a label of its own, two different statuses, its condition, the form's and the mail's words", () => {
    const mailFacts = { productName: "Kibble", price: "£9.99", pricePence: 999, at: " at Zoo", deliveryNote: "", targetPence: 1200, referencePence: 2000 };
    for (const kind of alertKinds) {
      const entry = alertKindOf(kind);
      expect(entry.label, kind).toMatch(/\w/);
      expect(entry.status.met, kind).toMatch(/\w/);
      expect(entry.status.waiting, kind).toMatch(/\w/);
      expect(entry.status.met, kind).not.toBe(entry.status.waiting);
      expect(alertConditionText(stored(kind)), kind).toMatch(/\w/);
      expect(alertCreatedText(" a@b.co ", ruleFor(kind), 2000), kind).toMatch(/^We'll e-mail a@b\.co when .+\.$/);
      const mail = alertMailTexts(kind, mailFacts);
      expect(mail.subject, kind).toContain("Kibble");
      expect(mail.news, kind).toContain("£9.99");
    }
    expect(new Set(alertKinds.map((kind) => alertKindOf(kind).label)).size).toBe(alertKinds.length);
  });

  it("has a fires rule for every kind: none fires without a price, each fires when what it waits for happens", () => {
    const happened = { currentPence: 1, referencePence: 2000, wasInStock: false, lowest90ExcludingTodayPence: 1000 };
    for (const kind of alertKinds) {
      expect(alertFires(ruleFor(kind), happened), kind).toBe(true);
      expect(alertFires(ruleFor(kind), { ...happened, currentPence: null }), kind).toBe(false);
    }
  });

  it("stores each kind's figure in its own column only, and reads the same rule back", () => {
    for (const kind of alertKinds) {
      const rule = ruleFor(kind);
      const columns = storedFiguresOf(rule);
      const figure = alertKindOf(kind).figure;
      for (const name of Object.keys(alertFigures) as AlertFigure[]) {
        expect(columns[alertFigures[name].column], `${kind} ${name}`).toBe(name === figure ? stored(kind)[alertFigures[name].column] : null);
      }
      expect(alertRuleOf({ kind, ...columns, referencePricePence: null })).toEqual(rule);
    }
    // A kind whose figure is missing makes no rule.
    expect(alertRuleOf({ kind: "target", targetPricePence: null, dropPercent: 10, referencePricePence: 2000 })).toBeNull();
  });

  it("has each figure taken by exactly the kinds that name it", () => {
    expect(alertKindsTaking("targetPence")).toEqual(["target"]);
    expect(alertKindsTaking("percent")).toEqual(["drop"]);
    const withFigure = (Object.keys(alertFigures) as AlertFigure[]).flatMap(alertKindsTaking);
    expect(withFigure.sort()).toEqual(alertKinds.filter((kind) => alertKindOf(kind).figure !== null).sort());
  });

  it("offers every kind in the form while in stock or while out of stock, and says which statuses are good news", () => {
    expect(offeredAlertKinds(true)).toEqual(["target", "drop", "lowest-90"]);
    expect(offeredAlertKinds(false)).toEqual(["target", "back-in-stock", "lowest-90"]);
    for (const kind of alertKinds) expect([...offeredAlertKinds(true), ...offeredAlertKinds(false)], kind).toContain(kind);
    expect([...metStatuses].sort()).toEqual(["In stock", "Lowest in 90 days!", "Price reached!"]);
  });
});

describe("what the API refuses when an alert is set", () => {
  const at = (currentPence: number | null, lowestBeforeTodayPence: number | null = null) => ({ currentPence, lowestBeforeTodayPence });

  it("a drop while nothing is in stock, not while something is", () => {
    expect(alertRefusal({ kind: "drop", percent: 10 }, at(null))).toBe(
      "A drop alert is measured from today's price, and this product is out of stock everywhere: choose back in stock instead.",
    );
    expect(alertRefusal({ kind: "drop", percent: 10 }, at(1))).toBeNull();
  });

  it("the lowest in 90 days while today's price is below every day before, not when equal to their lowest or out of stock", () => {
    expect(alertRefusal({ kind: "lowest-90" }, at(1999, 2000))).toBe(
      "The price is already £19.99, the lowest in 90 days: no alert needed, you can buy at that price now.",
    );
    expect(alertRefusal({ kind: "lowest-90" }, at(2000, 2000))).toBeNull();
    expect(alertRefusal({ kind: "lowest-90" }, at(null, 2000))).toBeNull();
  });

  it("never a target (the form refuses one met at once; the API takes it) nor back in stock", () => {
    expect(alertRefusal({ kind: "target", targetPence: 5000 }, at(1000))).toBeNull();
    expect(alertRefusal({ kind: "target", targetPence: 5000 }, at(null))).toBeNull();
    expect(alertRefusal({ kind: "back-in-stock" }, at(null))).toBeNull();
    expect(alertRefusal({ kind: "back-in-stock" }, at(1000))).toBeNull();
  });
});

describe("the request schema, derived from the table", () => {
  it("takes every kind with its own figure (none for a kind without one), as the rule the table reads", () => {
    for (const kind of alertKinds) {
      const figure = alertKindOf(kind).figure;
      const fields = figure === null ? {} : { [alertFigures[figure].requestField]: requestValue[figure] };
      const parsed = newAlertBody.safeParse({ ...visitor, kind, ...fields });
      expect(parsed.success, kind).toBe(true);
      expect(parsed.data).toEqual({ ...visitor, rule: ruleOfRequest({ kind, ...fields } as AlertRequest) });
    }
    expect(newAlertBody.parse({ ...visitor, targetPrice: 12.5 }).rule).toEqual({ kind: "target", targetPence: 1250 });
  });

  it("refuses every other figure's field for each kind, a kind's figure left out, and an unknown kind", () => {
    for (const kind of alertKinds) {
      const taken = alertKindOf(kind).figure;
      const own = taken === null ? {} : { [alertFigures[taken].requestField]: requestValue[taken] };
      for (const figure of Object.keys(alertFigures) as AlertFigure[]) {
        if (figure === taken) continue;
        const { requestField, onlyFor } = alertFigures[figure];
        const parsed = newAlertBody.safeParse({ ...visitor, kind, ...own, [requestField]: requestValue[figure] });
        expect(parsed.error?.issues.map((issue) => issue.message), `${kind} with ${requestField}`).toEqual([`${requestField}: only for ${onlyFor}, not ${kind}`]);
      }
      if (taken !== null) expect(newAlertBody.safeParse({ ...visitor, kind }).success, `${kind} without its figure`).toBe(false);
    }
    expect(newAlertBody.safeParse({ ...visitor, kind: "price-rise" }).error?.issues[0]?.message).toBe("kind must be one of target, drop, back-in-stock, lowest-90");
  });

  it("checks each figure at its bounds: a drop of 1 % and 99 % but not 0 % or 100 %", () => {
    for (const dropPercent of [1, 99]) expect(newAlertBody.safeParse({ ...visitor, kind: "drop", dropPercent }).success, `${dropPercent}`).toBe(true);
    for (const dropPercent of [0, 100, 10.5]) expect(newAlertBody.safeParse({ ...visitor, kind: "drop", dropPercent }).success, `${dropPercent}`).toBe(false);
  });
});

describe("the unions, derived from the table", () => {
  it("are the kinds, their rules, their requests and their statuses", () => {
    expectTypeOf<AlertKind>().toEqualTypeOf<"target" | "drop" | "back-in-stock" | "lowest-90">();
    expectTypeOf<AlertCondition["kind"]>().toEqualTypeOf<AlertKind>();
    expectTypeOf<AlertRule>().toEqualTypeOf<
      { kind: "target"; targetPence: number } | { kind: "drop"; percent: number } | { kind: "back-in-stock" } | { kind: "lowest-90" }
    >();
    expectTypeOf<AlertRequest>().toEqualTypeOf<
      { kind: "target"; targetPrice: number } | { kind: "drop"; dropPercent: number } | { kind: "back-in-stock" } | { kind: "lowest-90" }
    >();
    expectTypeOf<AlertStatus>().toEqualTypeOf<
      "Price reached!" | "Waiting for drop" | "In stock" | "Waiting for stock" | "Lowest in 90 days!" | "Waiting for a new low"
    >();
    expectTypeOf<ReturnType<typeof newAlertBody.parse>>().toEqualTypeOf<{ userId: string; productId: number; email: string; rule: AlertRule }>();
  });
});
