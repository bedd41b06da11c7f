import { Check, Copy, ExternalLink, Ticket } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { buildAffiliateUrl } from "../../../data/domain/affiliate.ts";
import type { Voucher } from "../../../data/domain/catalogue.ts";
import { fetchVouchers } from "../../lib/api.ts";
import { logClick } from "../../lib/browser/clicks.ts";
import { getVisitorId } from "../../lib/browser/visitor.ts";
import type { LinkContext } from "../products/ProductCard.tsx";

type Tab = "active" | "popular";

interface Props {
  /** The first page of the Active tab, rendered into the static HTML. */
  initialVouchers: Voucher[];
  initialTotal: number;
  /** The retailers the filter offers, in their order. */
  retailers: string[];
  pageSize: number;
  links: LinkContext;
}

const expiryFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
/** The copy confirmation shows for 3 seconds. */
const copiedForMs = 3000;

function VoucherCard({ voucher, links }: { voucher: Voucher; links: LinkContext }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const href = buildAffiliateUrl(voucher.retailer, voucher.url, links.affiliateIds, links.siteName);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(voucher.code);
    } catch {
      // Clipboard blocked (no permission or not a secure context): the code stays visible to copy by hand.
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), copiedForMs);
    void fetch(`/api/vouchers/${voucher.id}/uses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: getVisitorId() }),
      keepalive: true,
    }).catch(() => undefined);
  };

  return (
    <li className="card flex flex-col p-5" data-testid="voucher">
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="text-sm font-semibold text-slate-900">{voucher.retailer}</p>
          <p className="mt-1 text-sm text-slate-700">{voucher.description}</p>
        </div>
        <span className="shrink-0 rounded-lg bg-amber-100 px-2.5 py-1 text-sm font-bold text-amber-900">
          {/^\d/.test(voucher.discount) || voucher.discount.startsWith("£") ? `${voucher.discount} OFF` : voucher.discount}
        </span>
      </div>
      <div className="mt-4 flex items-stretch gap-2">
        <code className="flex flex-1 items-center rounded-lg border-2 border-dashed border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm font-bold tracking-wider text-slate-900">
          {voucher.code}
        </code>
        <button type="button" onClick={() => void copy()} className="btn-outline" aria-label={copied ? `Code ${voucher.code} copied` : `Copy code ${voucher.code}`}>
          {copied ? <Check className="size-4 text-emerald-700" aria-hidden="true" data-testid="copied-icon" /> : <Copy className="size-4" aria-hidden="true" />}
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <div className="mt-4 flex items-center justify-between gap-2 text-xs text-slate-600">
        <span>{voucher.isValid ? `Expires ${expiryFormat.format(new Date(`${voucher.expiryDate}T00:00:00Z`))}` : "Expired"}</span>
        <a
          href={href}
          target="_blank"
          rel="sponsored noopener"
          className="inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline"
          onClick={() => logClick({ retailer: voucher.retailer, productName: `Voucher ${voucher.code}`, price: null, url: href })}
        >
          Shop at {voucher.retailer} <ExternalLink className="size-3.5" aria-hidden="true" />
          <span className="sr-only">(affiliate link, opens in a new tab)</span>
        </a>
      </div>
    </li>
  );
}

/** Vouchers: Active / Popular tabs, retailer filter, Load more. */
export default function Vouchers(props: Props) {
  const [tab, setTab] = useState<Tab>("active");
  const [retailer, setRetailer] = useState("all");
  const [vouchers, setVouchers] = useState(props.initialVouchers);
  const [total, setTotal] = useState(props.initialTotal);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const request = useRef(0);
  const root = useRef<HTMLDivElement>(null);

  /** `quiet`: a refresh the visitor did not ask for, which leaves the controls usable. */
  const load = async (nextTab: Tab, nextRetailer: string, offset: number, quiet = false) => {
    const id = ++request.current;
    if (!quiet) setLoading(true);
    try {
      const result = await fetchVouchers({
        status: "active",
        sort: nextTab === "popular" ? "popular" : "expiry",
        retailer: nextRetailer === "all" ? undefined : nextRetailer,
        offset,
        limit: props.pageSize,
      });
      if (id !== request.current) return;
      setVouchers((current) => (offset === 0 ? result.vouchers : [...current, ...result.vouchers]));
      setTotal(result.total);
      setFailed(false);
    } catch (error) {
      console.error("Could not load vouchers", error);
      if (id === request.current) setFailed(true);
    } finally {
      if (id === request.current) setLoading(false);
    }
  };

  // The static list was built earlier: refresh it so an expired code never shows as active. A
  // visitor who already clicked (a tab, a retailer, Load more) before this effect ran has asked
  // for fresh vouchers themselves; refreshing now would throw their answer away. Quietly: a tap
  // made before the island was live is replayed next (client:interaction) and must find Load
  // more enabled; whatever it loads supersedes this refresh.
  useEffect(() => {
    if (request.current === 0) void load("active", "all", 0, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Live now: the page's hydration directive replays what the visitor tapped before this moment.
  useEffect(() => {
    root.current?.dispatchEvent(new Event("pawprice:island-ready", { bubbles: true }));
  }, []);

  const list = (
    <>
      {failed && vouchers.length === 0 ? (
        <p className="py-10 text-center text-slate-700">We couldn't load vouchers just now. Please try again later.</p>
      ) : vouchers.length === 0 && !loading ? (
        <p className="py-10 text-center text-slate-700">No vouchers right now for this retailer. Check back soon.</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy={loading}>
          {vouchers.map((voucher) => (
            <VoucherCard key={voucher.id} voucher={voucher} links={props.links} />
          ))}
        </ul>
      )}
      {vouchers.length < total && (
        <div className="mt-6 text-center">
          <button type="button" className="btn-outline" disabled={loading} onClick={() => void load(tab, retailer, vouchers.length)}>
            {loading ? "Loading..." : "Load more vouchers"}
          </button>
        </div>
      )}
    </>
  );

  return (
    <div ref={root}>
      <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
        {/* Two views of one list: a segmented toggle (aria-pressed), not a tab panel set. */}
        <div role="group" aria-label="Voucher list" className="inline-flex rounded-lg bg-slate-200 p-1">
          {(["active", "popular"] as const).map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={tab === value}
              onClick={() => {
                if (value === tab) return;
                setTab(value);
                void load(value, retailer, 0);
              }}
              className="rounded-md px-4 py-1.5 text-sm font-semibold text-slate-700 aria-pressed:bg-white aria-pressed:text-slate-900 aria-pressed:shadow-sm"
            >
              {value === "active" ? "Active" : "Popular"}
            </button>
          ))}
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor="voucher-retailer" className="text-sm font-medium text-slate-700">
            Retailer
          </label>
          <select
            id="voucher-retailer"
            value={retailer}
            onChange={(event) => {
              setRetailer(event.target.value);
              void load(tab, event.target.value, 0);
            }}
            className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
          >
            <option value="all">All retailers</option>
            {props.retailers.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {list}
      <p className="mt-6 flex items-start gap-2 text-xs leading-5 text-slate-600">
        <Ticket className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Codes are checked regularly but retailers can withdraw them at any time. When you shop through our links we may earn a
        commission from the retailer, at no extra cost to you.
      </p>
    </div>
  );
}
