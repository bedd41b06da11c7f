// First: nothing here builds a schema, but the shared API helpers may (CSP without eval).
import "../../lib/zod-jitless.ts";
import { useStore } from "@nanostores/react";
import { ExternalLink, Minus, Plus, ShoppingBasket, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { buildAffiliateUrl } from "../../../data/domain/affiliate.ts";
import type { BasketOrderJson, BasketPlanJson } from "../../../data/domain/basket-json.ts";
import { basketLimits } from "../../../data/domain/limits.ts";
import { formatPence, fromPounds } from "../../../data/domain/money.ts";
import { categoryPath, comparePath, favoritesPath, productPath } from "../../../data/domain/paths.ts";
import type { BasketQuoteResponse } from "../../../api/http/responses.ts";
import { api, ApiError } from "../../lib/api.ts";
import { logClick } from "../../lib/browser/clicks.ts";
import type { LinkContext } from "../products/ProductCard.tsx";
import { $basket, loadBasket, removeFromBasket, setBasketQuantity, setBasketRepeat, type BasketItem } from "./basket.store.ts";

type Quote = { status: "idle" } | { status: "loading" } | { status: "ready"; quote: BasketQuoteResponse } | { status: "error"; message: string };

const pounds = (value: number) => formatPence(fromPounds(value));
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** How long the basket must stay unchanged before it is quoted (typing a quantity is one change). */
const quoteDelayMs = 250;

function QuantityControl({ item }: { item: BasketItem }) {
  const [text, setText] = useState(String(item.quantity));
  useEffect(() => setText(String(item.quantity)), [item.quantity]);
  const commit = () => {
    const value = Number(text);
    if (Number.isInteger(value) && value >= 1) setBasketQuantity(item.productId, value);
    else setText(String(item.quantity));
  };
  return (
    <div className="inline-flex items-center rounded-lg border border-slate-300" role="group" aria-label={`Quantity of ${item.name}`}>
      <button
        type="button"
        className="grid size-9 place-items-center text-slate-700 hover:bg-slate-100 disabled:text-slate-300"
        onClick={() => setBasketQuantity(item.productId, item.quantity - 1)}
        disabled={item.quantity <= 1}
        aria-label="One fewer"
      >
        <Minus className="size-4" aria-hidden="true" />
      </button>
      <input
        type="number"
        inputMode="numeric"
        min={1}
        max={basketLimits.quantity}
        className="h-9 w-12 border-x border-slate-300 text-center text-sm font-semibold tabular-nums"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === "Enter") commit();
        }}
        aria-label="Quantity"
      />
      <button
        type="button"
        className="grid size-9 place-items-center text-slate-700 hover:bg-slate-100 disabled:text-slate-300"
        onClick={() => setBasketQuantity(item.productId, item.quantity + 1)}
        disabled={item.quantity >= basketLimits.quantity}
        aria-label="One more"
      >
        <Plus className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

