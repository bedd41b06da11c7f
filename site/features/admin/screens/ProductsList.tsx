/**
 * /admin/products: 100 products a page, searchable by name (q), with price, rating, featured
 * flag and last edit (or creation, for a product never edited); each row edits or deletes (after
 * the browser's confirmation). The page and the search live in the query string, so back/forward
 * and reloads keep them, and the product form carries them, so the list comes back as it was.
 */
import { useStore } from "@nanostores/react";
import { ArrowUpRight, CircleCheckBig, CirclePlus, Download, Search, SquarePen, Trash } from "../icons.tsx";
import { useEffect, useState, type FormEvent } from "react";
import { formatPrice } from "../../../../data/domain/display.ts";
import { lastEditedText, truncate } from "../../../../data/domain/admin-display.ts";
import { homePath, productPath } from "../../../../data/domain/paths.ts";
import { toast } from "../../toast/toast.store.ts";
import { deleteProduct, describeError, errorMessage, exportProducts, fetchAdminProducts, type AdminProductRow } from "../admin-api.ts";
import { adminPaths, productListQuery, productListState } from "../routes.ts";
import { $location, navigate } from "../router.ts";
import { ActionMenu, AdminLink, Badge, downloadFile, inputClass, LoadFailed, Loading, PageHeader, RatingStars, Table, Td, Th, useLoad } from "../ui.tsx";

/** Product names longer than this are cut in the list. */
const nameLength = 40;

const listPath = (page: number, q: string) => adminPaths.products + productListQuery(q, page);

export default function ProductsList() {
  const location = useStore($location);
  const { q, page } = productListState(location.search);
  // The form opened from here carries the search and page, and returns to them.
  const carried = productListQuery(q, page);
  const editPath = (id: number) => adminPaths.editProduct(id) + carried;
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
      toast({ title: "Export Failed", description: `Failed to export products: ${describeError(error)}`, variant: "destructive" });
    } finally {
      setExporting(false);
    }
  }

  const rowMenu = (product: AdminProductRow) => (
    <ActionMenu
      label={`Actions for ${product.name}`}
      actions={[
        { label: "Edit", icon: <SquarePen className="size-4" aria-hidden="true" />, onSelect: () => navigate(editPath(product.id)) },
        { label: "Delete", icon: <Trash className="size-4" aria-hidden="true" />, danger: true, onSelect: () => void remove(product) },
      ]}
    />
  );

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
            <AdminLink href={adminPaths.newProduct + carried} className="btn-primary">
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
          placeholder="Search products"
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
        // Phones get one card per product; wider screens the table.
        <ul className="card divide-y divide-slate-100 md:hidden" aria-label="Products">
          {data.products.map((product) => (
            <li key={product.id} className="flex items-start gap-3 p-4" data-testid="product-card-admin">
              <div className="min-w-0 flex-1">
                <AdminLink href={editPath(product.id)} className="font-medium break-words text-slate-900 hover:underline">
                  {truncate(product.name, nameLength)}
                </AdminLink>
                {product.isFeatured && (
                  <span className="ml-2 align-middle">
                    <Badge tone="green">Featured</Badge>
                  </span>
                )}
                <p className="mt-0.5 text-sm text-slate-600">
                  {product.category.name} · {product.bestRetailer?.name ?? "No offer"}
                </p>
                <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                  <span className="font-semibold tabular-nums">{formatPrice(product.bestPrice, "N/A")}</span>
                  <RatingStars rating={product.rating} reviewCount={product.reviewCount} />
                  <span className="text-slate-600">{product.lastEditedAt ? `Edited ${lastEditedText(product).replace(/^Just now$/, "just now")}` : lastEditedText(product)}</span>
                </div>
              </div>
              {rowMenu(product)}
            </li>
          ))}
        </ul>
      )}
      {data && data.products.length > 0 && (
        <div className="hidden md:block">
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
              <Td className="max-w-72 min-w-56 font-medium text-slate-900">
                <AdminLink href={editPath(product.id)} title={product.name} className="hover:text-brand-700 hover:underline">
                  {truncate(product.name, nameLength)}
                </AdminLink>
                <a
                  href={productPath(product.slug)}
                  target="_blank"
                  rel="noopener"
                  className="ml-1 inline-flex rounded p-0.5 align-middle text-slate-400 hover:bg-slate-100 hover:text-slate-700"
                  aria-label={`View ${product.name} on the site (opens in a new tab)`}
                  title={productPath(product.slug)}
                >
                  <ArrowUpRight className="size-3.5" aria-hidden="true" />
                </a>
              </Td>
              <Td className="min-w-32">{product.category.name}</Td>
              <Td className="whitespace-nowrap">{product.bestRetailer?.name ?? "—"}</Td>
              <Td className="text-right font-semibold tabular-nums">{formatPrice(product.bestPrice, "N/A")}</Td>
              <Td>
                <RatingStars rating={product.rating} reviewCount={product.reviewCount} />
              </Td>
              <Td className="text-center">
                {product.isFeatured ? <CircleCheckBig className="mx-auto size-4 text-emerald-600" aria-label="Featured" /> : <span className="sr-only">Not featured</span>}
              </Td>
              <Td className="whitespace-nowrap text-slate-600">{lastEditedText(product)}</Td>
              <Td className="text-right">
                {rowMenu(product)}
              </Td>
            </tr>
          ))}
        </Table>
        </div>
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
