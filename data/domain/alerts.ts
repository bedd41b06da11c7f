/**
 * Price alerts, one table of kinds. Each kind says what figure it takes (a target price, a drop
 * percent, or none), when the form offers it, when it fires, when it is refused at the start, how
 * often it mails, and every text about it (form label, statuses, list description, the form's and
 * the mail's words). Everything else (the TypeScript unions, the API's request schema in
 * alerts.schema.ts, the database's list of kinds, the mail, the form's options) is derived from
 * this table, so a new kind is one entry here plus a migration for the database's list.
 */
import { windowDays } from "./deal-truth.ts";
import { formatPence, fromPounds, type Pence } from "./money.ts";
import { percentOff } from "./percent-off.ts";

/** A drop alert's percent: a whole number from 1 to 99. */
export const minDropPercent = 1;
export const maxDropPercent = 99;

/**
 * The figures an alert may take besides its kind. Each is stored in its own column (named as
 * AlertCondition names it) and sent in its own request field: a target as pounds, a percent as
 * it is.
 */
export const alertFigures = {
  targetPence: {
    column: "targetPricePence",
    requestField: "targetPrice",
    onlyFor: "a target-price alert",
    /** Pounds (two decimals at most, checked first) to whole pence. */
    fromRequest: (pounds: number): Pence => fromPounds(pounds),
  },
  percent: {
    column: "dropPercent",
    requestField: "dropPercent",
    onlyFor: "a drop alert",
    fromRequest: (percent: number): number => percent,
  },
} as const;
export type AlertFigure = keyof typeof alertFigures;
type FigureColumn = (typeof alertFigures)[AlertFigure]["column"];

/** An alert's figures as stored: the one its kind takes and the best price when it was set. */
export type StoredFigures = { [C in FigureColumn]: number | null } & {
  /** The best price (to the door) when the alert was set; null when nothing was in stock. */
  referencePricePence: Pence | null;
};

/** The figure values of a rule: `{ targetPence: 1200 }` for a target, `{}` for a kind without a figure. */
type FigureValues<F> = F extends AlertFigure ? { [P in F]: number } : Record<never, never>;
/** The same as a request sends them: `{ targetPrice: 12 }`. */
type RequestValues<F> = F extends AlertFigure ? { [P in (typeof alertFigures)[F]["requestField"]]: number } : Record<never, never>;
type Simplify<T> = { [P in keyof T]: T[P] } & {};

/** What deciding whether an alert fires needs, at a time something is in stock. */
export interface InStockState {
  /** Today's lowest in-stock total. */
  currentPence: Pence;
  /** The lowest total when the alert was set. */
  referencePence: Pence | null;
  /** Whether any offer was in stock at the last check. */
  wasInStock: boolean;
  /** `lowestIn90Days(days).lowestBeforeTodayPence`. */
  lowest90ExcludingTodayPence: Pence | null;
}

/** What an alert's mail says, worked out once for every kind. */
export interface AlertMailFacts {
  productName: string;
  /** The best price, formatted: "£12.99". */
  price: string;
  pricePence: Pence;
  /** " at Retailer", or empty when the retailer is unknown. */
  at: string;
  /** " with free delivery", " including £2.99 delivery", or empty when not known. */
  deliveryNote: string;
  /** Only for a target alert. */
  targetPence: Pence | null;
  /** The best price when the alert was set. */
  referencePence: Pence | null;
}