function BasketItems({ items }: { items: BasketItem[] }) {
  return (
    <ul className="divide-y divide-slate-200" data-testid="basket-items">
      {items.map((item) => (
        <li key={item.productId} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3" data-testid="basket-item">
          <a href={productPath(item.slug)} className="min-w-0 flex-1 basis-56 font-medium text-slate-900 hover:text-brand-700">
            {item.name}
          </a>
          <QuantityControl item={item} />
          <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" className="size-4 accent-brand-700" checked={item.repeat} onChange={(event) => setBasketRepeat(item.productId, event.target.checked)} />
            Repeat delivery
          </label>
          <button
            type="button"
            className="inline-flex items-center gap-1 rounded-lg px-2 py-1.5 text-sm text-slate-600 hover:bg-slate-100 hover:text-red-700"
            onClick={() => removeFromBasket([item.productId])}
          >
            <Trash2 className="size-4" aria-hidden="true" />
            Remove<span className="sr-only"> {item.name}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function deliveryWords(order: BasketOrderJson): string {
  if (order.delivery === null) return "Delivery not stated";
  if (order.delivery === 0) return "Free delivery";
  return `${pounds(order.delivery)} delivery`;
}

function Order({ order, names, links }: { order: BasketOrderJson; names: Map<number, string>; links: LinkContext }) {
  return (
    <li className="rounded-xl border border-slate-200 p-4" data-testid="basket-order" data-retailer={order.retailer.name}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex items-center gap-3 font-semibold text-slate-900">
          <img src={order.retailer.logo} alt="" width="96" height="32" className="retailer-logo" />
          {order.retailer.name}
        </span>
        <span className="text-lg font-bold text-slate-900 tabular-nums" data-testid="order-total">
          {pounds(order.total)}
        </span>
      </div>
      <ul className="mt-3 space-y-2">
        {order.lines.map((line) => {
          const name = names.get(line.productId) ?? "";
          const href = buildAffiliateUrl(order.retailer.key, line.url, links.affiliateIds, links.siteName);
          return (
            <li key={line.productId} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm" data-testid="order-line">
              <span className="min-w-0 flex-1 basis-48 text-slate-800">
                {line.quantity} × {name}
                <span className="block text-xs text-slate-600">
                  {pounds(line.unitPrice)} each{line.repeat ? " on repeat delivery" : ""}
                  {line.multiBuySaving > 0 && `, ${pounds(line.multiBuySaving)} off with the multi-buy`}
                </span>
              </span>
              <span className="font-semibold text-slate-900 tabular-nums">{pounds(line.linePrice)}</span>
              <a
                href={href}
                target="_blank"
                rel="sponsored noopener"
                className="btn-outline px-3 py-1.5 text-xs"
                onClick={() => logClick({ retailer: order.retailer.name, productName: name, productId: line.productId, price: line.unitPrice, url: href })}
              >
                Buy at {order.retailer.name}
                <ExternalLink className="size-3.5" aria-hidden="true" />
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          );
        })}
      </ul>
      <p className="mt-3 border-t border-slate-100 pt-2 text-sm text-slate-700">
        Items {pounds(order.items)} · <span data-testid="order-delivery">{deliveryWords(order)}</span>
        {order.toFreeDelivery !== null && <span className="block text-xs text-slate-600">Spend {pounds(order.toFreeDelivery)} more here for free delivery ({order.retailer.deliveryRule}).</span>}
      </p>
    </li>
  );
}

function Plan({ title, plan, names, links, testId }: { title: string; plan: BasketPlanJson; names: Map<number, string>; links: LinkContext; testId: string }) {
  const shops = plan.orders.length;
  return (
    <section className="card p-5 sm:p-6" aria-label={title} data-testid={testId}>
      <h2 className="text-lg font-bold text-slate-900">{title}</h2>
      <p className="mt-1 text-sm text-slate-700">
        <strong className="text-2xl font-extrabold text-slate-900 tabular-nums" data-testid="plan-total">
          {pounds(plan.total)}
        </strong>{" "}
        to your door from {plural(shops, "shop")}: items {pounds(plan.items)}, delivery {pounds(plan.delivery)}
        {plan.deliveryUnknown && " (one shop's delivery is not stated, so it is not included)"}.
      </p>
      <ul className="mt-4 space-y-3">
        {plan.orders.map((order) => (
          <Order key={order.retailer.id} order={order} names={names} links={links} />
        ))}
      </ul>
    </section>
  );
}

function Summary({ quote }: { quote: BasketQuoteResponse }) {
  const { cheapest, singleShop, saving } = quote;
  if (!cheapest) return null;
  let text: string;
  if (singleShop === null) text = `No single shop has everything in stock: the cheapest way is ${pounds(cheapest.total)} across ${plural(cheapest.orders.length, "shop")}.`;
  else if (saving !== null && saving > 0) text = `Splitting your basket saves ${pounds(saving)} on the cheapest single shop, ${singleShop.orders[0]!.retailer.name} at ${pounds(singleShop.total)}.`;
  else text = `Everything from ${singleShop.orders[0]!.retailer.name} is the cheapest way: ${pounds(singleShop.total)} to your door.`;
  return (
    <p className="rounded-xl bg-brand-50 px-4 py-3 text-base font-semibold text-brand-900" data-testid="basket-summary" role="status">
      {text}
    </p>
  );
}

export default function BasketPage({ categories, links }: { categories: { name: string; slug: string }[]; links: LinkContext }) {
  const items = useStore($basket);
  const [loaded, setLoaded] = useState(false);
  const [quote, setQuote] = useState<Quote>({ status: "idle" });
  const asked = useRef(0);

  useEffect(() => {
    loadBasket();
    setLoaded(true);
  }, []);

  const key = JSON.stringify(items.map(({ productId, quantity, repeat }) => [productId, quantity, repeat]));
  useEffect(() => {
    if (!loaded || items.length === 0) {
      setQuote({ status: "idle" });
      return;
    }
    const ask = ++asked.current;
    setQuote((current) => (current.status === "ready" ? current : { status: "loading" }));
    const timer = setTimeout(() => {
      api
        .post<BasketQuoteResponse>("/api/basket/quote", { lines: items.map(({ productId, quantity, repeat }) => ({ productId, quantity, repeat })) })
        .then((answer) => {
          if (ask !== asked.current) return;
          setQuote({ status: "ready", quote: answer });
          // Products no longer listed leave the basket.
          if (answer.removed.length > 0) removeFromBasket(answer.removed);
        })
        .catch((error: unknown) => {
          if (ask !== asked.current) return;
          const message = error instanceof ApiError && error.status === 429 ? "Too many quotes at once: try again in a minute." : "We couldn't work out your basket just now. Please try again.";
          setQuote({ status: "error", message });
        });
    }, quoteDelayMs);
    return () => clearTimeout(timer);
    // The key stands for the lines asked about; names and pictures do not change the quote.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, loaded]);

  if (!loaded) return <p className="text-slate-600">Loading your basket…</p>;
  if (items.length === 0) {
    return (
      <div className="card p-6 text-center sm:p-10" data-testid="basket-empty">
        <ShoppingBasket className="mx-auto size-10 text-slate-400" aria-hidden="true" />
        <h2 className="mt-3 text-xl font-bold text-slate-900">Your basket is empty</h2>
        <p className="mt-2 text-slate-700">
          Add products from your <a href={comparePath([])} className="font-medium text-brand-700 underline">compare list</a> or your{" "}
          <a href={favoritesPath} className="font-medium text-brand-700 underline">favourites</a>, and we'll find the cheapest way to buy them all, delivery included.
        </p>
        {categories.length > 0 && (
          <p className="mt-4 text-sm text-slate-700">
            Or browse:{" "}
            {categories.map((category, index) => (
              <span key={category.slug}>
                {index > 0 && ", "}
                <a href={categoryPath(category.slug)} className="text-brand-700 underline">
                  {category.name}
                </a>
              </span>
            ))}
          </p>
        )}
      </div>
    );
  }

  const ready = quote.status === "ready" ? quote.quote : null;
  const names = new Map((ready?.products ?? items.map((item) => ({ id: item.productId, name: item.name }))).map((product) => [product.id, product.name]));
  const unavailable = ready ? items.filter((item) => ready.unavailable.includes(item.productId)) : [];

  return (
    <>
      {/* Above the basket on every screen: on a phone the plans come after the whole basket. */}
      {ready && <Summary quote={ready} />}
      <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section className="card self-start p-5 sm:p-6" aria-labelledby="basket-items-heading">
          <h2 id="basket-items-heading" className="text-lg font-bold text-slate-900">
            Your basket ({plural(items.length, "product")})
          </h2>
          <BasketItems items={items} />
          <p className="mt-3 text-xs text-slate-600">Kept in this browser only. Repeat delivery uses a retailer's repeat price where it has one.</p>
        </section>
        <div className="space-y-4" aria-live="polite" aria-busy={quote.status === "loading"}>
          {quote.status === "loading" && <p className="text-slate-600">Finding the cheapest way to buy your basket…</p>}
          {quote.status === "error" && (
            <p className="rounded-lg bg-red-50 px-4 py-3 text-red-800" role="alert">
              {quote.message}
            </p>
          )}
          {ready && (
            <>
              {unavailable.length > 0 && (
                <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="basket-unavailable">
                  Not in stock at any retailer right now, so left out: {unavailable.map((item) => item.name).join(", ")}.
                </p>
              )}
              {ready.cheapest && <Plan title="Cheapest way to buy it all" plan={ready.cheapest} names={names} links={links} testId="plan-cheapest" />}
              {ready.singleShop && ready.saving !== null && ready.saving > 0 && (
                <Plan title="Cheapest from one shop" plan={ready.singleShop} names={names} links={links} testId="plan-single" />
              )}
              {ready.cheapest && !ready.exact && (
                <p className="text-xs text-slate-600" data-testid="basket-heuristic">
                  With more than 8 products or retailers we search the likeliest splits rather than every one: no split can cost less than{" "}
                  {pounds(ready.lowerBound)}.
                </p>
              )}
              <p className="text-xs text-slate-600">
                Prices to your door: items plus each shop's standard delivery on its order (free over its threshold), from in-stock offers at current prices.
                Retailer links are affiliate links: we may earn a commission, at no extra cost to you.
              </p>
            </>
          )}
        </div>
      </div>
    </>
  );
}
