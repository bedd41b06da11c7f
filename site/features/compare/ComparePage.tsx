// First: schemas constructed by the imports below must find Zod jitless (CSP without eval).
import "../../lib/zod-jitless.ts";
import { useStore } from "@nanostores/react";
import { ExternalLink, Trophy, X } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { buildAffiliateUrl } from "../../../data/domain/affiliate.ts";
import {
  bestPerRow,
  columnValues,
  compareDailyCost,
  idsFromSearch,
  type CompareProduct,
  type CompareRow,
} from "../../../data/domain/compare-page.ts";
import { compareLimit } from "../../../data/domain/compare.ts";
import { deliveryText } from "../../../data/domain/delivery.ts";
import { formatPrice, formatRating, shownRating } from "../../../data/domain/display.ts";
import type { PetProfile } from "../../../data/domain/feeding.ts";
import { formatPence, fromPounds } from "../../../data/domain/money.ts";
import { apiPath, categoryPath, comparePath, productPath } from "../../../data/domain/paths.ts";
import { formatUnitPrice, unitWords } from "../../../data/domain/unit-price.ts";
import { fetchCompare } from "../../lib/api.ts";
import { logClick } from "../../lib/browser/clicks.ts";
import { cn } from "../../lib/cn.ts";
import { $petProfile, loadPetProfile } from "../pet-profile/pet-profile.store.ts";
import type { LinkContext } from "../products/ProductCard.tsx";
import { $compareItems, removeProductFromCompare } from "./compare.store.ts";
import AddToBasketButton from "../basket/AddToBasketButton.tsx";

type Load = { status: "loading" } | { status: "ready"; products: CompareProduct[]; asked: number } | { status: "error" };

const thousands = (value: number) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const plural = (count: number, word: string) => `${thousands(count)} ${word}${count === 1 ? "" : "s"}`;

/** The words of a row's best mark (read by screen readers too, so the mark is never colour alone). */
function markText(row: CompareRow, product: CompareProduct): string {
  switch (row) {
    case "price":
      return "Lowest price";
    case "unitPrice":
      return `Lowest ${unitWords[product.unitPrice?.unit ?? "kg"]}`;
    case "costPerDay":
      return "Lowest cost per day";
    case "rating":
      return "Highest rating";
    case "retailers":
      return "Most retailers";
  }
}

function Cell({ best, tied, label, children }: { best: boolean; tied: boolean; label: string; children: ReactNode }) {
  return (
    <td className={cn("border-t border-slate-200 px-3 py-3 align-top text-sm text-slate-800", best && "bg-emerald-50")} data-best={best ? "" : undefined}>
      {children}
      {best && (
        <span className="badge mt-1.5 gap-1 bg-emerald-700 text-white">
          <Trophy className="size-3" aria-hidden="true" />
          {label}
          {tied ? " (tie)" : ""}
        </span>
      )}
    </td>
  );
}

/** What the cost-per-day cell says for a product. */
function CostPerDay({ product, pet }: { product: CompareProduct; pet: PetProfile | null }) {
  if (product.species === null) return <span className="text-slate-600">Does not apply (not pet food)</span>;
  if (pet === null) {
    return (
      <a href={productPath(product.slug)} className="font-medium text-brand-700 underline hover:text-brand-800">
        Add your pet to see cost per day
      </a>
    );
  }
  const cost = compareDailyCost(pet, product);
  switch (cost.kind) {
    case "cost":
      return (
        <>
          <span className="block font-semibold text-slate-900">{formatPence(cost.perDayPence)} a day</span>
          <span className="block text-xs text-slate-600">{thousands(cost.grams)} g a day</span>
        </>
      );
    case "other-species":
      return <span className="text-slate-600">Does not apply: food for {cost.species}s</span>;
    case "not-food":
      return <span className="text-slate-600">Does not apply (not pet food)</span>;
    case "unknown":
      return <span className="text-slate-600">Not known for this food</span>;
  }
}

/** The product's best offer as an affiliate link (as a card's View Best Deal), labelled as one; "See prices" when nothing is in stock. */
function BestDeal({ product, links }: { product: CompareProduct; links: LinkContext }) {
  if (product.bestDeal === null) {
    return (
      <a href={productPath(product.slug)} className="btn-outline px-3">
        See prices
      </a>
    );
  }
  const href = buildAffiliateUrl(product.bestDeal.retailerKey, product.bestDeal.url, links.affiliateIds, links.siteName);
  const retailer = product.bestRetailer?.name ?? "Unknown";
  return (
    <>
      <a
        href={href}
        target="_blank"
        rel="sponsored noopener"
        className="btn-deal px-3 whitespace-nowrap"
        onClick={() => logClick({ retailer, productName: product.name, productId: product.id, price: product.bestPrice, url: href })}
      >
        View Best Deal <ExternalLink className="size-3.5" aria-hidden="true" />
        <span className="sr-only">
          {" "}
          for {product.name} at {retailer} (opens in a new tab)
        </span>
      </a>
      <p className="affiliate-label mt-1">Affiliate link: we may earn a commission</p>
    </>
  );
}