/** One kind of alert; `F` is the figure it takes (null: none). */
export interface AlertKindEntry<F extends AlertFigure | null, Met extends string, Waiting extends string> {
  figure: F;
  /**
   * When the form offers it: always, only while something is in stock, or only while nothing is.
   * The API takes every kind at any time, unless `refuse` says otherwise.
   */
  offered: "always" | "in-stock" | "out-of-stock";
  /** Whether deciding it needs the product's 89 days before today (read in bulk only for such kinds). */
  history: boolean;
  /**
   * How often it mails: "lower-price" once per price while it holds, again only at a lower price
   * or after it stopped holding; "restock" once each time the product comes back into stock.
   */
  repeat: "lower-price" | "restock";
  /** Whether it fires now (something is in stock: nothing fires without a price). */
  fires(rule: FigureValues<F>, state: InStockState): boolean;
  /** What the API refuses when the alert is set, with the reason it answers. */
  refuse: {
    /** A kind measured from today's price is refused while nothing is in stock. */
    outOfStock?: string;
    /** A kind that would only mail at once is refused while it is met already. */
    metAtOnce?: (currentPence: Pence) => string;
  };
  /** The form's radio label. */
  label: string;
  /** My Alerts' status: met while what it waits for holds now, else waiting. */
  status: { met: Met; waiting: Waiting };
  /** What it waits for, in words (My Alerts, the confirmation mail and page). */
  condition(stored: StoredFigures): string;
  /** The form's words once an alert that is on at once is created, for the trimmed address. */
  created(address: string, rule: FigureValues<F>, currentPence: Pence | null): string;
  /** The form's words instead of creating an alert met at once; absent: the form never refuses it. */
  metInForm?(rule: FigureValues<F>, currentPence: Pence): string;
  /** The mail sent when it fires: the subject, and what happened after "Good news: {product} ". */
  mail: { subject(facts: AlertMailFacts): string; news(facts: AlertMailFacts): string };
}

/** Checks an entry and keeps its figure and statuses as literal types, so the unions below derive. */
function defineKind<const F extends AlertFigure | null, const Met extends string, const Waiting extends string>(
  entry: AlertKindEntry<F, Met, Waiting>,
): AlertKindEntry<F, Met, Waiting> {
  return entry;
}

/**
 * The best price a drop alert fires at (or below): the reference less the percent, rounded down
 * to the penny, since a drop fires at or below reference × (1 − percent ÷ 100).
 * @example dropThresholdPence(2000, 10) // 1800
 * @example dropThresholdPence(2999, 10) // 2699
 */
export function dropThresholdPence(referencePence: Pence, percent: number): Pence {
  return Math.floor((referencePence * (100 - percent)) / 100);
}

