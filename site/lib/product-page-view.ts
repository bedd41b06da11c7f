/**
 * What a product page shows, worked out from the build's bulk read for one product: the best
 * offer, every offer as its row shows it, the was price and saving, the chart, the page's meta
 * and JSON-LD. Pure: the page (site/pages/product/[slug].astro) only lays it out.
 */
import { buildAffiliateUrl } from "../../data/domain/affiliate.ts";
import type { AffiliateIds, Offer, Product, RetailerRef } from "../../data/domain/catalogue.ts";
import type { DealFacts } from "../../data/domain/deal-facts.ts";
import { deliveryText } from "../../data/domain/delivery.ts";
import { formatRating, ratingStars, shownRating } from "../../data/domain/display.ts";
import type { ProductSize } from "../../data/domain/families.ts";
import { isPrescriptionOnly } from "../../data/domain/legal-category.ts";
import { formatPence, type Pence } from "../../data/domain/money.ts";
import { percentOff } from "../../data/domain/percent-off.ts";
import { bestOfferOf, lastSeenOffer, type OfferPricing } from "../../data/domain/offers.ts";
import { categoryPath, homePath, imageFallback, productImage, productPath } from "../../data/domain/paths.ts";
import { fluidChartPadding, pointsToDoor, priceChart, type HistoryPoint, type PriceChart } from "../../data/domain/price-chart.ts";
import { unitPriceOf } from "../../data/domain/product-quantity.ts";
import { formatUnitPrice } from "../../data/domain/unit-price.ts";

/** One product's share of the build's bulk read, and the settings its page depends on. */
export interface ProductPageInput {
  product: Product;
  /** Its item price points over the chart's window, by retailer then time. */
  history: readonly HistoryPoint[];
  /** The sizes of its family ([] when it has no other size). */
  sizes: readonly ProductSize[];
  /** Its offers' pricing inputs (item price, delivery, the retailer's delivery rule). */
  pricing: readonly OfferPricing[];
  /** Its deal facts; undefined when none were worked out. */
  dealFacts: DealFacts | undefined;
  affiliateIds: AffiliateIds;
  /** The build's clock: which offers are fresh, the chart's last day. */
  now: Date;
  /** How long a confirmed price counts as fresh. */
  freshForMs: number;
  /** The chart's window in days. */
  historyDays: number;
  site: { baseUrl: string; siteName: string };
}

/** An offer's retailer link: the same attributes on the best offer's button, the table and the phone list. */
export interface OutboundLink {
  href: string;
  rel: string;
  target: string;
  "data-affiliate": string;
  "data-retailer": string;
  "data-price": string;
}

/** An offer as its table row and phone card show it. */
export interface OfferView {
  offer: Offer;
  /** The best offer's row is marked "Best Price". */
  isBest: boolean;
  link: OutboundLink;
  totalText: string;
  itemText: string;
  /** "+ £3.99 delivery", "Free delivery" or "Delivery not stated". */
  deliveryText: string;
  /** "£5.42 per kg" to the door and of the item alone; null when the pack size is not stated. */
  unitTotalText: string | null;
  unitItemText: string | null;
  /** Its member price beside the standard one, with the scheme named; null: none. */
  member: { scheme: string; itemText: string; totalText: string } | null;
}