interface Row {
  key: string;
  heading: string;
  best?: CompareRow;
  render: (product: CompareProduct) => ReactNode;
}

/**
 * The compare page: up to 4 products side by side (the ids in the address, else the tray's), the
 * best value of each row marked in words, and each product's best offer as an affiliate link.
 * Removing a column updates the address and the tray.
 */
export default function ComparePage({ categories, links }: { categories: { name: string; slug: string }[]; links: LinkContext }) {
  const pet = useStore($petProfile);
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => loadPetProfile(), []);

  useEffect(() => {
    const ids = idsFromSearch(window.location.search) ?? $compareItems.get().map((item) => item.id).slice(0, compareLimit);
    if (ids.length === 0) {
      setLoad({ status: "ready", products: [], asked: 0 });
      return;
    }
    // The address names what is shown (the tray's products when it named none), so it can be shared or reloaded.
    window.history.replaceState(null, "", comparePath(ids));
    let current = true;
    setLoad({ status: "loading" });
    fetchCompare(ids).then(
      (products) => current && setLoad({ status: "ready", products, asked: ids.length }),
      () => current && setLoad({ status: "error" }),
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  if (load.status === "loading") {
    return (
      <p role="status" className="py-10 text-center text-slate-600">
        Loading the comparison…
      </p>
    );
  }
  if (load.status === "error") {
    return (
      <div role="alert" className="card p-6 text-center">
        <p className="font-semibold text-slate-900">The comparison could not be loaded.</p>
        <button type="button" onClick={() => setAttempt(attempt + 1)} className="btn-primary mt-4">
          Try again
        </button>
      </div>
    );
  }

  const { products } = load;
  const remove = (id: number) => {
    const rest = products.filter((product) => product.id !== id);
    window.history.replaceState(null, "", comparePath(rest.map((product) => product.id)));
    removeProductFromCompare(id);
    setLoad({ status: "ready", products: rest, asked: rest.length });
  };

  if (products.length === 0) {
    return (
      <div className="card p-6 text-center sm:p-10" data-testid="compare-empty">
        <p className="text-lg font-semibold text-slate-900">Nothing to compare yet</p>
        <p className="mt-1 text-slate-600">Add up to {compareLimit} products with the Compare button on any product card, then come back here.</p>
        <ul className="mt-5 flex flex-wrap justify-center gap-2">
          {categories.map((category) => (
            <li key={category.slug}>
              <a href={categoryPath(category.slug)} className="btn-outline">
                {category.name}
              </a>
            </li>
          ))}
        </ul>
      </div>
    );
  }

  const marks = bestPerRow(products.map((product) => columnValues(product, pet)));
  const rows: Row[] = [
    {
      key: "price",
      heading: "Price to your door",
      best: "price",
      render: (product) => (
        <>
          <span className="block text-base font-bold text-slate-900">{formatPrice(product.bestPrice, "N/A")}</span>
          {product.bestPrice === null ? (
            <span className="block text-xs text-slate-600">Out of stock everywhere</span>
          ) : (
            product.bestRetailer && <span className="block text-xs text-slate-600">at {product.bestRetailer.name}</span>
          )}
        </>
      ),
    },
    {
      key: "unitPrice",
      heading: "Price per kg, litre or item",
      best: "unitPrice",
      render: (product) =>
        product.unitPrice === null ? (
          <span className="text-slate-600">{product.packSize === null ? "Pack size not stated" : "No price"}</span>
        ) : (
          <>
            <span className="block font-semibold">{formatUnitPrice({ pence: fromPounds(product.unitPrice.price), unit: product.unitPrice.unit })}</span>
            {product.packSize && <span className="block text-xs text-slate-600">Pack: {product.packSize.label}</span>}
          </>
        ),
    },
    {
      key: "costPerDay",
      heading: pet ? `Cost per day for ${pet.name}` : "Cost per day for your pet",
      best: "costPerDay",
      render: (product) => <CostPerDay product={product} pet={pet} />,
    },
    {
      key: "rating",
      heading: "Rating",
      best: "rating",
      render: (product) => {
        const rating = shownRating(product.rating, product.reviewCount);
        return rating !== null ? (
          <>
            <span className="block font-semibold">{formatRating(rating)} out of 5</span>
            <span className="block text-xs text-slate-600">{plural(product.reviewCount, "review")}</span>
          </>
        ) : (
          <span className="text-slate-600">No reviews yet</span>
        );
      },
    },
    {
      key: "retailers",
      heading: "Retailers",
      best: "retailers",
      render: (product) => <span className="font-semibold">{plural(product.retailerCount, "retailer")}</span>,
    },
    {
      key: "stock",
      heading: "Stock",
      render: (product) =>
        product.inStockCount === 0 ? (
          <span className="text-red-700">Out of stock everywhere</span>
        ) : (
          <span>
            In stock at {product.inStockCount} of {plural(product.retailerCount, "retailer")}
          </span>
        ),
    },
    {
      key: "delivery",
      heading: "Delivery",
      render: (product) =>
        product.bestPrice === null ? (
          <span className="text-slate-600">—</span>
        ) : (
          <span>{deliveryText(fromPounds(product.bestDelivery))}</span>
        ),
    },
    {
      key: "deal",
      heading: "Best offer",
      render: (product) => <BestDeal product={product} links={links} />,
    },
  ];

  const missing = load.asked - products.length;
  const sticky = "sticky left-0 z-10 w-28 min-w-28 bg-white px-3 text-left text-xs font-semibold text-slate-700 sm:w-44 sm:min-w-44 sm:text-sm";
  return (
    <div>
      {missing > 0 && (
        <p role="status" className="mb-4 rounded-lg bg-amber-50 px-4 py-2 text-sm text-amber-900">
          {missing === 1 ? "One product you asked for is" : `${missing} products you asked for are`} no longer listed.
        </p>
      )}
      <AddToBasketButton
        className="mb-4"
        products={products.map((product) => ({ productId: product.id, name: product.name, slug: product.slug, image: product.image }))}
        label={products.length === 1 ? "Add it to your basket" : `Add these ${products.length} to your basket`}
      />
      {/* Narrow screens scroll the products sideways under the row names, which stay in view.
          Positioned, so the screen-reader-only texts inside (absolutely placed) scroll with it
          instead of widening the page. */}
      <div className="card relative overflow-x-auto" role="region" aria-label="Products side by side" tabIndex={0}>
        <table className="w-full border-collapse" data-testid="compare-table">
          <caption className="sr-only">
            {products.length} products compared side by side; the best value of each row is marked.
          </caption>
          <thead>
            <tr>
              <th scope="row" className={cn(sticky, "py-3 align-bottom")}>
                Product
              </th>
              {products.map((product) => (
                <th key={product.id} scope="col" className="min-w-40 px-3 py-3 text-left align-top font-normal sm:min-w-48" data-product-id={product.id}>
                  <div className="flex items-start justify-between gap-2">
                    <img
                      src={product.image || apiPath("/placeholder/120/120")}
                      alt=""
                      width={72}
                      height={72}
                      className="size-16 shrink-0 rounded-md bg-slate-100 object-contain sm:size-18"
                    />
                    <button
                      type="button"
                      onClick={() => remove(product.id)}
                      className="btn-ghost px-2 py-1 text-xs"
                      aria-label={`Remove ${product.name} from comparison`}
                    >
                      <X className="size-4" aria-hidden="true" />
                      <span className="sr-only sm:not-sr-only">Remove</span>
                    </button>
                  </div>
                  <a href={productPath(product.slug)} className="mt-2 line-clamp-3 text-sm font-semibold text-slate-900 hover:text-brand-700 hover:underline">
                    {product.name}
                  </a>
                  {product.brand && <span className="mt-0.5 block text-xs text-slate-600">{product.brand}</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const rowMarks = row.best ? marks[row.best] : null;
              // Tied: another column of the row is marked too (unit prices: another of the same unit).
              const tied = (index: number) =>
                products.some(
                  (other, otherIndex) => otherIndex !== index && rowMarks?.[otherIndex] && (row.best !== "unitPrice" || other.unitPrice?.unit === products[index]!.unitPrice?.unit),
                );
              return (
                <tr key={row.key} data-row={row.key}>
                  <th scope="row" className={cn(sticky, "border-t border-slate-200 py-3 align-top")}>
                    {row.heading}
                  </th>
                  {products.map((product, index) => (
                    <Cell key={product.id} best={rowMarks?.[index] ?? false} tied={tied(index)} label={row.best ? markText(row.best, product) : ""}>
                      {row.render(product)}
                    </Cell>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="mt-3 text-xs text-slate-600">
        Prices are to your door for one unit, delivery included, from the cheapest retailer with it in stock. Per kg, litre and item prices are compared only with the same unit.
      </p>
    </div>
  );
}
