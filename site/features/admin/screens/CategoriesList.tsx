/**
 * /admin/categories: every category with its slug, icon and id; edit, or delete after the
 * browser's confirmation (the server refuses while products are still in it, and says so).
 * Phones get one card per category with its Edit and Delete in view; wider screens the table.
 */
import { CirclePlus, SquarePen, Trash } from "../icons.tsx";
import { useEffect } from "react";
import { toast } from "../../toast/toast.store.ts";
import { describeError, deleteCategory, errorMessage, fetchCategories, type AdminCategory } from "../admin-api.ts";
import { adminPaths } from "../routes.ts";
import { AdminLink, LoadFailed, Loading, PageHeader, Table, Td, Th, useLoad } from "../ui.tsx";

export default function CategoriesList() {
  const { state, reload } = useLoad(fetchCategories, []);
  useEffect(() => {
    if (state.kind === "failed") toast({ title: `Error loading categories: ${describeError(state.error)}`, variant: "destructive" });
  }, [state]);

  async function remove(category: AdminCategory) {
    if (!window.confirm(`Are you sure you want to delete the category "${category.name}"?`)) return;
    try {
      await deleteCategory(category.id);
      toast({ title: "Category deleted successfully" });
      reload();
    } catch (error) {
      toast({ title: "Failed to delete category", description: errorMessage(error, "Please try again."), variant: "destructive" });
    }
  }

  const actions = (category: AdminCategory) => (
    <>
      <AdminLink href={adminPaths.editCategory(category.id)} className="btn-ghost px-2" aria-label={`Edit ${category.name}`}>
        <SquarePen className="size-4" aria-hidden="true" />
        Edit
      </AdminLink>
      <button type="button" className="btn-ghost px-2 text-red-700 hover:bg-red-50" onClick={() => void remove(category)} aria-label={`Delete ${category.name}`}>
        <Trash className="size-4" aria-hidden="true" />
        Delete
      </button>
    </>
  );

  return (
    <div>
      <PageHeader
        title="Categories"
        back={{ href: adminPaths.dashboard, label: "Dashboard" }}
        actions={
          <AdminLink href={adminPaths.newCategory} className="btn-primary">
            <CirclePlus className="size-4" aria-hidden="true" />
            Add New Category
          </AdminLink>
        }
      />
      {state.kind === "loading" && <Loading label="Loading categories..." />}
      {state.kind === "failed" && <LoadFailed message={`Error loading categories: ${describeError(state.error)}`} onRetry={reload} />}
      {state.kind === "ready" && (
        <ul className="card divide-y divide-slate-100 md:hidden" aria-label="Categories">
          {state.data.map((category) => (
            <li key={category.id} className="p-4" data-testid="category-card">
              <p className="font-medium break-words text-slate-900">{category.name}</p>
              <p className="mt-0.5 text-sm break-all text-slate-600">
                {category.slug} · <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{category.icon}</code> · ID {category.id}
              </p>
              <div className="mt-2 -ml-2 flex flex-wrap gap-1">{actions(category)}</div>
            </li>
          ))}
        </ul>
      )}
      {state.kind === "ready" && (
        <div className="hidden md:block">
        <Table
          caption="Categories"
          minWidth="40rem"
          head={
            <tr>
              <Th>Name</Th>
              <Th>Slug</Th>
              <Th>Icon</Th>
              <Th>ID</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          }
        >
          {state.data.map((category) => (
            <tr key={category.id} className="hover:bg-slate-50" data-testid="category-row">
              <Td className="font-medium text-slate-900">{category.name}</Td>
              <Td className="text-slate-600">{category.slug}</Td>
              <Td>
                <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{category.icon}</code>
              </Td>
              <Td className="text-slate-600 tabular-nums">{category.id}</Td>
              <Td className="text-right whitespace-nowrap">{actions(category)}</Td>
            </tr>
          ))}
        </Table>
        </div>
      )}
    </div>
  );
}
