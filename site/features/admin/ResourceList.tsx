/**
 * One admin list screen: a page header with Add New, the loading and failed states (a toast and
 * a retry), an optional empty state, one card per item on phones and a table on wider screens,
 * each item with Edit (a link to its form) and Delete (after the browser's confirmation; the
 * server's refusal is toasted with its message, and the list reloads after a delete).
 */
import { useEffect, type ReactNode } from "react";
import { toast } from "../toast/toast.store.ts";
import { describeError, errorMessage } from "./admin-api.ts";
import { CirclePlus, SquarePen, Trash } from "./icons.tsx";
import { adminPaths } from "./routes.ts";
import { AdminLink, LoadFailed, Loading, PageHeader, Table, Td, Th, useLoad } from "./ui.tsx";

/** A table column: its heading and each item's cell. */
export interface Column<T> {
  header: ReactNode;
  /** The heading's classes (e.g. "text-right"). */
  headerClassName?: string;
  cell: (item: T) => ReactNode;
  /** The cell's classes. */
  className?: string;
}

export interface ResourceListProps<T extends { id: number }> {
  /** What one item and many are called, lower case: "category" / "categories". */
  noun: { one: string; many: string };
  load: () => Promise<T[]>;
  remove: (id: number) => Promise<unknown>;
  /** How the confirmation, the actions' labels and the toasts name an item (its name, a voucher's code). */
  label: (item: T) => string;
  newHref: string;
  editHref: (id: number) => string;
  /** The table's columns before Actions, and the least width the table keeps (it scrolls below). */
  columns: Column<T>[];
  minWidth: string;
  /** An item's phone card; `actions` is its Edit and Delete, placed by the card. */
  card: (item: T, actions: ReactNode) => ReactNode;
  /** The rows' and cards' test ids are `{testId}-row` and `{testId}-card`. */
  testId: string;
  /** Shown instead of the list when there is no item; without it an empty list shows nothing. */
  empty?: string;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function ResourceList<T extends { id: number }>(props: ResourceListProps<T>) {
  const { noun, label } = props;
  const title = capitalised(noun.many);
  const { state, reload } = useLoad(props.load, []);
  useEffect(() => {
    if (state.kind === "failed") toast({ title: `Error loading ${noun.many}: ${describeError(state.error)}`, variant: "destructive" });
  }, [state, noun.many]);

  async function remove(item: T) {
    if (!window.confirm(`Are you sure you want to delete the ${noun.one} "${label(item)}"?`)) return;
    try {
      await props.remove(item.id);
      toast({ title: `${capitalised(noun.one)} deleted successfully` });
      reload();
    } catch (error) {
      toast({ title: `Failed to delete ${noun.one}`, description: errorMessage(error, "Please try again."), variant: "destructive" });
    }
  }

  const actions = (item: T) => (
    <>
      <AdminLink href={props.editHref(item.id)} className="btn-ghost px-2" aria-label={`Edit ${label(item)}`}>
        <SquarePen className="size-4" aria-hidden="true" />
        Edit
      </AdminLink>
      <button type="button" className="btn-ghost px-2 text-red-700 hover:bg-red-50" onClick={() => void remove(item)} aria-label={`Delete ${label(item)}`}>
        <Trash className="size-4" aria-hidden="true" />
        Delete
      </button>
    </>
  );

  const items = state.kind === "ready" ? state.data : null;
  const showList = items !== null && (items.length > 0 || props.empty === undefined);
  return (
    <div>
      <PageHeader
        title={title}
        back={{ href: adminPaths.dashboard, label: "Dashboard" }}
        actions={
          <AdminLink href={props.newHref} className="btn-primary">
            <CirclePlus className="size-4" aria-hidden="true" />
            Add New {capitalised(noun.one)}
          </AdminLink>
        }
      />
      {state.kind === "loading" && <Loading label={`Loading ${noun.many}...`} />}
      {state.kind === "failed" && <LoadFailed message={`Error loading ${noun.many}: ${describeError(state.error)}`} onRetry={reload} />}
      {items !== null && items.length === 0 && props.empty !== undefined && <div className="card p-8 text-center text-slate-600">{props.empty}</div>}
      {showList && (
        <ul className="card divide-y divide-slate-100 md:hidden" aria-label={title}>
          {items.map((item) => (
            <li key={item.id} className="p-4" data-testid={`${props.testId}-card`}>
              {props.card(item, <div className="mt-2 -ml-2 flex flex-wrap gap-1">{actions(item)}</div>)}
            </li>
          ))}
        </ul>
      )}
      {showList && (
        <div className="hidden md:block">
          <Table
            caption={title}
            minWidth={props.minWidth}
            head={
              <tr>
                {props.columns.map((column, index) => (
                  <Th key={index} className={column.headerClassName}>
                    {column.header}
                  </Th>
                ))}
                <Th className="text-right">Actions</Th>
              </tr>
            }
          >
            {items.map((item) => (
              <tr key={item.id} className="hover:bg-slate-50" data-testid={`${props.testId}-row`}>
                {props.columns.map((column, index) => (
                  <Td key={index} className={column.className}>
                    {column.cell(item)}
                  </Td>
                ))}
                <Td className="text-right whitespace-nowrap">{actions(item)}</Td>
              </tr>
            ))}
          </Table>
        </div>
      )}
    </div>
  );
}
