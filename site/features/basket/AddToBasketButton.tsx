import { ShoppingBasket } from "lucide-react";
import { useState } from "react";
import { basketLimits } from "../../../data/domain/limits.ts";
import { basketPath } from "../../../data/domain/paths.ts";
import { cn } from "../../lib/cn.ts";
import { addToBasket, type BasketItem } from "./basket.store.ts";

type Product = Pick<BasketItem, "productId" | "name" | "slug" | "image">;

/** What happened, in words: "Added 2 to your basket", "Already in your basket", "Your basket is full". */
function resultText({ added, already, full }: { added: number; already: number; full: number }): string {
  const parts: string[] = [];
  if (added > 0) parts.push(`Added ${added === 1 ? "1 product" : `${added} products`} to your basket`);
  if (already > 0) parts.push(added === 0 && full === 0 ? "Already in your basket" : `${already} already in it`);
  if (full > 0) parts.push(`${full === 1 ? "1 product" : `${full} products`} not added: a basket holds ${basketLimits.products}`);
  return parts.join("; ");
}

/** A button that puts these products in the basket, then says what it did with a link to the basket. */
export default function AddToBasketButton({ products, label, className }: { products: readonly Product[]; label: string; className?: string }) {
  const [said, setSaid] = useState<string | null>(null);
  return (
    <span className={cn("inline-flex flex-wrap items-center gap-x-3 gap-y-1", className)}>
      <button type="button" className="btn-outline" onClick={() => setSaid(resultText(addToBasket(products)))}>
        <ShoppingBasket className="size-4" aria-hidden="true" />
        {label}
      </button>
      <span role="status" className="text-sm text-slate-700">
        {said && (
          <>
            {said}.{" "}
            <a href={basketPath} className="font-medium text-brand-700 underline">
              View basket
            </a>
          </>
        )}
      </span>
    </span>
  );
}
