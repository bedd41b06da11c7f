/**
 * The dashboard's card while the seeded demo catalogue is present: the steps to go live, and a
 * button that removes the demo after the browser's confirmation, which says what goes and what
 * stays, with counts. Nothing is shown once the demo is gone.
 */
import { useState } from "react";
import { toast } from "../toast/toast.store.ts";
import { clearDemo, errorMessage, fetchDemo } from "./admin-api.ts";
import { clearDemoQuestion, clearedDemoText } from "./demo-catalogue.ts";
import { Trash } from "./icons.tsx";
import { adminPaths } from "./routes.ts";
import { AdminLink, useLoad } from "./ui.tsx";

const stepLink = "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800";

export function DemoCatalogue({ onCleared }: { onCleared: () => void }) {
  const { state, setData } = useLoad(fetchDemo, []);
  const [clearing, setClearing] = useState(false);
  if (state.kind !== "ready" || !state.data.demo) return null;
  const current = state.data;

  async function remove() {
    if (!window.confirm(clearDemoQuestion(current))) return;
    setClearing(true);
    try {
      const cleared = await clearDemo();
      setData({ demo: false, products: 0, keptProducts: 0, offers: 0, vouchers: 0 });
      toast({ title: "Demo catalogue removed", description: clearedDemoText(cleared) });
      onCleared();
    } catch (error) {
      toast({ title: "The demo catalogue was not removed", description: errorMessage(error, "Please try again."), variant: "destructive" });
    } finally {
      setClearing(false);
    }
  }

  return (
    <section aria-labelledby="demo-heading" className="rounded-xl border border-amber-300 bg-amber-50 p-4 shadow-sm sm:p-6" data-testid="demo-catalogue">
      <h2 id="demo-heading" className="text-lg font-semibold text-slate-900">
        You are running the demo catalogue
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Its {current.products.toLocaleString("en-GB")} products and {current.offers.toLocaleString("en-GB")} offers have invented prices under real
        retailers&apos; names, and every public page says so. To go live:
      </p>
      <ol className="mt-3 list-decimal space-y-1.5 pl-5 text-sm text-slate-800">
        <li>
          <AdminLink href={adminPaths.affiliateLinks} className={stepLink}>
            Add your affiliate IDs
          </AdminLink>
          , so every link to a retailer earns your commission.
        </li>
        <li>
          Add your product feeds in{" "}
          <AdminLink href={adminPaths.feeds} className={stepLink}>
            Feeds
          </AdminLink>
          : their products and prices come in, and stay up to date.
        </li>
        <li>
          <AdminLink href={adminPaths.newProduct} className={stepLink}>
            Add your own products and offers
          </AdminLink>
          ; a demo product you give an offer of your own is kept as yours.
        </li>
        <li>Remove the demo catalogue: its products, offers and vouchers go, and the line on every page with them.</li>
      </ol>
      <button type="button" className="btn mt-4 border border-red-300 bg-white text-red-800 hover:bg-red-50" onClick={() => void remove()} disabled={clearing}>
        <Trash className="size-4" />
        {clearing ? "Removing..." : "Remove demo catalogue"}
      </button>
    </section>
  );
}