export interface ProductPageView {
  /** A prescription-only medicine may not be advertised: no saving, was price, deal panel or price alert. */
  prescriptionOnly: boolean;
  showDealPanel: boolean;
  showPriceAlert: boolean;
  image: string;
  /** The drawn packshot to fall back on when the photo fails; undefined when the picture is the packshot already. */
  imageFallback: string | undefined;
  /** "Save n%" against the was price; null when there is none to show. */
  discount: number | null;
  /** The struck-through was price; null when none is shown. */
  wasPriceText: string | null;
  /** Stars, score and review count, only with reviews behind them. */
  rating: { stars: number; text: string; reviewCountText: string } | null;
  /** The best offer: the lowest total to the door among offers that may be compared. */
  best: (OfferView & { retailer: RetailerRef; priceText: string; deliveryNote: string }) | undefined;
  /** When no offer may be compared: the lowest price last seen. */
  lastSeen: { totalText: string; retailerName: string } | undefined;
  /** Every offer, in the order the table lists them. */
  offers: OfferView[];
  /** "3 UK retailers". */
  retailersText: string;
  /** The unit price column's heading; null when the pack size is not stated. */
  unitHeading: string | null;
  /** Whether any offer has a repeat-delivery price (the table's extra column). */
  hasRepeat: boolean;
  /** The loyalty schemes of the offers' member prices, each once, in the order the offers come: one "I'm a member" choice each. */
  memberSchemes: string[];
  chart: PriceChart;
  /** The alert form's hint: the lowest price before today in the deal window. */
  lowestBeforeTodayPence: Pence | null;
  meta: { title: string; fullTitle: string; description: string; canonicalPath: string };
  jsonLd: Record<string, unknown>;
}

/** Prices in JSON-LD and data attributes: "12.99". */
const decimal = (pence: Pence) => (pence / 100).toFixed(2);