/** The kinds, in the order the form lists them. */
export const alertKindTable = {
  /** The price reaches a target: fires at or below it. */
  target: defineKind({
    figure: "targetPence",
    offered: "always",
    history: false,
    repeat: "lower-price",
    fires: (rule, state) => state.currentPence <= rule.targetPence,
    refuse: {},
    label: "The price drops to my target",
    status: { met: "Price reached!", waiting: "Waiting for drop" },
    condition: (stored) => `${formatPence(stored.targetPricePence ?? 0)} or less`,
    created: (address, rule) => `We'll e-mail ${address} when the price drops to £${(rule.targetPence / 100).toFixed(2)} or less.`,
    metInForm: (rule, currentPence) =>
      `The price is already ${formatPence(currentPence)} — ${rule.targetPence === currentPence ? "your target price" : "below your target"}.`,
    mail: {
      subject: (f) => `Price drop: ${f.productName} is now ${f.price}${f.at}`,
      news: (f) => `is now ${f.price}${f.at}${f.deliveryNote}, at or below your target price of ${formatPence(f.targetPence ?? 0)}.`,
    },
  }),
  /**
   * The price falls by a percentage from what it was when the alert was set: fires at or below
   * reference × (1 − percent ÷ 100), so 10% off £20.00 fires at £18.00; a percent outside 0 to
   * 100 (exclusive) or no reference never fires.
   */
  drop: defineKind({
    figure: "percent",
    offered: "in-stock",
    history: false,
    repeat: "lower-price",
    fires: (rule, state) =>
      state.referencePence !== null && rule.percent > 0 && rule.percent < 100 && state.currentPence * 100 <= state.referencePence * (100 - rule.percent),
    refuse: { outOfStock: "A drop alert is measured from today's price, and this product is out of stock everywhere: choose back in stock instead." },
    label: "The price drops by a percentage",
    status: { met: "Price reached!", waiting: "Waiting for drop" },
    condition: (stored) => {
      const percent = stored.dropPercent ?? 0;
      const reference = stored.referencePricePence;
      return reference === null
        ? `a drop of ${percent}%`
        : `a drop of ${percent}% from ${formatPence(reference)}, to ${formatPence(dropThresholdPence(reference, percent))} or less`;
    },
    created: (address, rule, currentPence) => {
      const to = currentPence === null ? "" : `, to ${formatPence(dropThresholdPence(currentPence, rule.percent))} or less`;
      return `We'll e-mail ${address} when the price drops by ${rule.percent}% or more${to}.`;
    },
    mail: {
      // A drop alert fires only at its whole-percent drop or more, so the rule finds a saving here.
      subject: (f) => `Price drop: ${f.productName} has dropped ${percentOff(f.referencePence, f.pricePence) ?? 0}% to ${f.price}${f.at}`,
      news: (f) =>
        `has dropped ${percentOff(f.referencePence, f.pricePence) ?? 0}% to ${f.price}${f.at}${f.deliveryNote}, from ${formatPence(f.referencePence ?? f.pricePence)} when you set your alert.`,
    },
  }),
  /** An offer comes back into stock: fires when nothing was in stock at the last check. */
  "back-in-stock": defineKind({
    figure: null,
    offered: "out-of-stock",
    history: false,
    repeat: "restock",
    fires: (_rule, state) => !state.wasInStock,
    refuse: {},
    label: "It's back in stock",
    status: { met: "In stock", waiting: "Waiting for stock" },
    condition: () => "back in stock",
    created: (address) => `We'll e-mail ${address} when it's back in stock.`,
    mail: {
      subject: (f) => `Back in stock: ${f.productName} is back in stock${f.at}`,
      news: (f) => `is back in stock${f.at}, at ${f.price}${f.deliveryNote}.`,
    },
  }),
  /**
   * The price goes below every day of the 90 before today: fires only strictly below their
   * least price (matching it is no news), and not without such a price.
   */
  "lowest-90": defineKind({
    figure: null,
    offered: "always",
    history: true,
    repeat: "lower-price",
    fires: (_rule, state) => state.lowest90ExcludingTodayPence !== null && state.currentPence < state.lowest90ExcludingTodayPence,
    refuse: {
      metAtOnce: (currentPence) =>
        `The price is already ${formatPence(currentPence)}, the lowest in ${windowDays} days: no alert needed, you can buy at that price now.`,
    },
    label: `It's the lowest price in ${windowDays} days`,
    status: { met: "Lowest in 90 days!", waiting: "Waiting for a new low" },
    condition: () => `the lowest price in ${windowDays} days`,
    created: (address) => `We'll e-mail ${address} when the price is the lowest in ${windowDays} days.`,
    metInForm: (_rule, currentPence) => `The price is already ${formatPence(currentPence)} — the lowest in ${windowDays} days.`,
    mail: {
      subject: (f) => `Lowest price in ${windowDays} days: ${f.productName} is now ${f.price}${f.at}`,
      news: (f) => `is now ${f.price}${f.at}${f.deliveryNote}: the lowest price in ${windowDays} days.`,
    },
  }),
};

type KindTable = typeof alertKindTable;
/** What a price alert waits for: a target price, any drop of N %, back in stock, the lowest price in 90 days. */
export type AlertKind = keyof KindTable;
/** The kinds, in the table's order. */
export const alertKinds = Object.keys(alertKindTable) as [AlertKind, ...AlertKind[]];
/** The kind an alert is when none is given. */
export const defaultAlertKind = "target" satisfies AlertKind;

