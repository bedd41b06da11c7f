/**
 * /admin/login: one password field. The server checks it and sets the session cookie; a wrong
 * password, too many attempts or an empty field each say so.
 */
import { LockKeyhole } from "../icons.tsx";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { homePath } from "../../../../data/domain/paths.ts";
import { ApiError } from "../../../lib/api.ts";
import { toast } from "../../toast/toast.store.ts";
import { login } from "../admin-api.ts";
import { adminPaths } from "../routes.ts";
import { navigate } from "../router.ts";
import { signedIn } from "../session.store.ts";
import { Field, inputClass } from "../ui.tsx";

export default function Login() {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = "Admin Login | PawPrice";
    input.current?.focus();
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password === "") {
      setError("Password is required");
      input.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await login(password);
      signedIn();
      toast({ title: "Login successful" });
      navigate(adminPaths.dashboard);
    } catch (failure) {
      setBusy(false);
      const status = failure instanceof ApiError ? failure.status : 0;
      const message =
        status === 401
          ? "Invalid password"
          : failure instanceof ApiError && failure.error
            ? failure.error
            : "Login failed. Please try again.";
      toast({ title: message, variant: "destructive" });
      if (status === 400 || status === 401) setPassword("");
      input.current?.focus();
    }
  }

  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="card p-6 sm:p-8">
          <div className="mb-6 flex flex-col items-center text-center">
            <span className="mb-3 grid size-12 place-items-center rounded-full bg-brand-50 text-brand-700" aria-hidden="true">
              <LockKeyhole className="size-6" />
            </span>
            <h1 className="text-2xl font-bold text-slate-900">Admin Login</h1>
            <p className="mt-1 text-sm text-slate-600">Enter the admin password to manage PawPrice.</p>
          </div>
          <form onSubmit={submit} noValidate className="grid gap-4">
            <Field label="Password" error={error}>
              {({ id, describedBy, invalid }) => (
                <input
                  ref={input}
                  id={id}
                  type="password"
                  name="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  aria-required="true"
                  className={inputClass}
                />
              )}
            </Field>
            <button type="submit" className="btn-primary w-full py-2.5" disabled={busy}>
              {busy ? "Logging in..." : "Login"}
            </button>
          </form>
        </div>
        <p className="mt-4 text-center text-sm">
          <a href={homePath} className="text-slate-600 hover:text-slate-900 hover:underline">
            Back to the site
          </a>
        </p>
      </div>
    </main>
  );
}
