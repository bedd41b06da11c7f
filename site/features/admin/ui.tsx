/**
 * The admin screens' building blocks: links that navigate inside the app, page headings,
 * labelled form fields, loading and error states, tables and the rating stars.
 */
import { Ellipsis, StarIcon } from "./icons.tsx";
import { useCallback, useEffect, useId, useRef, useState, type ComponentProps, type ReactNode } from "react";
import { maxStars, shownRating } from "../../../data/domain/display.ts";
import { cn } from "../../lib/cn.ts";
import { isAppNavigation, navigate } from "./router.ts";

/** A link; admin paths open inside the app (pushState), everything else as usual. */
export function AdminLink({ href, onClick, ...props }: ComponentProps<"a"> & { href: string }) {
  return (
    <a
      href={href}
      onClick={(event) => {
        onClick?.(event);
        if (!isAppNavigation(event, href)) return;
        event.preventDefault();
        navigate(href);
      }}
      {...props}
    />
  );
}

/**
 * The screen's heading. It names the browser tab, and after an in-app navigation it takes the
 * focus, so a screen reader announces the new screen and Tab starts from the top of it.
 */
export function PageHeader(props: { title: string; description?: ReactNode; actions?: ReactNode; back?: { href: string; label: string } }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} | Admin`;
  }, [props.title]);
  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement?.closest("[data-admin-nav]")) heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        {props.back && (
          <AdminLink href={props.back.href} className="mb-2 inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
            <span aria-hidden="true">←</span> {props.back.label}
          </AdminLink>
        )}
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold tracking-tight break-words text-slate-900 outline-none sm:text-3xl">
          {props.title}
        </h1>
        {props.description && <p className="mt-1 text-sm text-slate-600">{props.description}</p>}
      </div>
      {props.actions && <div className="flex flex-wrap gap-2">{props.actions}</div>}
    </div>
  );
}

export const inputClass =
  "w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs placeholder:text-slate-400 focus:border-brand-600 focus:outline-2 focus:outline-brand-600 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-600";

/** A labelled control; the render function receives the id and the describedby ids to put on it. */
export function Field(props: {
  label: string;
  /** A fixed id for the control (to focus it from elsewhere); generated otherwise. */
  id?: string;
  required?: boolean;
  hint?: ReactNode;
  error?: string | null;
  className?: string;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}) {
  const generatedId = useId();
  const id = props.id ?? generatedId;
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("min-w-0", props.className)}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {props.label}
        {props.required && (
          <span className="text-red-700" aria-hidden="true">
            {" "}
            *
          </span>
        )}
      </label>
      {props.children({ id, describedBy, invalid: Boolean(props.error) })}
      {props.hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {props.error}
        </p>
      )}
    </div>
  );
}

export function Checkbox({ label, className, ...props }: Omit<ComponentProps<"input">, "type"> & { label: ReactNode }) {
  return (
    <label className={cn("inline-flex cursor-pointer items-center gap-2 text-sm text-slate-800", className)}>
      <input type="checkbox" className="size-4 rounded border-slate-300 accent-brand-700" {...props} />
      {label}
    </label>
  );
}

export function Card({ className, ...props }: ComponentProps<"section">) {
  return <section className={cn("card p-4 sm:p-6", className)} {...props} />;
}

export function Loading({ label }: { label: string }) {
  return (
    <p role="status" className="flex items-center gap-2 py-10 text-sm text-slate-600">
      <span className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-700" aria-hidden="true" />
      {label}
    </p>
  );
}

export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="card flex flex-col items-start gap-3 border-red-200 bg-red-50 p-4 text-sm text-red-900">
      <p>{message}</p>
      <button type="button" className="btn-outline" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

export type Loadable<T> = { kind: "loading" } | { kind: "failed"; error: unknown } | { kind: "ready"; data: T };

/** Loads data on mount (and when `reload` is called); a newer load wins over an older one. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): { state: Loadable<T>; reload: () => void; setData: (data: T) => void } {
  const [state, setState] = useState<Loadable<T>>({ kind: "loading" });
  const latest = useRef(0);
  const run = useCallback(load, deps);
  const reload = useCallback(() => {
    const ticket = ++latest.current;
    setState((previous) => (previous.kind === "ready" ? previous : { kind: "loading" }));
    run().then(
      (data) => ticket === latest.current && setState({ kind: "ready", data }),
      (error: unknown) => ticket === latest.current && setState({ kind: "failed", error }),
    );
  }, [run]);
  useEffect(() => {
    setState({ kind: "loading" });
    reload();
  }, [reload]);
  const setData = useCallback((data: T) => setState({ kind: "ready", data }), []);
  return { state, reload, setData };
}

/**
 * A table that scrolls sideways on narrow screens instead of squeezing its columns. The scroller
 * is positioned, so screen-reader-only text in the cells (absolutely placed) scrolls with it
 * rather than widening the page.
 */
export function Table({ caption, head, children, minWidth = "48rem" }: { caption: string; head: ReactNode; children: ReactNode; minWidth?: string }) {
  return (
    <div className="card relative overflow-x-auto">
      <table className="w-full text-left text-sm" style={{ minWidth }}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">{head}</thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

export function Th({ className, ...props }: ComponentProps<"th">) {
  return <th scope="col" className={cn("px-3 py-3 whitespace-nowrap first:pl-4 last:pr-4", className)} {...props} />;
}

export function Td({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("px-3 py-3 align-middle first:pl-4 last:pr-4", className)} {...props} />;
}

/** Five stars with the rounded rating filled, and the review count with thousands separators ("(9,753)"); "No reviews" and no stars without reviews. */
export function RatingStars({ rating: stored, reviewCount }: { rating: number; reviewCount: number }) {
  const rating = shownRating(stored, reviewCount);
  if (rating === null) return <span className="text-xs whitespace-nowrap text-slate-600">No reviews</span>;
  const filled = Math.min(maxStars, Math.max(0, Math.round(rating)));
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap" aria-label={`Rated ${rating} out of 5 from ${reviewCount.toLocaleString("en-GB")} reviews`} role="img">
      {Array.from({ length: maxStars }, (_, index) => (
        <StarIcon key={index} className={cn("size-3.5", index < filled ? "fill-amber-400 text-amber-400" : "text-slate-300")} aria-hidden="true" />
      ))}
      <span className="ml-1 text-xs text-slate-600">({reviewCount.toLocaleString("en-GB")})</span>
    </span>
  );
}

export function Badge({ tone, children }: { tone: "green" | "slate" | "amber" | "red" | "brand"; children: ReactNode }) {
  const tones = {
    green: "bg-emerald-100 text-emerald-800",
    slate: "bg-slate-100 text-slate-700",
    amber: "bg-amber-100 text-amber-900",
    red: "bg-red-100 text-red-800",
    brand: "bg-brand-100 text-brand-800",
  };
  return <span className={cn("inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold", tones[tone])}>{children}</span>;
}

const buildResults = {
  running: { tone: "amber", text: "Running" },
  succeeded: { tone: "green", text: "Succeeded" },
  failed: { tone: "red", text: "Failed" },
} as const;

export function BuildResultBadge({ result }: { result: keyof typeof buildResults }) {
  const { tone, text } = buildResults[result] ?? buildResults.failed;
  return <Badge tone={tone}>{text}</Badge>;
}

/** Triggers a browser download of a file made in the page. */
export function downloadFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export interface MenuAction {
  label: string;
  icon: ReactNode;
  danger?: boolean;
  onSelect: () => void;
}

/**
 * A button opening a short menu of actions (the menu-button pattern): arrow keys move between
 * the items, Escape or a click elsewhere closes it and returns the focus to the button. The menu
 * is placed against the viewport, so a scrolling table around the button does not clip it; it
 * closes when the page scrolls or resizes.
 */
export function ActionMenu({ label, actions }: { label: string; actions: MenuAction[] }) {
  const [position, setPosition] = useState<{ top: number; right: number } | null>(null);
  const open = position !== null;
  const setOpen = (value: boolean | ((open: boolean) => boolean)) => {
    const next = typeof value === "function" ? value(open) : value;
    if (!next) return setPosition(null);
    const rect = button.current!.getBoundingClientRect();
    // Open upwards when the menu would not fit below the button.
    const menuHeight = 8 + actions.length * 40;
    const top = rect.bottom + 4 + menuHeight > window.innerHeight ? Math.max(4, rect.top - 4 - menuHeight) : rect.bottom + 4;
    setPosition({ top, right: Math.max(4, window.innerWidth - rect.right) });
  };
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const items = () => [...(root.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const dismiss = () => setPosition(null);
    document.addEventListener("pointerdown", closeOutside);
    window.addEventListener("resize", dismiss);
    window.addEventListener("scroll", dismiss, true);
    return () => {
      document.removeEventListener("pointerdown", closeOutside);
      window.removeEventListener("resize", dismiss);
      window.removeEventListener("scroll", dismiss, true);
    };
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div ref={root} className="relative inline-block text-left">
      <button
        ref={button}
        type="button"
        className="btn-ghost px-2"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Ellipsis className="size-4" aria-hidden="true" />
      </button>
      {position && (
        <div
          id={menuId}
          role="menu"
          aria-label={label}
          style={{ top: position.top, right: position.right }}
          className="fixed z-50 min-w-36 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg"
          onKeyDown={(event) => {
            const all = items();
            const index = all.indexOf(document.activeElement as HTMLButtonElement);
            if (event.key === "Escape") {
              event.preventDefault();
              close();
            } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
              event.preventDefault();
              const step = event.key === "ArrowDown" ? 1 : -1;
              all[(index + step + all.length) % all.length]?.focus();
            } else if (event.key === "Home" || event.key === "End") {
              event.preventDefault();
              (event.key === "Home" ? all[0] : all.at(-1))?.focus();
            } else if (event.key === "Tab") {
              setOpen(false);
            }
          }}
        >
          {actions.map((action) => (
            <button
              key={action.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={cn(
                "flex w-full items-center gap-2 rounded-md px-3 py-2 text-left outline-none focus:bg-slate-100",
                action.danger ? "text-red-700 hover:bg-red-50 focus:bg-red-50" : "text-slate-800 hover:bg-slate-100",
              )}
              onClick={() => {
                close();
                action.onSelect();
              }}
            >
              {action.icon}
              {action.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
