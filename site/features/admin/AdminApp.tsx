/**
 * The admin area: one React app on /admin that routes on location.pathname. Every screen but
 * the login asks the server for the session first; without one it goes to /admin/login. The
 * page mounts the site's Toaster beside it, which shows the toasts the screens raise.
 */
import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { hasSession } from "./admin-api.ts";
import { AdminShell } from "./AdminShell.tsx";
import { adminPaths } from "./routes.ts";
import { $location, navigate, startRouter } from "./router.ts";
import { matchAdminRoute, screenEntry, type AdminRoute } from "./screens.ts";
import { $session, signedIn, signedOut } from "./session.store.ts";
import { AdminLink, Loading, PageHeader } from "./ui.tsx";

function NotFound() {
  return (
    <div>
      <PageHeader title="Page not found" description="There is no admin page at this address." />
      <AdminLink href={adminPaths.dashboard} className="btn-primary">
        Dashboard
      </AdminLink>
    </div>
  );
}

/** The screen for a route, from its entry in screens.ts; a form is made afresh for each item. */
function Screen({ route }: { route: AdminRoute }) {
  const entry = screenEntry(route);
  if (entry === undefined) return <NotFound />;
  const id = "id" in route ? (route.id ?? null) : null;
  const Shown = entry.component;
  return <Shown key={id ?? "new"} id={id} />;
}

export default function AdminApp() {
  const location = useStore($location);
  const session = useStore($session);
  const route = matchAdminRoute(location.pathname);
  const entry = screenEntry(route);
  const onLogin = entry?.signedOut === true;

  useEffect(startRouter, []);

  // Ask the server once per page load; after that, logins, logouts and 401s keep $session true.
  useEffect(() => {
    if (onLogin || session !== "checking") return;
    let current = true;
    hasSession().then(
      (ok) => {
        if (!current) return;
        if (ok) signedIn();
        else signedOut();
      },
      () => current && signedOut(),
    );
    return () => {
      current = false;
    };
  }, [onLogin, session]);

  // A signed-out visitor on a guarded path goes to the login screen.
  useEffect(() => {
    if (!onLogin && session === "signed-out") navigate(adminPaths.login, { replace: true });
  }, [onLogin, session]);

  let content;
  if (onLogin) content = <Screen route={route} />;
  else if (session !== "signed-in")
    content = (
      <div className="mx-auto max-w-md px-4 py-16">
        <Loading label="Checking your session..." />
      </div>
    );
  else
    content = (
      <AdminShell route={route}>
        <Screen route={route} />
      </AdminShell>
    );

  return content;
}
