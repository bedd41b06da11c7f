/**
 * /admin/categories/new and /admin/categories/edit/{id}: name, slug, icon (all required) and
 * an optional description, which is saved. The icon is one of the tile icons, typed in any case
 * or picked from the list; it is saved by its own name. Success returns to the list.
 */
import { useId, useState, type FormEvent } from "react";
import { categoryIconName, categoryIconNames } from "../../../../data/domain/category-icons.ts";
import { maxSlugLength, slugify, slugPattern } from "../../../../data/domain/slug.ts";
import { ApiError } from "../../../lib/api.ts";
import { toast } from "../../toast/toast.store.ts";
import { createCategory, errorMessage, fetchCategory, updateCategory, type CategoryInput } from "../admin-api.ts";
import { adminPaths } from "../routes.ts";
import { navigate } from "../router.ts";
import { AdminLink, Card, Field, inputClass, LoadFailed, Loading, PageHeader, useLoad } from "../ui.tsx";
import { catalogueTextLimits as limits } from "../../../../data/domain/limits.ts";

/** The list to go back to (worked out when drawn: a screen reads no address while its module loads). */
const back = () => ({ href: adminPaths.categories, label: "Back to Categories" });
const iconProblem = `Icon must be one of ${categoryIconNames.join(", ")}`;
/** A pattern attribute matches the whole value, so the slug rule goes without its anchors. */
const slugInputPattern = slugPattern.source.slice(1, -1);
const blank: CategoryInput = { name: "", slug: "", icon: "", description: "" };

export default function CategoryForm({ id }: { id: number | null }) {
  const { state, reload } = useLoad(() => (id === null ? Promise.resolve(blank) : fetchCategory(id)), [id]);
  if (state.kind === "loading")
    return (
      <div>
        <PageHeader title={id === null ? "Add New Category" : "Edit Category"} back={back()} />
        <Loading label="Loading category..." />
      </div>
    );
  if (state.kind === "failed")
    return (
      <div>
        <PageHeader title="Edit Category" back={back()} />
        <LoadFailed
          message={state.error instanceof ApiError && state.error.status === 404 ? "This category does not exist." : errorMessage(state.error, "Could not load the category.")}
          onRetry={reload}
        />
      </div>
    );
  const { name, slug, icon, description } = state.data;
  return <CategoryEditor id={id} initial={{ name, slug, icon, description: description ?? "" }} />;
}

function CategoryEditor({ id, initial }: { id: number | null; initial: CategoryInput }) {
  const [fields, setFields] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [iconError, setIconError] = useState<string | null>(null);
  const iconListId = useId();
  // A new category's slug follows its name until the admin edits the slug.
  const [slugTouched, setSlugTouched] = useState(id !== null);
  const set = (key: keyof CategoryInput, value: string) => setFields((previous) => ({ ...previous, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const icon = categoryIconName(fields.icon);
    if (icon === null) {
      setIconError(iconProblem);
      document.getElementById("category-icon")?.focus();
      return;
    }
    setIconError(null);
    setFields((previous) => ({ ...previous, icon }));
    setSaving(true);
    const input = { name: fields.name.trim(), slug: fields.slug.trim(), icon, description: fields.description.trim() };
    try {
      if (id === null) await createCategory(input);
      else await updateCategory(id, input);
      toast({ title: id === null ? "Category created successfully" : "Category updated successfully" });
      navigate(adminPaths.categories);
    } catch (error) {
      setSaving(false);
      toast({ title: id === null ? "Failed to create category" : "Failed to update category", description: errorMessage(error, "Please try again."), variant: "destructive" });
    }
  }

  return (
    <div>
      <PageHeader title={id === null ? "Add New Category" : `Edit Category: ${initial.name}`} back={back()} />
      <Card className="max-w-2xl">
        <form onSubmit={submit} className="grid gap-4">
          <Field label="Category Name" required>
            {({ id: inputId }) => (
              <input
                id={inputId}
                required
                maxLength={limits.categoryName}
                value={fields.name}
                onChange={(event) => {
                  const name = event.target.value;
                  setFields((previous) => ({ ...previous, name, slug: slugTouched ? previous.slug : slugify(name) }));
                }}
                className={inputClass}
              />
            )}
          </Field>
          <Field label="Slug" required hint="Lowercase letters, digits and hyphens; the category page is /category/{slug}.">
            {({ id: inputId, describedBy }) => (
              <input
                id={inputId}
                required
                maxLength={maxSlugLength}
                pattern={slugInputPattern}
                value={fields.slug}
                onChange={(event) => {
                  setSlugTouched(true);
                  set("slug", event.target.value);
                }}
                aria-describedby={describedBy}
                className={inputClass}
              />
            )}
          </Field>
          <Field label="Icon" id="category-icon" required hint={`One of ${categoryIconNames.join(", ")}; any case (Bone is bone).`} error={iconError}>
            {({ id: inputId, describedBy, invalid }) => (
              <>
                <input
                  id={inputId}
                  required
                  maxLength={limits.categoryIcon}
                  placeholder="PawPrint"
                  list={iconListId}
                  autoComplete="off"
                  value={fields.icon}
                  onChange={(event) => {
                    set("icon", event.target.value);
                    if (iconError !== null && categoryIconName(event.target.value) !== null) setIconError(null);
                  }}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  className={inputClass}
                />
                <datalist id={iconListId}>
                  {categoryIconNames.map((name) => (
                    <option key={name} value={name} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
          <Field label="Description">
            {({ id: inputId }) => <textarea id={inputId} rows={4} maxLength={limits.categoryDescription} value={fields.description} onChange={(event) => set("description", event.target.value)} className={inputClass} />}
          </Field>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn-primary" disabled={saving}>
              {saving ? "Saving..." : id === null ? "Create Category" : "Update Category"}
            </button>
            <AdminLink href={adminPaths.categories} className="btn-outline">
              Cancel
            </AdminLink>
          </div>
        </form>
      </Card>
    </div>
  );
}
