/**
 * The price-drop alert form in plain script: validates both fields on submit (messages tied to
 * their inputs with aria-invalid and aria-describedby), sends the alert, raises the toast, and
 * shows the "check your inbox" or "created" panel until "Create Another Alert" brings the form
 * back with the default target. An alert the current price meets already (metAtOnce: a target at
 * or above it, the lowest in 90 days while today's price is below every day before) is not sent:
 * the form says so, with the page's best-offer link.
 */
import { ApiError, api } from "../../lib/api.ts";
import { getVisitorId } from "../../lib/browser/visitor.ts";
import { announceVisitorCountsChanged } from "../../lib/browser/visitor-counts.ts";
import { toast } from "../toast/toast.store.ts";
import { createdMessageOf, metMessageOf, pendingMessage, validateAlertOf, type CreatedAlert } from "./price-alert.ts";
import type { AlertKind } from "../../../data/domain/alerts.ts";

/** The product page's Buy Now link for the best offer (in its best-price box), if it has one. */
function bestOfferLink(): HTMLAnchorElement | null {
  return document.querySelector<HTMLAnchorElement>('[aria-labelledby="best-price-heading"] a[data-affiliate]');
}

function showError(input: HTMLInputElement, message: string | undefined): void {
  const error = document.getElementById(`${input.id}-error`)!;
  error.textContent = message ?? "";
  error.hidden = !message;
  input.classList.toggle("border-red-600", Boolean(message));
  input.classList.toggle("border-slate-300", !message);
  if (message) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", error.id);
  } else {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  }
}

function enhance(root: HTMLElement): void {
  const form = root.querySelector("form")!;
  const email = form.querySelector<HTMLInputElement>('input[name="email"]')!;
  const target = form.querySelector<HTMLInputElement>('input[name="target"]')!;
  const percent = form.querySelector<HTMLInputElement>('input[name="percent"]')!;
  const kindOf = (): AlertKind => (form.querySelector<HTMLInputElement>('input[name="kind"]:checked')?.value ?? "target") as AlertKind;
  /** Shows the field of the chosen kind only (target price, or drop percent). */
  const showKindFields = () => {
    const kind = kindOf();
    for (const field of form.querySelectorAll<HTMLElement>("[data-kind-field]")) field.hidden = field.dataset.kindField !== kind;
    reached.hidden = true;
  };
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const submitLabel = submit.querySelector("[data-submit-label]")!;
  const pending = root.querySelector<HTMLElement>('[data-testid="alert-pending"]')!;
  const created = root.querySelector<HTMLElement>('[data-testid="alert-created"]')!;
  const productId = Number(root.dataset.productId);
  const productName = root.dataset.productName ?? "";
  const defaultTarget = root.dataset.defaultTarget ?? "";
  const currentPrice = root.dataset.currentPrice ? Number(root.dataset.currentPrice) : null;
  const lowestBeforeToday = root.dataset.lowestBeforeToday ? Number(root.dataset.lowestBeforeToday) : null;
  const reached = root.querySelector<HTMLElement>('[data-testid="alert-already-reached"]')!;

  /** Says the price meets the alert already and offers the best offer's link (a copy of Buy Now: same tracking). */
  const showReached = (message: string) => {
    reached.querySelector("[data-reached-message]")!.textContent = message;
    const deal = reached.querySelector<HTMLElement>("[data-reached-deal]")!;
    const source = bestOfferLink();
    deal.hidden = source === null;
    if (source) {
      const link = deal.querySelector("a")!;
      for (const name of ["href", "rel", "target", "data-affiliate", "data-retailer", "data-price"]) {
        const value = source.getAttribute(name);
        if (value === null) link.removeAttribute(name);
        else link.setAttribute(name, value);
      }
      const retailer = source.dataset.retailer;
      link.querySelector("[data-reached-deal-label]")!.textContent = retailer ? `Buy Now at ${retailer}` : "Buy Now";
    }
    reached.hidden = false;
  };

  const setSubmitting = (submitting: boolean) => {
    submit.disabled = submitting;
    submitLabel.textContent = submitting ? "Creating alert..." : "Create Price Alert";
  };

  const showPanel = (panel: HTMLElement | null, message = "") => {
    for (const candidate of [pending, created]) candidate.hidden = candidate !== panel;
    form.hidden = panel !== null;
    if (panel) panel.querySelector("[data-alert-message]")!.textContent = message;
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (submit.disabled) return;
    const kind = kindOf();
    // An alert met at once would only mail at once: say so before asking for anything else.
    const met = metMessageOf({ kind, target: target.value, percent: percent.value }, currentPrice, lowestBeforeToday);
    if (met !== null) {
      showError(email, undefined);
      showError(target, undefined);
      showError(percent, undefined);
      showReached(met);
      return;
    }
    reached.hidden = true;
    const { errors, request } = validateAlertOf({ kind, email: email.value, target: target.value, percent: percent.value });
    showError(email, errors.email);
    showError(target, errors.target);
    showError(percent, errors.percent);
    if (request === null) return;
    setSubmitting(true);
    api
      .post<CreatedAlert>("/api/price-alerts", { userId: getVisitorId(), productId, email: email.value.trim(), ...request })
      .then((alert) => {
        announceVisitorCountsChanged();
        if (alert.state === "active") {
          const description =
            request.kind === "target" ? `We'll notify you when ${productName} drops to your target price.` : `We'll notify you by e-mail about ${productName}.`;
          toast({ title: "Price alert created", description });
          showPanel(created, createdMessageOf(email.value, request, currentPrice));
        } else {
          toast({ title: "Check your inbox", description: "Confirm your e-mail address to switch the price alert on." });
          showPanel(pending, pendingMessage(email.value, alert.confirmationSent));
        }
      })
      .catch((error: unknown) => {
        const message = error instanceof ApiError ? (error.error ?? error.message) : error instanceof Error ? error.message : "Unknown error";
        toast({ title: "Failed to create price alert", description: `Error: ${message || "Unknown error"}`, variant: "destructive" });
      })
      .finally(() => setSubmitting(false));
  });

  target.addEventListener("input", () => (reached.hidden = true));
  for (const radio of form.querySelectorAll<HTMLInputElement>('input[name="kind"]')) radio.addEventListener("change", showKindFields);

  for (const another of root.querySelectorAll<HTMLButtonElement>("[data-alert-another]")) {
    another.addEventListener("click", () => {
      target.value = defaultTarget;
      showPanel(null);
      showKindFields();
      // The button just pressed is hidden now: carry on from the form's first field.
      email.focus();
    });
  }
  showKindFields();
  setSubmitting(false);
}

/** Wires every alert form the page rendered (data-price-alert), once each. */
export function enhancePriceAlertForms(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>("[data-price-alert]:not([data-enhanced])")) {
    element.dataset.enhanced = "";
    enhance(element);
  }
}
