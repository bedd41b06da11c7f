/**
 * The price-drop alert form in plain script: validates both fields on submit (messages tied to
 * their inputs with aria-invalid and aria-describedby), sends the alert, raises the toast, and
 * shows the "check your inbox" or "created" panel until "Create Another Alert" brings the form
 * back with the default target.
 */
import { ApiError, api } from "../../lib/api.ts";
import { getVisitorId } from "../../lib/browser/visitor.ts";
import { toast } from "../toast/toast.store.ts";
import { createdMessage, pendingMessage, validateAlert, type CreatedAlert } from "./price-alert.ts";

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
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const submitLabel = submit.querySelector("[data-submit-label]")!;
  const pending = root.querySelector<HTMLElement>('[data-testid="alert-pending"]')!;
  const created = root.querySelector<HTMLElement>('[data-testid="alert-created"]')!;
  const productId = Number(root.dataset.productId);
  const productName = root.dataset.productName ?? "";
  const defaultTarget = root.dataset.defaultTarget ?? "";

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
    const { errors, targetPrice } = validateAlert(email.value, target.value);
    showError(email, errors.email);
    showError(target, errors.target);
    if (targetPrice === null) return;
    setSubmitting(true);
    api
      .post<CreatedAlert>("/api/price-alerts", { userId: getVisitorId(), productId, email: email.value.trim(), targetPrice })
      .then((alert) => {
        if (alert.state === "active") {
          toast({ title: "Price alert created", description: `We'll notify you when ${productName} drops to your target price.` });
          showPanel(created, createdMessage(email.value, targetPrice));
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

  for (const another of root.querySelectorAll<HTMLButtonElement>("[data-alert-another]")) {
    another.addEventListener("click", () => {
      target.value = defaultTarget;
      showPanel(null);
      // The button just pressed is hidden now: carry on from the form's first field.
      email.focus();
    });
  }
  setSubmitting(false);
}

/** Wires every alert form the page rendered (data-price-alert), once each. */
export function enhancePriceAlertForms(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>("[data-price-alert]:not([data-enhanced])")) {
    element.dataset.enhanced = "";
    enhance(element);
  }
}