type FigureOf<K extends AlertKind> = KindTable[K]["figure"];
/** A rule alertFires checks: the kind and its figure in pence or percent (`{ kind: "target"; targetPence: 1200 }`). */
export type AlertRule = { [K in AlertKind]: Simplify<{ kind: K } & FigureValues<FigureOf<K>>> }[AlertKind];
/** The fields an alert of each kind sends besides userId, productId and email (`{ kind: "target"; targetPrice: 12 }`). */
export type AlertRequest = { [K in AlertKind]: Simplify<{ kind: K } & RequestValues<FigureOf<K>>> }[AlertKind];
/** An alert's status as My Alerts shows it. */
export type AlertStatus = { [K in AlertKind]: KindTable[K]["status"]["met" | "waiting"] }[AlertKind];

/** Any entry, for code that looks a kind up at run time (the table's entries, each checked above). */
type AnyKindEntry = AlertKindEntry<AlertFigure | null, AlertStatus, AlertStatus>;
const entries: Record<AlertKind, AnyKindEntry> = alertKindTable;
/** A kind's entry, looked up by a kind known only at run time. */
export function alertKindOf(kind: AlertKind): AnyKindEntry {
  return entries[kind];
}

/** The kinds that take a figure, in the table's order (the database requires the figure's column for exactly these). */
export function alertKindsTaking(figure: AlertFigure): AlertKind[] {
  return alertKinds.filter((kind) => entries[kind].figure === figure);
}

/** The statuses that are good news: what the alert waits for holds now. */
export const metStatuses: ReadonlySet<AlertStatus> = new Set(alertKinds.map((kind) => entries[kind].status.met));

/** An alert's condition as stored: its kind, the figure its kind needs (target or percent) and the best price when it was set. */
export type AlertCondition = { kind: AlertKind } & StoredFigures;

/** The rule of a kind and a figure value (null when the kind takes none). */
function ruleWith(kind: AlertKind, value: number | null): AlertRule {
  const figure = entries[kind].figure;
  return (figure === null ? { kind } : { kind, [figure]: value }) as AlertRule;
}

/** The figure of a rule (null when its kind takes none). */
function figureValueOf(rule: AlertRule): number | null {
  const figure = entries[rule.kind].figure;
  return figure === null ? null : (rule as Partial<Record<AlertFigure, number>>)[figure]!;
}

/** The rule alertFires checks; null when the stored figures do not make one (a target alert without a target). */
export function alertRuleOf(condition: AlertCondition): AlertRule | null {
  const figure = entries[condition.kind].figure;
  const value = figure === null ? null : condition[alertFigures[figure].column];
  return figure !== null && value === null ? null : ruleWith(condition.kind, value);
}

/** The columns a rule is stored in: its figure in its own column, the other figures' columns null. */
export function storedFiguresOf(rule: AlertRule): { [C in FigureColumn]: number | null } {
  const stored = {} as { [C in FigureColumn]: number | null };
  const figure = entries[rule.kind].figure;
  for (const name of Object.keys(alertFigures) as AlertFigure[]) stored[alertFigures[name].column] = name === figure ? figureValueOf(rule) : null;
  return stored;
}

/** The rule a request asks for (a target in pounds becomes pence). */
export function ruleOfRequest(request: AlertRequest): AlertRule {
  const figure = entries[request.kind].figure;
  if (figure === null) return ruleWith(request.kind, null);
  const { requestField, fromRequest } = alertFigures[figure];
  return ruleWith(request.kind, fromRequest((request as unknown as Record<string, number>)[requestField]!));
}

export interface AlertState {
  /** Today's lowest in-stock total; null when nothing is in stock. */
  currentPence: Pence | null;
  /** The lowest total when the alert was set. */
  referencePence: Pence | null;
  /** Whether any offer was in stock at the last check. */
  wasInStock: boolean;
  /** `lowestIn90Days(days).lowestBeforeTodayPence`. */
  lowest90ExcludingTodayPence: Pence | null;
}

