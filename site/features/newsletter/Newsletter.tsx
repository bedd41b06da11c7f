import { Mail } from "lucide-react";
import { useRef, useState } from "react";
import { api, ApiError } from "../../lib/api.ts";
import { useIsClient } from "../../lib/browser/use-is-client.ts";
import { toast } from "../toast/toast.store.ts";
import { maxEmailLength } from "../../../data/domain/limits.ts";

/**
 * The API names the field it rejects ("email: Please enter a valid email address", useful to API
 * clients); the visitor sees only the sentence.
 */
function withoutFieldName(message: string): string {
  return message.replace(/^email: /, "");
}

/**
 * The newsletter block (stored as a subscriber, confirmed by e-mail before any newsletter is sent). The
 * island hydrates when it comes into view; until then Subscribe is disabled, so pressing it (or
 * Enter in the field) cannot send the static form and reload the page. The field is left to the
 * browser (read on submit, not held in state), so an address typed before hydration stays.
 */
export default function Newsletter() {
  const field = useRef<HTMLInputElement>(null);
  const hydrated = useIsClient();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const address = (field.current?.value ?? "").trim();
    if (!address) {
      toast({ title: "Email required", description: "Please enter your email address.", variant: "destructive" });
      return;
    }
    setSubmitting(true);
    try {
      const result = await api.post<{ status: "pending_confirmation" | "active"; confirmationSent: boolean }>("/api/subscribers", { email: address, source: "website" });
      if (field.current) field.current.value = "";
      if (result.status === "active") {
        toast({ description: "You're already subscribed to our pet deals newsletter." });
      } else if (result.confirmationSent) {
        toast({ title: "Check your inbox", description: `Check your inbox to confirm your subscription: we've sent a link to ${address}. No newsletter until you confirm.` });
      } else {
        toast({ title: "Check your inbox", description: `We've already sent a confirmation link to ${address}. Please use the link in that e-mail to confirm your subscription.` });
      }
    } catch (error) {
      const message = error instanceof ApiError && error.error ? withoutFieldName(error.error) : "Something went wrong. Please try again.";
      toast({ title: "Subscription failed", description: message, variant: "destructive" });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <section aria-labelledby="newsletter-title" className="rounded-2xl bg-brand-800 px-6 py-10 text-white sm:px-10" data-testid="newsletter">
      <div className="mx-auto max-w-2xl text-center">
        <Mail className="mx-auto size-8 text-brand-200" aria-hidden="true" />
        <h2 id="newsletter-title" className="mt-3 text-2xl font-bold">
          Get the best pet deals in your inbox
        </h2>
        <p className="mt-2 text-brand-100">
          One e-mail a week with the biggest price drops and new voucher codes. We'll send a link to confirm your address first. Unsubscribe with one
          click.
        </p>
        <form onSubmit={(event) => void submit(event)} className="mt-6 flex flex-col gap-2 sm:flex-row" noValidate>
          <label htmlFor="newsletter-email" className="sr-only">
            Email address
          </label>
          {/* A white field of its own: without a background it is see-through, dark text on the dark teal block. */}
          <input
            id="newsletter-email"
            type="email"
            autoComplete="email"
            placeholder="you@example.co.uk"
            ref={field}
            maxLength={maxEmailLength}
            className="min-w-0 flex-1 rounded-lg border border-white bg-white px-4 py-3 text-slate-900 placeholder:text-slate-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          />
          <button type="submit" disabled={!hydrated || submitting} className="btn-deal px-6 py-3">
            {submitting ? "Subscribing..." : "Subscribe"}
          </button>
        </form>
        <p className="mt-3 text-xs text-brand-100">
          We'll only use your address for deal e-mails. See our{" "}
          <a href="/privacy-policy" className="underline">
            privacy policy
          </a>
          .
        </p>
      </div>
    </section>
  );
}
