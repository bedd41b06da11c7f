/**
 * The admin screens, one entry each: its addresses, its link in the section navigation (or
 * none), the nav link it lights and its component. The app's routing, the navigation and the
 * links to a screen all read this list. Each screen names the browser tab itself (its
 * PageHeader), since a form's title carries the item's name.
 *
 * A new list-and-form screen is three client files: an entry for the list and one for the form
 * here, the list screen (ResourceList) and the form screen, each declaring its API calls with
 * admin-api.ts's `resource` and its links with `screenHref`. (Before this list it was six:
 * routes.ts, AdminShell.tsx, AdminApp.tsx, admin-api.ts and the two screens.)
 *
 * The screens are bundled with the app, not loaded on first use: loading them apart made the public
 * pages load one or two more script files (modules they share with the admin were split up).
 * This list imports the screens and they import their links from it (through routes.ts), so a
 * screen reads an address only while it renders, never while its module loads.
 */
import { loginPath } from "./router.ts";
import type { ComponentType } from "react";
import {
  BadgePoundSterling,
  ChartColumn,
  FolderTree,
  Import,
  KeyRound,
  LayoutDashboard,
  Link2,
  Mails,
  Package,
  Rss,
  ShieldUser,
  Store,
  TicketPercent,
  type House,
} from "./icons.tsx";
import Login from "./screens/Login.tsx";
import Dashboard from "./screens/Dashboard.tsx";
import ProductsList from "./screens/ProductsList.tsx";
import ProductForm from "./screens/ProductForm.tsx";
import PriceReview from "./screens/PriceReview.tsx";
import CategoriesList from "./screens/CategoriesList.tsx";
import CategoryForm from "./screens/CategoryForm.tsx";
import RetailersList from "./screens/RetailersList.tsx";
import RetailerForm from "./screens/RetailerForm.tsx";
import VouchersList from "./screens/VouchersList.tsx";
import VoucherForm from "./screens/VoucherForm.tsx";
import AffiliateLinks from "./screens/AffiliateLinks.tsx";
import EmailSubscribers from "./screens/EmailSubscribers.tsx";
import PrivacyRequests from "./screens/PrivacyRequests.tsx";
import Analytics from "./screens/Analytics.tsx";
import AmazonImport from "./screens/AmazonImport.tsx";
import FeedsList from "./screens/FeedsList.tsx";
import FeedForm from "./screens/FeedForm.tsx";
import MachineTokens from "./screens/MachineTokens.tsx";

/** What every screen is given: a form's id (null for a new item); other screens ignore it. */
export interface ScreenProps {
  id: number | null;
}

export interface ScreenEntry<Name extends string = string> {
  screen: Name;
  /**
   * Its addresses, each a path of literal segments and at most one ":id" (a whole number from 1).
   * Its link is the first without ":id"; an edit link is the first with one.
   */
  paths: readonly string[];
  /** Its link in the section navigation, which lists the links in this list's order. Left out: no link. */
  nav?: { label: string; icon: typeof House };
  /** The screen whose navigation link is lit while this one shows (a form lights its list's); left out: its own. */
  group?: NoInfer<Name>;
  /** Shown to a signed-out visitor, without the admin frame (the login screen). */
  signedOut?: true;
  /** The screen; it is given the route's id (a form's item, null for a new one). */
  component: ComponentType<ScreenProps>;
}

/** The list, typed so that each screen's name is known and a `group` must name a screen in it. */
function screens<const Name extends string>(entries: ScreenEntry<Name>[]): ScreenEntry<Name>[] {
  return entries;
}


