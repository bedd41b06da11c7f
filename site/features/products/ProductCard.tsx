import { useStore } from "@nanostores/react";
import { Check, ExternalLink, Plus } from "lucide-react";
import { buildAffiliateUrl } from "../../../data/domain/affiliate.ts";
import type { AffiliateIds } from "../../../data/domain/catalogue.ts";
import { discountPercent, formatPrice, formatRating, ratingStars, shownRating } from "../../../data/domain/display.ts";
import { prescriptionNeededText } from "../../../data/domain/legal-category.ts";
import { imageFallback, productImage, productPath } from "../../../data/domain/paths.ts";
import type { PackSize } from "../../../data/domain/product-quantity.ts";
import { formatUnitPrice, unitPrice } from "../../../data/domain/unit-price.ts";
import { fromPounds } from "../../../data/domain/money.ts";
import { logClick } from "../../lib/browser/clicks.ts";
import { showFallbackImage } from "../../lib/browser/image-fallback.ts";
import { useIsClient } from "../../lib/browser/use-is-client.ts";
import { cn } from "../../lib/cn.ts";
import { $compareItems, addProductToCompare } from "../compare/compare.store.ts";
import { SaveToggle } from "../favorites/SaveToggle.tsx";
import { recordView } from "../recently-viewed/record-view.ts";
import { toast } from "../toast/toast.store.ts";
import { cardOfferCount, toCompareEntry, type CardProduct } from "./card-product.ts";

export interface LinkContext {
  affiliateIds: AffiliateIds;
  siteName: string;
}

/**
 * The product's own image; its packshot when it has none or its own fails to load, as on the
 * product page: the static card carries the fallback in data-fallback-src, which the page's
 * script (enhanceImageFallbacks) uses before the grid has hydrated, and React's onError after.
 */
function ProductImage({ product }: { product: CardProduct }) {
  const fallback = imageFallback(product);
  return (
    <img
      src={productImage(product)}
      data-fallback-src={fallback}
      alt={product.name}
      width={400}
      height={400}
      loading="lazy"
      decoding="async"
      onError={fallback === undefined ? undefined : (event) => showFallbackImage(event.currentTarget, fallback)}
      className="aspect-square w-full rounded-l-xl bg-slate-100 object-contain p-2 min-[480px]:rounded-t-xl min-[480px]:rounded-l-none min-[480px]:p-4"
    />
  );
}

/**
 * A rating star: Lucide's star outline drawn with a shorter path and only the attributes it
 * needs (cards draw five each, 75 on the home page).
 */
const starPath = "M12 2.5l2.94 5.96 6.58.96-4.76 4.64 1.12 6.55L12 17.52l-5.88 3.09 1.12-6.55-4.76-4.64 6.58-.96z";
function Star({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" className={filled ? "size-3.5 fill-amber-400 text-amber-400" : "size-3.5 text-slate-300"} fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" aria-hidden="true">
      <path d={starPath} />
    </svg>
  );
}

/** "£5.42 per kg" for a price in pounds and the card's pack size. */
function cardUnitText(pounds: number, pack: PackSize): string | null {
  const price = unitPrice(fromPounds(pounds), pack);
  return price === null ? null : formatUnitPrice(price);
}

