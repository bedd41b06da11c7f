/**
 * The admin area: one React app on /admin that routes on location.pathname. Every screen but
 * the login asks the server for the session first; without one it goes to /admin/login. The
 * page mounts the site's Toaster beside it, which shows the toasts the screens raise.
 */
import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { hasSession } from "./admin-api.ts";
import { AdminShell } from "./AdminShell.tsx";
import { adminPaths, matchAdminRoute, type AdminRoute } from "./routes.ts";
import { $location, navigate, startRouter } from "./router.ts";
import { $session, signedIn, signedOut } from "./session.store.ts";
import { Loading, PageHeader, AdminLink } from "./ui.tsx";
import Login from "./screens/Login.tsx";
import Dashboard from "./screens/Dashboard.tsx";
import ProductsList from "./screens/ProductsList.tsx";
import ProductForm from "./screens/ProductForm.tsx";
import CategoriesList from "./screens/CategoriesList.tsx";
import CategoryForm from "./screens/CategoryForm.tsx";
import RetailersList from "./screens/RetailersList.tsx";
import RetailerForm from "./screens/RetailerForm.tsx";
import VouchersList from "./screens/VouchersList.tsx";
import VoucherForm from "./screens/VoucherForm.tsx";
import AffiliateLinks from "./screens/AffiliateLinks.tsx";
import EmailSubscribers from "./screens/EmailSubscribers.tsx";
import Analytics from "./screens/Analytics.tsx";
import AmazonImport from "./screens/AmazonImport.tsx";
import PriceReview from "./screens/PriceReview.tsx";
import FeedsList from "./screens/FeedsList.tsx";
import FeedForm from "./screens/FeedForm.tsx";
import MachineTokens from "./screens/MachineTokens.tsx";
import PrivacyRequests from "./screens/PrivacyRequests.tsx";

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

function Screen({ route }: { route: AdminRoute }) {
  switch (route.screen) {
    case "dashboard":
      return <Dashboard />;
    case "products":
      return <ProductsList />;
    case "product-form":
      return <ProductForm key={route.id ?? "new"} id={route.id} />;
    case "categories":
      return <CategoriesList />;
    case "category-form":
      return <CategoryForm key={route.id ?? "new"} id={route.id} />;
    case "retailers":
      return <RetailersList />;
    case "retailer-form":
      return <RetailerForm key={route.id ?? "new"} id={route.id} />;
    case "vouchers":
      return <VouchersList />;
    case "voucher-form":
      return <VoucherForm key={route.id ?? "new"} id={route.id} />;
    case "affiliate-links":
      return <AffiliateLinks />;
    case "email-subscribers":
      return <EmailSubscribers />;
    case "analytics":
      return <Analytics />;
    case "amazon-import":
      return <AmazonImport />;
    case "price-review":
      return <PriceReview />;
    case "feeds":
      return <FeedsList />;
    case "feed-form":
      return <FeedForm key={route.id ?? "new"} id={route.id} />;
    case "machine-tokens":
      return <MachineTokens />;
    case "privacy-requests":
      return <PrivacyRequests />;
    case "login":
    case "not-found":
      return <NotFound />;
  }
}

export default function AdminApp() {
  const location = useStore($location);
  const session = useStore($session);
  const route = matchAdminRoute(location.pathname);
  const onLogin = route.screen === "login";

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
  if (onLogin) content = <Login />;
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