export const registry = screens([
  { screen: "login", paths: [loginPath], signedOut: true, component: Login },
  { screen: "dashboard", paths: ["/admin"], nav: { label: "Dashboard", icon: LayoutDashboard }, component: Dashboard },
  { screen: "products", paths: ["/admin/products"], nav: { label: "Products", icon: Package }, component: ProductsList },
  { screen: "product-form", paths: ["/admin/products/new", "/admin/products/add", "/admin/products/edit/:id", "/admin/products/:id"], group: "products", component: ProductForm },
  { screen: "price-review", paths: ["/admin/price-review"], nav: { label: "Price Review", icon: BadgePoundSterling }, component: PriceReview },
  { screen: "categories", paths: ["/admin/categories"], nav: { label: "Categories", icon: FolderTree }, component: CategoriesList },
  { screen: "category-form", paths: ["/admin/categories/new", "/admin/categories/edit/:id"], group: "categories", component: CategoryForm },
  { screen: "retailers", paths: ["/admin/retailers"], nav: { label: "Retailers", icon: Store }, component: RetailersList },
  { screen: "retailer-form", paths: ["/admin/retailers/new", "/admin/retailers/edit/:id"], group: "retailers", component: RetailerForm },
  { screen: "vouchers", paths: ["/admin/vouchers"], nav: { label: "Vouchers", icon: TicketPercent }, component: VouchersList },
  { screen: "voucher-form", paths: ["/admin/vouchers/new", "/admin/vouchers/edit/:id"], group: "vouchers", component: VoucherForm },
  { screen: "affiliate-links", paths: ["/admin/affiliate-links"], nav: { label: "Affiliate IDs", icon: Link2 }, component: AffiliateLinks },
  { screen: "email-subscribers", paths: ["/admin/email-subscribers"], nav: { label: "Subscribers", icon: Mails }, component: EmailSubscribers },
  { screen: "privacy-requests", paths: ["/admin/privacy-requests"], nav: { label: "Privacy requests", icon: ShieldUser }, component: PrivacyRequests },
  { screen: "analytics", paths: ["/admin/analytics"], nav: { label: "Analytics", icon: ChartColumn }, component: Analytics },
  { screen: "amazon-import", paths: ["/admin/amazon-import"], nav: { label: "Import", icon: Import }, component: AmazonImport },
  { screen: "feeds", paths: ["/admin/feeds"], nav: { label: "Feeds", icon: Rss }, component: FeedsList },
  { screen: "feed-form", paths: ["/admin/feeds/new", "/admin/feeds/edit/:id"], group: "feeds", component: FeedForm },
  { screen: "machine-tokens", paths: ["/admin/machine-tokens"], nav: { label: "Machine tokens", icon: KeyRound }, component: MachineTokens },
]);

export type ScreenName = (typeof registry)[number]["screen"];

/** The screen an address shows; `id` only on screens that take one (null: a new item). */
export type AdminRoute = { screen: ScreenName; id?: number | null } | { screen: "not-found" };

/** A screen's entry; undefined for the not-found screen. */
export function screenEntry(route: AdminRoute): ScreenEntry<ScreenName> | undefined {
  return registry.find((entry) => entry.screen === route.screen);
}

/** A positive whole-number id from a path segment, else null. */
function parseId(segment: string): number | null {
  return /^[1-9]\d{0,15}$/.test(segment) ? Number(segment) : null;
}

const splitPath = (path: string) => path.split("/").filter(Boolean);

/** Whether an address's segments fit a path pattern: undefined if not, else the id they carry (null: none). */
function fit(pattern: readonly string[], segments: readonly string[]): number | null | undefined {
  if (pattern.length !== segments.length) return undefined;
  let id: number | null = null;
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index]!;
    if (part === ":id") {
      id = parseId(segment);
      if (id === null) return undefined;
    } else if (part !== segment) return undefined;
  }
  return id;
}

const takesId = (entry: ScreenEntry) => entry.paths.some((path) => path.includes(":id"));

/**
 * The screen for a path. Trailing slashes and a trailing index.html are ignored; a screen that
 * takes an id has `id` (null on its "new" address).
 * @example matchAdminRoute("/admin/products/edit/12") // { screen: "product-form", id: 12 }
 * @example matchAdminRoute("/admin/products/add") // { screen: "product-form", id: null }
 * @example matchAdminRoute("/admin/nope") // { screen: "not-found" }
 */
export function matchAdminRoute(pathname: string): AdminRoute {
  const segments = splitPath(pathname.replace(/\/index\.html$/, ""));
  for (const entry of registry) {
    for (const path of entry.paths) {
      const id = fit(splitPath(path), segments);
      if (id === undefined) continue;
      return takesId(entry) ? { screen: entry.screen, id } : { screen: entry.screen };
    }
  }
  return { screen: "not-found" };
}

/**
 * A screen's address: with an id, its first address with ":id" (the edit link); without, its
 * first address with none.
 * @example screenHref("category-form", 5) // "/admin/categories/edit/5"
 * @example screenHref("category-form") // "/admin/categories/new"
 */
export function screenHref(screen: ScreenName, id?: number): string {
  const entry = registry.find((candidate) => candidate.screen === screen)!;
  const path = entry.paths.find((candidate) => candidate.includes(":id") === (id !== undefined));
  if (path === undefined) throw new Error(`The ${screen} screen has no address ${id === undefined ? "without" : "with"} an id`);
  return id === undefined ? path : path.replace(":id", String(id));
}

/** The section navigation, in the list's order: each link with the screens that light it. */
export const navSections = registry.flatMap((entry) =>
  entry.nav
    ? [{ href: screenHref(entry.screen), label: entry.nav.label, icon: entry.nav.icon, screens: registry.filter((other) => (other.group ?? other.screen) === entry.screen).map((other) => other.screen) }]
    : [],
);