/**
 * Whether an alert fires now: the ONE decision, made by its kind's `fires`. Nothing fires
 * without a price in stock.
 * @example alertFires({ kind: "drop", percent: 10 }, { currentPence: 1800, referencePence: 2000, wasInStock: true, lowest90ExcludingTodayPence: 1750 }) // true
 * @example alertFires({ kind: "lowest-90" }, { currentPence: 1750, referencePence: 2000, wasInStock: true, lowest90ExcludingTodayPence: 1750 }) // false
 */
export function alertFires(rule: AlertRule, state: AlertState): boolean {
  const currentPence = state.currentPence;
  if (currentPence === null) return false;
  return entries[rule.kind].fires(rule, { ...state, currentPence });
}

/**
 * Whether what an alert waits for holds now, news or not: it fires as if nothing had been in
 * stock before, so back in stock holds while anything is in stock. My Alerts shows it as the
 * status; a mailed alert that no longer holds is re-armed.
 */
export function alertHolds(condition: AlertCondition, bestPricePence: Pence | null, lowest90ExcludingTodayPence: Pence | null): boolean {
  const rule = alertRuleOf(condition);
  return (
    rule !== null &&
    alertFires(rule, { currentPence: bestPricePence, referencePence: condition.referencePricePence, wasInStock: false, lowest90ExcludingTodayPence })
  );
}

/** What a new alert is judged against when it is set: today's best price and the 89 days before. */
export interface AlertStartFacts {
  /** Today's best price (total to the door); null when nothing is in stock. */
  currentPence: Pence | null;
  /** The least daily lowest of the 89 days before today; null when nothing was in stock then. */
  lowestBeforeTodayPence: Pence | null;
}

/**
 * Whether an alert would be met the moment it is set, so it would only mail at once: the rule
 * alertFires checks holds already. A target at or above today's price is met; a lowest-90 alert
 * is met while today's price is below every day of the 89 before (equal to the lowest is not: it
 * waits for a new low). A drop is measured from today's price and back in stock from today's
 * stock, so neither is ever met at the start. Such an alert is refused where its kind says so
 * (`refuse.metAtOnce` for the API, `metInForm` for the form).
 * @example metAtOnce({ kind: "target", targetPence: 1299 }, { currentPence: 1299, lowestBeforeTodayPence: null }) // true
 * @example metAtOnce({ kind: "lowest-90" }, { currentPence: 1999, lowestBeforeTodayPence: 2000 }) // true
 * @example metAtOnce({ kind: "lowest-90" }, { currentPence: 2000, lowestBeforeTodayPence: 2000 }) // false
 */
export function metAtOnce(rule: AlertRule, facts: AlertStartFacts): boolean {
  return alertFires(rule, {
    currentPence: facts.currentPence,
    referencePence: facts.currentPence,
    wasInStock: facts.currentPence !== null,
    lowest90ExcludingTodayPence: facts.lowestBeforeTodayPence,
  });
}

/**
 * Why the API refuses a new alert, or null when it takes it: a kind measured from today's price
 * while nothing is in stock, or a kind refused while met already (metAtOnce).
 * @example alertRefusal({ kind: "drop", percent: 10 }, { currentPence: null, lowestBeforeTodayPence: null }) // "A drop alert is measured from today's price, ..."
 */
export function alertRefusal(rule: AlertRule, facts: AlertStartFacts): string | null {
  const { refuse } = entries[rule.kind];
  if (facts.currentPence === null) return refuse.outOfStock ?? null;
  return refuse.metAtOnce && metAtOnce(rule, facts) ? refuse.metAtOnce(facts.currentPence) : null;
}

/**
 * The kinds the form offers, in the table's order: "always", plus "in-stock" ones while something
 * is in stock or "out-of-stock" ones while nothing is.
 * @example offeredAlertKinds(true) // ["target", "drop", "lowest-90"]
 */
