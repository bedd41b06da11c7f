/**
 * Whether this browser is signed in to the admin area, as far as the app knows. The server is
 * the real guard (every admin call answers 401 without the session cookie); this only decides
 * what to show and where to send the visitor.
 */
import { atom } from "nanostores";
import { loginPath, navigate } from "./router.ts";
import { toast } from "../toast/toast.store.ts";

export type SessionState = "checking" | "signed-in" | "signed-out";

export const $session = atom<SessionState>("checking");

export function signedIn(): void {
  $session.set("signed-in");
}

/** After logout: straight to the login screen. */
export function signedOut(): void {
  $session.set("signed-out");
  navigate(loginPath, { replace: true });
}

/** An admin call answered 401 (the session ended or was never there): to the login screen. */
export function sessionExpired(): void {
  const wasSignedIn = $session.get() === "signed-in";
  signedOut();
  if (wasSignedIn) toast({ title: "Session ended", description: "Please log in again.", variant: "destructive" });
}
