import { BellIcon, CircleCheckIcon } from "../../components/ui/icons.tsx";
import { useState } from "react";
import { ApiError, api } from "../../lib/api.ts";
import { getVisitorId } from "../../lib/browser/visitor.ts";
import { toast } from "../toast/toast.store.ts";

interface Props {
  productId: number;
  productName: string;
  /** The current best price in pounds; the default target (SPEC.md section 5). */
  bestPrice: number | null;
}

/** What the API answers for a created alert: whether it waits for the address to be confirmed. */
interface CreatedAlert {
  state: "pending_confirmation" | "active";
  confirmationSent: boolean;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Parses the target field: a number above 0 with at most two decimals, else null. */
function parseTarget(text: string): number | null {
  const trimmed = text.trim().replace(/^£/, "");
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value > 0 ? value : null;
}

const inputClass = "mt-1 w-full rounded-lg border px-3 py-2 text-sm focus:border-brand-600 focus:outline-none focus-visible:outline-2";

interface FieldInputProps {
  id: string;
  className: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/** A labelled input with its validation message, wired for screen readers. */
function Field(props: { id: string; label: string; error: string | undefined; children: (input: FieldInputProps) => React.ReactNode }) {
  const errorId = `${props.id}-error`;
  return (
    <div>
      <label htmlFor={props.id} className="text-sm font-medium text-slate-800">
        {props.label}
      </label>
      {props.children({
        id: props.id,
        className: `${inputClass} ${props.error ? "border-red-600" : "border-slate-300"}`,
        "aria-invalid": props.error ? true : undefined,
        "aria-describedby": props.error ? errorId : undefined,
      })}
      {props.error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** The product page's price-drop alert form (SPEC.md sections 2, 4, 5 and 8). */
export default function PriceAlertForm({ productId, productName, bestPrice }: Props) {
  const defaultTarget = bestPrice === null ? "" : bestPrice.toFixed(2);
  const [email, setEmail] = useState("");
  const [target, setTarget] = useState(defaultTarget);
  const [errors, setErrors] = useState<{ email?: string; target?: string }>({});
  const [submitting, setSubmitting] = useState(false);
  const [created, setCreated] = useState<CreatedAlert | null>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const targetPrice = parseTarget(target);
    const problems = {
      email: emailPattern.test(email.trim()) ? undefined : "Please enter a valid email address",
      target: targetPrice === null ? "Please enter a valid price" : undefined,
    };
    setErrors(problems);
    if (problems.email || problems.target || targetPrice === null) return;
    setSubmitting(true);
    try {
      const alert = await api.post<CreatedAlert>("/api/price-alerts", { userId: getVisitorId(), productId, email: email.trim(), targetPrice });
      if (alert.state === "active") {
        toast({ title: "Price alert created", description: `We'll notify you when ${productName} drops to your target price.` });
      } else {
        toast({ title: "Check your inbox", description: "Confirm your e-mail address to switch the price alert on." });
      }
      setCreated(alert);
    } catch (error) {
      const message = error instanceof ApiError ? (error.error ?? error.message) : error instanceof Error ? error.message : "Unknown error";
      toast({ title: "Failed to create price alert", description: `Error: ${message || "Unknown error"}`, variant: "destructive" });
    } finally {
      setSubmitting(false);
    }
  };

  const another = () => {
    setCreated(null);
    setTarget(defaultTarget);
  };

  if (created?.state === "pending_confirmation") {
    return (
      <div className="rounded-lg bg-amber-50 p-4 text-center" role="status" data-testid="alert-pending">
        <BellIcon className="mx-auto size-8 text-amber-800" aria-hidden="true" />
        <p className="mt-2 font-semibold text-amber-950">Check your inbox</p>
        <p className="mt-1 text-sm text-amber-950">
          {created.confirmationSent
            ? `We've sent a link to ${email.trim()} to confirm your price alert.`
            : `We've already sent a confirmation link to ${email.trim()}: please use the link in that e-mail.`}{" "}
          We won't e-mail you about prices until you confirm.
        </p>
        <button type="button" className="btn-outline mt-4" onClick={another}>
          Create Another Alert
        </button>
      </div>
    );
  }

  if (created) {
    return (
      <div className="rounded-lg bg-emerald-50 p-4 text-center" role="status" data-testid="alert-created">
        <CircleCheckIcon className="mx-auto size-8 text-emerald-700" aria-hidden="true" />
        <p className="mt-2 font-semibold text-emerald-900">Price Alert Created!</p>
        <p className="mt-1 text-sm text-emerald-900">We'll e-mail {email.trim()} when the price drops to £{parseTarget(target)?.toFixed(2)} or less.</p>
        <button
          type="button"
          className="btn-outline mt-4"
          onClick={another}
        >
          Create Another Alert
        </button>
      </div>
    );
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-3" data-testid="price-alert-form">
      <Field id="alert-email" label="Email address" error={errors.email}>
        {(props) => (
          <input {...props} type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} placeholder="you@example.co.uk" />
        )}
      </Field>
      <Field id="alert-target" label="Target price (£)" error={errors.target}>
        {(props) => <input {...props} inputMode="decimal" value={target} onChange={(event) => setTarget(event.target.value)} />}
      </Field>
      <button type="submit" disabled={submitting} className="btn-primary w-full py-2.5">
        <BellIcon className="size-4" aria-hidden="true" />
        {submitting ? "Creating alert..." : "Create Price Alert"}
      </button>
      <p className="text-xs text-slate-600">
        We'll first send a link to confirm your address. Then one e-mail when the price drops to your target, with a one-click unsubscribe. See our{" "}
        <a href="/privacy-policy" className="underline">
          privacy policy
        </a>
        .
      </p>
    </form>
  );
}