export function offeredAlertKinds(inStock: boolean): AlertKind[] {
  return alertKinds.filter((kind) => {
    const { offered } = entries[kind];
    return offered === "always" || offered === (inStock ? "in-stock" : "out-of-stock");
  });
}

/** The form's suggested target is this many percent below today's price... */
export const suggestedTargetPercentOff = 5;
/** ...rounded down to a whole multiple of this many pence. */
export const suggestedTargetStepPence = 10;

/**
 * The target the alert form fills in: 5% below today's best price, rounded down to a whole 10p,
 * never below 1p. Null (the field is left empty) when nothing is in stock, or when even 1p would
 * be met at once (a price of 1p): the suggestion is never a target metAtOnce refuses.
 * @example suggestedTargetPence(1299) // 1230
 * @example suggestedTargetPence(100) // 90
 * @example suggestedTargetPence(50) // 40
 * @example suggestedTargetPence(10) // 1
 * @example suggestedTargetPence(1) // null
 */
export function suggestedTargetPence(currentPence: Pence | null): Pence | null {
  if (currentPence === null) return null;
  const lowered = Math.floor((currentPence * (100 - suggestedTargetPercentOff)) / (100 * suggestedTargetStepPence)) * suggestedTargetStepPence;
  const target = Math.max(1, lowered);
  return metAtOnce({ kind: "target", targetPence: target }, { currentPence, lowestBeforeTodayPence: null }) ? null : target;
}

/**
 * What an alert waits for, in words (My Alerts, the confirmation mail and page).
 * @example alertConditionText({ kind: "target", targetPricePence: 1200, dropPercent: null, referencePricePence: 1500 }) // "£12.00 or less"
 * @example alertConditionText({ kind: "drop", targetPricePence: null, dropPercent: 10, referencePricePence: 2000 }) // "a drop of 10% from £20.00, to £18.00 or less"
 * @example alertConditionText({ kind: "back-in-stock", targetPricePence: null, dropPercent: null, referencePricePence: null }) // "back in stock"
 * @example alertConditionText({ kind: "lowest-90", targetPricePence: null, dropPercent: null, referencePricePence: 1500 }) // "the lowest price in 90 days"
 */
export function alertConditionText(condition: AlertCondition): string {
  return entries[condition.kind].condition(condition);
}

/**
 * Where an alert stands now, in words: its kind's met status while what it waits for holds now
 * (alertHolds), else its waiting status.
 * @example alertStatusOf({ kind: "drop", targetPricePence: null, dropPercent: 10, referencePricePence: 2000 }, 1800, null) // "Price reached!"
 */
export function alertStatusOf(condition: AlertCondition, bestPricePence: Pence | null, lowest90ExcludingTodayPence: Pence | null): AlertStatus {
  const { status } = entries[condition.kind];
  return alertHolds(condition, bestPricePence, lowest90ExcludingTodayPence) ? status.met : status.waiting;
}

/** The form's words once an alert that is on at once is created (the address trimmed). */
export function alertCreatedText(email: string, rule: AlertRule, currentPence: Pence | null): string {
  return entries[rule.kind].created(email.trim(), rule, currentPence);
}

/** The form's words instead of creating an alert met at once; null when the form takes it. */
export function metInFormText(rule: AlertRule, facts: AlertStartFacts): string | null {
  const { metInForm } = entries[rule.kind];
  return metInForm && facts.currentPence !== null && metAtOnce(rule, facts) ? metInForm(rule, facts.currentPence) : null;
}

/** The subject and the news ("is now £12.99 at Zooplus, ...") of an alert's mail. */
export function alertMailTexts(kind: AlertKind, facts: AlertMailFacts): { subject: string; news: string } {
  const { mail } = entries[kind];
  return { subject: mail.subject(facts), news: mail.news(facts) };
}
