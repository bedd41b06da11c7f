/**
 * /admin/categories: every category with its slug, icon and id; edit, or delete after the
 * browser's confirmation (the server refuses while products are still in it, and says so).
 * Phones get one card per category with its Edit and Delete in view; wider screens the table.
 */
import { deleteCategory, fetchCategories, type AdminCategory } from "../admin-api.ts";
import { ResourceList, type Column } from "../ResourceList.tsx";
import { adminPaths } from "../routes.ts";

const icon = (category: AdminCategory) => <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{category.icon}</code>;

const columns: Column<AdminCategory>[] = [
  { header: "Name", className: "font-medium text-slate-900", cell: (category) => category.name },
  { header: "Slug", className: "text-slate-600", cell: (category) => category.slug },
  { header: "Icon", cell: icon },
  { header: "ID", className: "text-slate-600 tabular-nums", cell: (category) => category.id },
];

export default function CategoriesList() {
  return (
    <ResourceList
      noun={{ one: "category", many: "categories" }}
      load={fetchCategories}
      remove={deleteCategory}
      label={(category) => category.name}
      newHref={adminPaths.newCategory}
      editHref={adminPaths.editCategory}
      columns={columns}
      minWidth="40rem"
      testId="category"
      card={(category, actions) => (
        <>
          <p className="font-medium break-words text-slate-900">{category.name}</p>
          <p className="mt-0.5 text-sm break-all text-slate-600">
            {category.slug} · {icon(category)} · ID {category.id}
          </p>
          {actions}
        </>
      )}
    />
  );
}
