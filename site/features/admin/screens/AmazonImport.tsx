/**
 * /admin/amazon-import: importing best-selling marketplace products needs a configured product
 * source, which does not exist yet; the page says so rather than offering a button that
 * cannot work.
 */
import { Info } from "../icons.tsx";
import { adminPaths } from "../routes.ts";
import { AdminLink, Card, PageHeader } from "../ui.tsx";

export default function AmazonImport() {
  return (
    <div>
      <PageHeader title="Amazon Import" description="Import best-selling pet products into the catalogue." back={{ href: adminPaths.dashboard, label: "Dashboard" }} />
      <Card className="max-w-2xl">
        <div className="flex gap-3" role="note">
          <Info className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
          <div className="text-sm text-slate-700">
            <p className="font-semibold text-slate-900">No product source is configured yet.</p>
            <p className="mt-1">
              Importing needs a product source: an affiliate product feed or the Amazon product API with its credentials. Until one is set up, there is nothing to import from.
            </p>
            <p className="mt-3">
              Meanwhile, add products one at a time with{" "}
              <AdminLink href={adminPaths.newProduct} className="font-medium text-brand-700 hover:underline">
                Add New Product
              </AdminLink>
              .
            </p>
          </div>
        </div>
      </Card>
    </div>
  );
}