export function productPageView(input: ProductPageInput): ProductPageView {
  const { product, now, site } = input;
  // Prices to the door, as the retailer table ranks them: each recorded item price with the delivery it carries.
  const chart = priceChart(pointsToDoor(input.history, input.pricing), {
    now,
    days: input.historyDays,
    width: 720,
    height: 240,
    padding: fluidChartPadding,
  });

  const image = productImage(product);
  const absolute = (path: string) => new URL(path, `${site.baseUrl}/`).href;
  const pageUrl = absolute(productPath(product.slug));

  const offers = product.prices;
  const offerTotal = (offer: Offer) => offer.totalPence;
  // The best offer: the lowest total to the door among the offers that may be compared (the rule the product's best price follows).
  const bestOffer: Offer | undefined = bestOfferOf(offers, now, { totalOf: offerTotal, freshForMs: input.freshForMs }) ?? undefined;
  const bestRetailer = bestOffer?.retailer ?? product.bestRetailer;
  // A prescription-only medicine (POM-V, POM-VPS) may not be advertised: its page is a plain price
  // list saying "Prescription needed", with no saving, was price, deal panel or price alert.
  const prescriptionOnly = isPrescriptionOnly(product.legalCategory);
  const discount = prescriptionOnly ? null : percentOff(product.originalPricePence, product.bestPricePence);
  const bestPriceText = product.bestPricePence === null ? "N/A" : formatPence(product.bestPricePence);
  // Stars, score and aggregateRating only with reviews behind them (shownRating).
  const rating = shownRating(product.rating, product.reviewCount);
  const ratingText = formatRating(rating);
  // "12,345": thousands separators without building an Intl formatter for every page.
  const reviewCountText = String(product.reviewCount).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const retailerCount = new Set(offers.map((offer) => offer.retailerId)).size;
  const retailersText = `${retailerCount} UK ${retailerCount === 1 ? "retailer" : "retailers"}`;
  /** "£5.42 per kg" of a price for this product's pack; null when its size is not stated. */
  const unitText = (pence: Pence) => {
    const price = unitPriceOf(pence, product.packSize);
    return price === null ? null : formatUnitPrice(price);
  };
  const unitHeading = product.packSize === null ? null : { kg: "Per kg", l: "Per litre", item: "Per item" }[product.packSize.unit];
  // No offer may be compared: the lowest price last seen (of tied offers the one listed first).
  const lastSeen = bestOffer === undefined ? (lastSeenOffer(offers, offerTotal) ?? undefined) : undefined;

  const offerView = (offer: Offer): OfferView => ({
    offer,
    isBest: offer === bestOffer,
    link: {
      href: buildAffiliateUrl(offer.retailer.key, offer.url, input.affiliateIds, site.siteName),
      rel: "sponsored noopener",
      target: "_blank",
      "data-affiliate": "",
      "data-retailer": offer.retailer.name,
      "data-price": decimal(offer.totalPence),
    },
    totalText: formatPence(offer.totalPence),
    itemText: formatPence(offer.pricePence),
    deliveryText: deliveryText(offer.deliveryPence),
    unitTotalText: unitText(offer.totalPence),
    unitItemText: unitText(offer.pricePence),
    member:
      offer.memberPricePence === null || offer.memberScheme === null || offer.memberTotalPence === null
        ? null
        : { scheme: offer.memberScheme, itemText: formatPence(offer.memberPricePence), totalText: formatPence(offer.memberTotalPence) },
  });
  const offerViews = offers.map(offerView);
  const bestView = offerViews.find((view) => view.isBest);

  const description = bestOffer
    ? `Compare ${product.name} prices from ${retailersText}: best price ${bestPriceText} at ${bestOffer.retailer.name}.`
    : `Compare ${product.name} prices from ${retailersText}. Currently out of stock at all retailers.`;

  // Prices to the door, as the page compares them.
  const offerPrices = offers.map((offer) => offer.totalPence);
  const jsonLd = {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "Product",
        "@id": `${pageUrl}#product`,
        name: product.name,
        description: product.description || undefined,
        image: absolute(image),
        sku: String(product.id),
        url: pageUrl,
        brand: product.brand ? { "@type": "Brand", name: product.brand } : undefined,
        category: product.category.name,
        aggregateRating:
          rating !== null
            ? { "@type": "AggregateRating", ratingValue: ratingText, reviewCount: product.reviewCount, bestRating: "5", worstRating: "0" }
            : undefined,
        offers:
          offers.length > 0
            ? {
                "@type": "AggregateOffer",
                priceCurrency: "GBP",
                lowPrice: decimal(product.bestPricePence ?? Math.min(...offerPrices)),
                highPrice: decimal(Math.max(...offerPrices)),
                offerCount: offers.length,
                availability: bestOffer ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
              }
            : undefined,
      },
      {
        "@type": "BreadcrumbList",
        itemListElement: [
          { "@type": "ListItem", position: 1, name: "Home", item: absolute(homePath) },
          { "@type": "ListItem", position: 2, name: product.category.name, item: absolute(categoryPath(product.category.slug)) },
          { "@type": "ListItem", position: 3, name: product.name, item: pageUrl },
        ],
      },
    ],
  };

  const delivery = bestOffer?.deliveryPence ?? null;
  return {
    prescriptionOnly,
    showDealPanel: !prescriptionOnly,
    showPriceAlert: !prescriptionOnly,
    image,
    imageFallback: imageFallback(product),
    discount,
    wasPriceText: product.originalPricePence !== null && discount !== null ? formatPence(product.originalPricePence) : null,
    rating: rating === null ? null : { stars: ratingStars(rating), text: ratingText, reviewCountText },
    best:
      bestView && bestRetailer
        ? {
            ...bestView,
            retailer: bestRetailer,
            priceText: bestPriceText,
            // After "Total to your door: £12.99 item".
            deliveryNote: delivery === null ? "(delivery not stated)" : delivery === 0 ? "with free delivery" : `+ ${formatPence(delivery)} delivery`,
          }
        : undefined,
    lastSeen: lastSeen && { totalText: formatPence(lastSeen.totalPence), retailerName: lastSeen.retailer.name },
    offers: offerViews,
    retailersText,
    unitHeading,
    hasRepeat: offers.some((offer) => offer.repeatPricePence !== null),
    memberSchemes: [...new Set(offerViews.flatMap((view) => (view.member === null ? [] : [view.member.scheme])))],
    chart,
    lowestBeforeTodayPence: prescriptionOnly ? null : (input.dealFacts?.lowestBeforeTodayPence ?? null),
    meta: { title: product.name, fullTitle: `${product.name} - ${site.siteName}`, description, canonicalPath: productPath(product.slug) },
    jsonLd,
  };
}
