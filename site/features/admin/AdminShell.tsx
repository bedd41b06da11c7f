/**
 * The frame around every signed-in admin screen: the top bar (site name, View site, Logout) and
 * the section navigation (a sidebar on wide screens, a scrolling row on phones), whose links are
 * the screens' entries in screens.ts.
 */
import { ArrowUpRight, LogOut } from "./icons.tsx";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { homePath } from "../../../data/domain/paths.ts";
import { cn } from "../../lib/cn.ts";
import { toast } from "../toast/toast.store.ts";
import { logout } from "./admin-api.ts";
import { adminPaths } from "./routes.ts";
import { navSections, type AdminRoute } from "./screens.ts";
import { signedOut } from "./session.store.ts";
import { AdminLink } from "./ui.tsx";

function LogoutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn-outline px-3"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await logout();
          signedOut();
        } catch {
          setBusy(false);
          toast({ title: "Logout failed", description: "Please try again.", variant: "destructive" });
        }
      }}
    >
      <LogOut className="size-4" aria-hidden="true" />
      Logout
    </button>
  );
}

export function AdminShell({ route, children }: { route: AdminRoute; children: ReactNode }) {
  const list = useRef<HTMLUListElement>(null);
  // On phones the sections are a sideways-scrolling row: bring the current one into view.
  useEffect(() => {
    const row = list.current;
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !current || row.scrollWidth <= row.clientWidth) return;
    const offset = current.getBoundingClientRect().left - row.getBoundingClientRect().left + row.scrollLeft;
    row.scrollLeft = offset - (row.clientWidth - current.offsetWidth) / 2;
  }, [route.screen]);
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
          <AdminLink href={adminPaths.dashboard} className="flex min-w-0 items-center gap-2 font-bold text-slate-900">
            <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-brand-700 text-sm text-white" aria-hidden="true">
              P
            </span>
            <span className="truncate">
              PawPrice <span className="font-medium text-slate-500">Admin</span>
            </span>
          </AdminLink>
          <div className="flex items-center gap-2">
            <a href={homePath} className="btn-ghost hidden px-3 sm:inline-flex">
              <ArrowUpRight className="size-4" aria-hidden="true" />
              View site
            </a>
            <LogoutButton />
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-4 sm:px-6 lg:flex-row lg:py-8">
        <nav aria-label="Admin sections" data-admin-nav className="lg:w-48 lg:shrink-0">
          <ul ref={list} className="-mx-4 flex gap-1 overflow-x-auto px-4 pb-1 lg:sticky lg:top-22 lg:mx-0 lg:flex-col lg:overflow-visible lg:px-0">
            {navSections.map(({ href, label, icon: Icon, screens }) => {
              const active = screens.some((screen) => screen === route.screen);
              return (
                <li key={href} className="shrink-0">
                  <AdminLink
                    href={href}
                    aria-current={active ? "page" : undefined}
                    className={cn(
                      "flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors",
                      active ? "bg-brand-50 text-brand-800 ring-1 ring-brand-200" : "text-slate-700 hover:bg-white hover:text-slate-900",
                    )}
                  >
                    <Icon className="size-4 shrink-0" aria-hidden="true" />
                    {label}
                  </AdminLink>
                </li>
              );
            })}
          </ul>
        </nav>
        <main id="main" className="min-w-0 flex-1 pb-16">
          {children}
        </main>
      </div>
    </div>
  );
}
