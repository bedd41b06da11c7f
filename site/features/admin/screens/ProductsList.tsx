/**
 * /admin/products: 100 products a page, searchable by name (q), with price, rating, featured
 * flag and last edit; each row edits or deletes (after the browser's confirmation). The page and
 * the search live in the query string, so back/forward and reloads keep them.
 */
import { useStore } from "@nanostores/react";
import { CircleCheckBig, CirclePlus, Download, Search, SquarePen, Trash } from "../icons.tsx";
import { useEffect, useState, type FormEvent } from "react";
import { formatPrice, relativeTime, truncate } from "../../../../data/domain/display.ts";
import { homePath, productPath } from "../../../../data/domain/paths.ts";
import { toast } from "../../toast/toast.store.ts";
import { deleteProduct, errorMessage, exportProducts, fetchAdminProducts, type AdminProductRow } from "../admin-api.ts";
import { adminPaths } from "../routes.ts";
import { $location, navigate } from "../router.ts";
import { ActionMenu, AdminLink, downloadFile, inputClass, LoadFailed, Loading, PageHeader, RatingStars, Table, Td, Th, useLoad } from "../ui.tsx";

/** Product names longer than this are cut in the list. */
const nameLength = 40;

function listPath(page: number, q: string): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${adminPaths.products}?${query}` : adminPaths.products;
}

export default function ProductsList() {
  const location = useStore($location);
  const params = new URLSearchParams(location.search);
  const q = params.get("q")?.trim() ?? "";
  const page = Math.max(1, Math.trunc(Number(params.get("page"))) || 1);
  const { state, reload } = useLoad(() => fetchAdminProducts({ page, q }), [page, q]);
  const [searchText, setSearchText] = useState(q);
  // Back/forward to another search shows that search's text.
  useEffect(() => setSearchText(q), [q]);
  const [exporting, setExporting] = useState(false);

  function search(event: FormEvent) {
    event.preventDefault();
    navigate(listPath(1, searchText.trim()));
  }

  async function remove(product: AdminProductRow) {
    if (!window.confirm(`Are you sure you want to delete "${product.name}"?`)) return;
    try {
      await deleteProduct(product.id);
      toast({ title: "Product deleted", description: "The product has been permanently removed from the website." });
      reload();
    } catch {
      toast({ title: "Error", description: "Failed to delete product. Please try again.", variant: "destructive" });
    }
  }

  async function exportExcel() {
    setExporting(true);
    try {
      const { blob, fileName } = await exportProducts();
      downloadFile(blob, fileName);
      toast({ title: "Export Successful", description: "Products have been exported to Excel successfully." });
    } catch (error) {
      toast({ title: "Export Failed", description: `Failed to export products: ${errorMessage(error, error instanceof Error ? error.message : "Unknown error")}`, variant: "destructive" });
    } finally {
      setExporting(false);
    }
  }

  const data = state.kind === "ready" ? state.data : null;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div>
      <PageHeader
        title="Products"
        description={data ? `${data.total.toLocaleString("en-GB")} product${data.total === 1 ? "" : "s"}${q ? ` matching "${q}"` : ""}` : undefined}
        back={{ href: adminPaths.dashboard, label: "Dashboard" }}
        actions={
          <>
            <button type="button" className="btn-outline" onClick={exportExcel} disabled={exporting}>
              <Download className="size-4" aria-hidden="true" />
              {exporting ? "Exporting..." : "Export Excel"}
            </button>
            <AdminLink href={adminPaths.newProduct} className="btn-primary">
              <CirclePlus className="size-4" aria-hidden="true" />
              Add New Product
            </AdminLink>
            <a href={homePath} className="btn-ghost">
              Homepage
            </a>
          </>
        }
      />

      <form role="search" onSubmit={search} className="mb-4 flex gap-2">
        <label htmlFor="product-search" className="sr-only">
          Search products
        </label>
        <input
          id="product-search"
          type="search"
          name="q"
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          placeholder="Search products by name, brand or category"
          className={`${inputClass} max-w-md`}
        />
        <button type="submit" className="btn-outline">
          <Search className="size-4" aria-hidden="true" />
          Search
        </button>
      </form>

      {state.kind === "loading" && <Loading label="Loading products..." />}
      {state.kind === "failed" && <LoadFailed message={errorMessage(state.error, "Could not load the products.")} onRetry={reload} />}
      {data && data.products.length === 0 && (
        <div className="card p-8 text-center text-slate-600">{q ? `No products match "${q}".` : "No products yet."}</div>
      )}
      {data && data.products.length > 0 && (
        <Table
          caption="Products"
          minWidth="56rem"
          head={
            <tr>
              <Th>Name</Th>
              <Th>Category</Th>
              <Th>Retailer</Th>
              <Th className="text-right">Price</Th>
              <Th>Rating</Th>
              <Th className="text-center">Featured</Th>
              <Th>Last Edited</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          }
        >
          {data.products.map((product) => (
            <tr key={product.id} className="hover:bg-slate-50" data-testid="product-row">
              <Td className="max-w-72 font-medium text-slate-900">
                <AdminLink href={adminPaths.editProduct(product.id)} title={product.name} className="hover:text-brand-700 hover:underline">
                  {truncate(product.name, nameLength)}
                </AdminLink>
                <a href={productPath(product.slug)} className="block text-xs font-normal text-slate-500 hover:underline" target="_blank" rel="noopener">
                  {productPath(product.slug)}
                </a>
              </Td>
              <Td>{product.category.name}</Td>
              <Td>{product.bestRetailer?.name ?? "—"}</Td>
              <Td className="text-right font-semibold tabular-nums">{formatPrice(product.bestPrice, "N/A")}</Td>
              <Td>
                <RatingStars rating={product.rating} reviewCount={product.reviewCount} />
              </Td>
              <Td className="text-center">
                {product.isFeatured ? <CircleCheckBig className="mx-auto size-4 text-emerald-600" aria-label="Featured" /> : <span className="sr-only">Not featured</span>}
              </Td>
              <Td className="whitespace-nowrap text-slate-600">{relativeTime(product.lastEditedAt)}</Td>
              <Td className="text-right">
                <ActionMenu
                  label={`Actions for ${product.name}`}
                  actions={[
                    { label: "Edit", icon: <SquarePen className="size-4" aria-hidden="true" />, onSelect: () => navigate(adminPaths.editProduct(product.id)) },
                    { label: "Delete", icon: <Trash className="size-4" aria-hidden="true" />, danger: true, onSelect: () => void remove(product) },
                  ]}
                />
              </Td>
            </tr>
          ))}
        </Table>
      )}

      {data && (
        <nav aria-label="Product pages" className="mt-4 flex items-center justify-between gap-3 text-sm">
          <AdminPageButton disabled={page <= 1} href={listPath(page - 1, q)} label="Previous" />
          <span className="text-slate-600">
            Page {page} of {pages}
          </span>
          <AdminPageButton disabled={page >= pages} href={listPath(page + 1, q)} label="Next" />
        </nav>
      )}
    </div>
  );
}

function AdminPageButton({ disabled, href, label }: { disabled: boolean; href: string; label: string }) {
  return (
    <button type="button" className="btn-outline" disabled={disabled} onClick={() => navigate(href)}>
      {label}
    </button>
  );
}