/** A product card: links to the product page; View Best Deal goes to the best offer. */
export function ProductCard({ product, links, petName }: { product: CardProduct; links: LinkContext; petName?: string | undefined }) {
  // The compare tray lives in session storage, which the static HTML cannot know.
  const comparing = useStore($compareItems);
  const compared = useIsClient() && comparing.some((item) => item.id === product.id);
  const discount = discountPercent(product.originalPrice, product.bestPrice);
  // Stars and a score only with reviews behind them.
  const rating = shownRating(product.rating, product.reviewCount);
  const retailerName = product.bestRetailer ?? "Unknown";
  const bestDealUrl = product.bestDeal ? buildAffiliateUrl(product.bestDeal.retailerKey, product.bestDeal.url, links.affiliateIds, links.siteName) : null;

  const compare = () => {
    if (compared) return;
    const result = addProductToCompare(toCompareEntry(product));
    if (result === "full") toast({ title: "Compare tray is full", description: "Remove a product to add another (up to 4).", variant: "destructive" });
  };

  return (
    <article className="card group flex h-full flex-row transition-shadow hover:shadow-md min-[480px]:flex-col" data-testid="product-card">
      <div className="relative w-28 shrink-0 self-start min-[480px]:w-auto min-[480px]:self-auto">
        <a href={productPath(product.slug)} tabIndex={-1} aria-hidden="true">
          <ProductImage product={product} />
        </a>
        {/* On a phone the image is 112 px wide: the badge sits at its foot, clear of the Save heart at the top. */}
        {discount !== null && (
          <span className="absolute bottom-2 left-2 rounded-full bg-red-700 px-2 py-0.5 text-xs font-bold text-white min-[480px]:top-3 min-[480px]:bottom-auto min-[480px]:left-3 min-[480px]:px-2.5 min-[480px]:py-1">
            Save {discount}%
          </span>
        )}
        <SaveToggle productId={product.id} productName={product.name} />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-2 p-3 min-[480px]:p-4">
        {product.brand && <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">{product.brand}</p>}
        <h3 className="line-clamp-2 min-h-[2.5rem] text-sm leading-5 font-semibold text-slate-900">
          <a href={productPath(product.slug)} className="hover:text-brand-700 hover:underline">
            {product.name}
          </a>
        </h3>
        {rating === null ? (
          <p className="text-xs text-slate-600">No reviews yet</p>
        ) : (
          <div className="flex items-center gap-1 text-xs text-slate-600" aria-label={`Rated ${formatRating(rating)} out of 5 from ${product.reviewCount} reviews`}>
            {Array.from({ length: 5 }, (_, i) => (
              <Star key={i} filled={i < ratingStars(rating)} />
            ))}
            <span className="ml-1">
              {formatRating(rating)} ({product.reviewCount.toLocaleString("en-GB")})
            </span>
          </div>
        )}
        {product.prescriptionOnly && (
          <p className="self-start rounded bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-200" data-testid="card-prescription">
            {prescriptionNeededText}
          </p>
        )}
        {product.bestPrice === null ? (
          <div className="mt-auto" data-testid="card-out-of-stock">
            <p className="text-sm font-semibold text-slate-900">Out of stock at every retailer</p>
            {product.lastSeenPrice !== null && <p className="text-xs text-slate-600">Last seen at {formatPrice(product.lastSeenPrice)}</p>}
          </div>
        ) : (
          <div className="mt-auto">
            {/* Always the price to the door: the product page alone offers item prices. */}
            <p className="text-xs text-slate-600">Best price to your door</p>
            <p className="flex items-baseline gap-2">
              <span className="text-2xl font-extrabold text-slate-900" data-testid="card-best-price">{formatPrice(product.bestPrice)}</span>
              {product.originalPrice !== null && discount !== null && (
                <span className="text-sm text-slate-500">
                  <span className="sr-only">was </span>
                  <s>{formatPrice(product.originalPrice)}</s>
                </span>
              )}
            </p>
            {petName !== undefined && typeof product.costPerDay === "number" && (
              <p className="text-sm font-semibold text-emerald-800" data-testid="card-cost-per-day">
                {formatPrice(product.costPerDay)} a day for {petName}
              </p>
            )}
            {product.packSize && (
              <p className="text-sm font-semibold text-slate-900" data-testid="card-unit-price">
                {cardUnitText(product.bestPrice, product.packSize)}
              </p>
            )}
            <p className="text-xs text-slate-600">
              at {retailerName}
              {" · "}
              {product.bestDelivery === null ? "delivery not stated" : product.bestDelivery === 0 ? "free delivery" : `incl. ${formatPrice(product.bestDelivery)} delivery`}
            </p>
          </div>
        )}
        {product.offers.length > 0 && (
          <ul className="hidden space-y-1 border-t border-slate-100 pt-2 text-xs min-[480px]:block" aria-label="Prices at other retailers">
            {product.offers.map((offer) => (
              <li key={offer.retailerName} className="flex items-center justify-between gap-2">
                <span className="flex min-w-0 items-center gap-1.5 text-slate-700">
                  <img src={offer.retailerLogo} alt="" width={40} height={12} className="h-3 w-10 object-contain object-left" loading="lazy" />
                  <span className="truncate">{offer.retailerName}</span>
                </span>
                {offer.inStock ? (
                  <span className="font-semibold text-slate-900">{formatPrice(offer.total)}</span>
                ) : (
                  // Not struck through: a struck-through price reads as a "was" price.
                  <span className="text-slate-600">{formatPrice(offer.total)} Out of stock</span>
                )}
              </li>
            ))}
            {product.offerCount > cardOfferCount && <li className="text-slate-600">+{product.offerCount - cardOfferCount} more retailers</li>}
          </ul>
        )}
        <div className="mt-2 flex gap-2">
          {bestDealUrl ? (
            <a
              href={bestDealUrl}
              target="_blank"
              rel="sponsored noopener"
              className="btn-deal flex-1 px-3 whitespace-nowrap"
              onClick={() => {
                logClick({ retailer: retailerName, productName: product.name, productId: product.id, price: product.bestPrice, url: bestDealUrl });
                recordView(product.id);
              }}
            >
              View Best Deal <ExternalLink className="size-3.5" aria-hidden="true" />
            </a>
          ) : (
            <a href={productPath(product.slug)} className="btn-outline flex-1 px-3">
              See prices
            </a>
          )}
          {/* Once added it is aria-disabled, not disabled: a disabled button would drop the keyboard's focus to the page. */}
          <button
            type="button"
            onClick={compare}
            aria-disabled={compared || undefined}
            className={cn("btn-outline px-3", compared && "cursor-default border-emerald-600 text-emerald-800")}
            aria-label={compared ? `${product.name} is in the comparison` : `Add ${product.name} to compare`}
            title={compared ? "In comparison" : "Add to compare"}
          >
            {compared ? <Check className="size-4" aria-hidden="true" /> : <Plus className="size-4" aria-hidden="true" />}
            <span className="sr-only sm:not-sr-only">{compared ? "Added" : "Compare"}</span>
          </button>
        </div>
        {bestDealUrl && <p className="affiliate-label text-center">Affiliate link: we may earn a commission</p>}
      </div>
    </article>
  );
}
