/**
 * The catalogue and visitor-data schema.
 *
 * Money is integer pence in every `*_pence` column; timestamps are ISO-8601 UTC strings, which
 * sort correctly as text and carry over unchanged to PostgreSQL later.
 */
import { sql, type SQLWrapper } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { legalCategories } from "../domain/legal-category.ts";
import { alertKinds, alertKindsTaking, maxDropPercent, minDropPercent } from "../domain/alerts.ts";

/** SQL default so raw inserts (seed, triggers) get the same ISO-8601 UTC text as drizzle's. */
const isoNow = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
/** A timestamp column defaulting to now; generic so the row types in rows.ts know its SQL name. */
const createdAt = <Name extends string>(name: Name) => text(name).notNull().default(isoNow);

/**
 * Sort keys shared by the indexes below and the queries in data/db/products.ts (SQLite uses an
 * expression index only when the ORDER BY spells the same expression). Products with no best
 * price (nothing in stock) sort last by price. The savings key is the exact saved share, for
 * ordering only: a percentage shown is percentOff's (data/domain/percent-off.ts), never computed here.
 */
export const noPriceSortKey = Number.MAX_SAFE_INTEGER;
export const priceAscKey = (bestPrice: SQLWrapper) => sql`coalesce(${bestPrice}, ${sql.raw(String(noPriceSortKey))})`;
export const savingsKey = (originalPrice: SQLWrapper, bestPrice: SQLWrapper) =>
  sql`(CASE WHEN ${originalPrice} > ${bestPrice} THEN (${originalPrice} - ${bestPrice}) * 1.0 / ${originalPrice} ELSE 0 END)`;
/**
 * "Highest Rated" sorts by the rating of products with reviews; a product with no reviews has no
 * rating (its stored one is a default shown nowhere), so its key is NULL, which sorts after every
 * rating in descending order.
 */
export const ratedKey = (rating: SQLWrapper, reviewCount: SQLWrapper) => sql`(CASE WHEN ${reviewCount} > 0 THEN ${rating} END)`;

export const categories = sqliteTable("categories", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  icon: text("icon").notNull(),
  description: text("description").notNull().default(""),
});

export const retailers = sqliteTable("retailers", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /**
   * Stable identity (`amazon`, `pets-at-home`): affiliate rules, feeds and page texts key on it,
   * never on the display name, which the admin may change.
   */
  key: text("key").notNull().unique(),
  name: text("name").notNull().unique(),
  logo: text("logo").notNull(),
  website: text("website").notNull(),
  description: text("description").notNull().default(""),
  /** Whether the site compares product prices at this retailer (else it only has vouchers). */
  comparesPrices: integer("compares_prices", { mode: "boolean" }).notNull().default(false),
  /** Standard delivery charge per order (null: not known); the admin edits it, feeds may state their own per offer. */
  deliveryPence: integer("delivery_pence"),
  /** Delivery is free for an order worth at least this much (null: never free by value). */
  freeDeliveryFromPence: integer("free_delivery_from_pence"),
  /**
   * Hosts its offer URLs may use besides its registry hosts and its website's (JSON array of
   * lower-case host names, "shop.co.uk"): what the site owner sets for a retailer the code does not know.
   */
  hosts: text("hosts").notNull().default("[]"),
  /** Merchant names affiliate feeds give it besides its name (JSON array of text). */
  feedNames: text("feed_names").notNull().default("[]"),
});

export const products = sqliteTable(
  "products",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    slug: text("slug").notNull().unique(),
    description: text("description").notNull().default(""),
    image: text("image").notNull().default(""),
    brand: text("brand"),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    /** 0.0 to 5.0, one decimal. */
    rating: real("rating").notNull().default(4.5),
    reviewCount: integer("review_count").notNull().default(0),
    /** Derived from the price entries on every write (see data/db/offers.ts). */
    bestPricePence: integer("best_price_pence"),
    originalPricePence: integer("original_price_pence"),
    /** The delivery inside the best price (which is the total to the door); null when not known. */
    bestDeliveryPence: integer("best_delivery_pence"),
    bestRetailerId: integer("best_retailer_id").references(() => retailers.id, { onDelete: "set null" }),
    isFeatured: integer("is_featured", { mode: "boolean" }).notNull().default(false),
    rank: integer("rank").notNull().default(0),
    /**
     * Part of the seeded demo catalogue (invented prices under real retailers' names). Clearing
     * the demo removes such a product unless the owner has given it an offer of their own.
     */
    demo: integer("demo", { mode: "boolean" }).notNull().default(false),
    /**
     * The best price to the door per kg, for products sold by weight (null otherwise, or when
     * nothing is in stock): derived with the best price on every write, orders "Price per kg".
     */
    bestPricePerKgPence: integer("best_price_per_kg_pence"),
    /**
     * Sizes of one product share a family key (brand + line + recipe): each size keeps its own
     * page, offers and URL, and the product page offers the family's other sizes.
     */
    familyKey: text("family_key"),
    /** Metabolisable energy of a food, kcal per kg as fed (null: not a food, or not known). */
    kcalPerKg: integer("kcal_per_kg"),
    /**
     * The manufacturer's feeding guide as JSON: `{"rows":[{"weightKg":5,"gramsPerDay":95},...]}`,
     * daily grams for an adult by body weight, rows sorted by weight (null: none stored).
     */
    feedingGuide: text("feeding_guide"),
    /** Barcode (GTIN-13/14 digits, check digit verified) and manufacturer part number: feeds match offers by them. */
    gtin: text("gtin"),
    mpn: text("mpn"),
    createdAt: createdAt("created_at"),
    lastEditedAt: text("last_edited_at"),
    /**
     * Its legal category as a veterinary medicine: POM-V, POM-VPS, NFA-VPS, AVM-GSL, or none (not
     * a medicine). POM-V and POM-VPS need a prescription and are never promoted (data/domain/legal-category.ts).
     */
    legalCategory: text("legal_category", { enum: legalCategories }).notNull().default("none"),
    /**
     * A food's facts as the admin or a feed stated them (data/domain/food-facts.ts), "" where not
     * stated (then read from the name): life stage, type, main protein, and its special diets as
     * a comma-separated list.
     */
    lifeStage: text("life_stage").notNull().default(""),
    foodType: text("food_type").notNull().default(""),
    mainProtein: text("main_protein").notNull().default(""),
    specialDiets: text("special_diets").notNull().default(""),
  },
  (t) => [
    // One index per sort order (with and without a category), so a page of any sort is read in
    // index order instead of sorting a whole category (see orderBy in data/db/products.ts).
    index("products_category_rank_idx").on(t.categoryId, t.rank),
    index("products_rank_idx").on(t.rank),
    index("products_category_price_asc_idx").on(t.categoryId, priceAscKey(t.bestPricePence), t.rank),
    index("products_price_asc_idx").on(priceAscKey(t.bestPricePence), t.rank),
    index("products_category_price_desc_idx").on(t.categoryId, sql`${t.bestPricePence} DESC`, t.rank),
    index("products_price_desc_idx").on(sql`${t.bestPricePence} DESC`, t.rank),
    index("products_category_rating_idx").on(t.categoryId, sql`${ratedKey(t.rating, t.reviewCount)} DESC`, sql`${t.reviewCount} DESC`, t.rank),
    index("products_rating_idx").on(sql`${ratedKey(t.rating, t.reviewCount)} DESC`, sql`${t.reviewCount} DESC`, t.rank),
    index("products_category_savings_idx").on(t.categoryId, sql`${savingsKey(t.originalPricePence, t.bestPricePence)} DESC`, t.rank),
    index("products_savings_idx").on(sql`${savingsKey(t.originalPricePence, t.bestPricePence)} DESC`, t.rank),
    index("products_brand_idx").on(t.brand),
    index("products_featured_idx").on(t.isFeatured, t.rank),
    index("products_gtin_idx").on(t.gtin),
    index("products_family_idx").on(t.familyKey),
    index("products_category_price_per_kg_idx").on(t.categoryId, priceAscKey(t.bestPricePerKgPence), t.rank),
    check("products_rating_range", sql`${t.rating} >= 0 AND ${t.rating} <= 5`),
    check("products_review_count_nonneg", sql`${t.reviewCount} >= 0`),
    check("products_legal_category_ck", sql`${t.legalCategory} IN (${sql.raw(legalCategories.map((category) => `'${category}'`).join(", "))})`),
  ],
);

export const productPrices = sqliteTable(
  "product_prices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    pricePence: integer("price_pence").notNull(),
    originalPricePence: integer("original_price_pence"),
    url: text("url").notNull(),
    inStock: integer("in_stock", { mode: "boolean" }).notNull().default(true),
    freeDelivery: integer("free_delivery", { mode: "boolean" }).notNull().default(false),
    priceOverride: integer("price_override", { mode: "boolean" }).notNull().default(false),
    manualPricePence: integer("manual_price_pence"),
    updatedAt: createdAt("updated_at"),
    /** Mandatory delivery for one unit, when the source states it (null: not known). */
    deliveryPence: integer("delivery_pence"),
    /**
     * When a source (feed, page check, the admin typing it) last confirmed the price. An offer not
     * confirmed within the freshness window (24 hours by default) is marked stale and never counts
     * as the best price.
     */
    lastCheckedAt: text("last_checked_at"),
    stale: integer("stale", { mode: "boolean" }).notNull().default(false),
    /** Where the price came from: manual (the admin), page (read from the retailer page), feed:<source>, demo (the seeded demo catalogue). */
    source: text("source").notNull().default("manual"),
    /** The retailer page's ETag when its price was last read (sent back as If-None-Match). */
    pageEtag: text("page_etag"),
    /** The retailer page's Last-Modified when its price was last read (sent back as If-Modified-Since). */
    pageLastModified: text("page_last_modified"),
    /**
     * The item price on the retailer's repeat-delivery scheme (Subscribe & Save, zooplus Repeat,
     * Easy Repeat), when it has one for this product; delivery is worked out as for a one-off order.
     */
    repeatPricePence: integer("repeat_price_pence"),
    /** The scheme's terms in a line ("5% off, up to 15% with 5+ subscriptions; cancel any time"). */
    repeatTerms: text("repeat_terms"),
    /**
     * The offer's multi-buy in the site's words ("3 for 2", "2 for £20.00": data/domain/multi-buy.ts),
     * from a feed's promotion or the admin; null: none. The basket prices a quantity with it.
     */
    multiBuy: text("multi_buy"),
    /**
     * The price members of the retailer's loyalty scheme pay (Pets Club, zooPoints, PetCLUB), below
     * the price anyone pays; with memberScheme naming the scheme. Shown beside the standard price;
     * the best price and ranking stay on what anyone can pay.
     */
    memberPricePence: integer("member_price_pence"),
    memberScheme: text("member_scheme"),
  },
  (t) => [
    uniqueIndex("product_prices_product_retailer_uq").on(t.productId, t.retailerId),
    index("product_prices_checked_idx").on(t.stale, t.lastCheckedAt),
    index("product_prices_retailer_idx").on(t.retailerId, t.productId),
    check("product_prices_price_nonneg", sql`${t.pricePence} >= 0`),
  ],
);

export const priceHistory = sqliteTable(
  "price_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    pricePence: integer("price_pence").notNull(),
    recordedAt: createdAt("recorded_at"),
  },
  (t) => [index("price_history_product_idx").on(t.productId, t.recordedAt)],
);

export const recentlyViewed = sqliteTable(
  "recently_viewed",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    viewedAt: createdAt("viewed_at"),
  },
  (t) => [
    uniqueIndex("recently_viewed_user_product_uq").on(t.userId, t.productId),
    index("recently_viewed_user_idx").on(t.userId, t.viewedAt),
    index("recently_viewed_product_idx").on(t.productId),
  ],
);

export const favorites = sqliteTable(
  "favorites",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    notes: text("notes"),
    createdAt: createdAt("created_at"),
    /** The product's best price (to the door) when it was saved, so the list can say how it moved since. */
    savedPricePence: integer("saved_price_pence"),
  },
  (t) => [uniqueIndex("favorites_user_product_uq").on(t.userId, t.productId), index("favorites_product_idx").on(t.productId)],
);

/** Values as an SQL list of string literals: 'a', 'b'. */
const quotedList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));
/** `kind = 'target'` for one kind, `kind IN ('a', 'b')` for several. */
const kindIsOneOf = (kind: SQLWrapper, kinds: readonly string[]) =>
  kinds.length === 1 ? sql`${kind} = ${quotedList(kinds)}` : sql`${kind} IN (${quotedList(kinds)})`;

export const priceAlerts = sqliteTable(
  "price_alerts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /**
     * What the alert waits for: one of the kinds of data/domain/alerts.ts's table, e.g. target (the
     * price at or below target_price_pence), drop (the price drop_percent % or more below
     * reference_price_pence), back-in-stock, lowest-90 (below every day of the last 90).
     */
    kind: text("kind").notNull().default("target"),
    /** Only for kind target. */
    targetPricePence: integer("target_price_pence"),
    /** Only for kind drop: 1 to 99. */
    dropPercent: integer("drop_percent"),
    /** The best price (to the door) when the alert was set; a drop is measured from it. */
    referencePricePence: integer("reference_price_pence"),
    /** Whether anything was in stock at the last check (back-in-stock fires on the change to true). */
    lastInStock: integer("last_in_stock", { mode: "boolean" }),
    email: text("email").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt("created_at"),
    lastNotifiedAt: text("last_notified_at"),
    /** The best price last mailed about; cleared when the price goes back above the target (re-armed). */
    lastNotifiedPricePence: integer("last_notified_price_pence"),
    /** Set while a check is sending this alert's mail, so two checks never mail the same drop. */
    claimToken: text("claim_token"),
    claimedAt: text("claimed_at"),
    /** When the address was confirmed for this alert; null while it waits for confirmation (nothing is mailed). */
    confirmedAt: text("confirmed_at"),
  },
  (t) => [
    index("price_alerts_user_idx").on(t.userId),
    index("price_alerts_product_idx").on(t.productId, t.isActive),
    index("price_alerts_email_user_idx").on(t.email, t.userId),
    // The kind table's kinds, and each figure's column set for exactly the kinds that take it: a
    // new kind needs a migration that widens these lists.
    check("price_alerts_kind_ck", sql`${t.kind} IN (${quotedList(alertKinds)})`),
    check("price_alerts_target_ck", sql`(${kindIsOneOf(t.kind, alertKindsTaking("targetPence"))}) = (${t.targetPricePence} IS NOT NULL)`),
    check(
      "price_alerts_drop_ck",
      sql`(${kindIsOneOf(t.kind, alertKindsTaking("percent"))}) = (${t.dropPercent} IS NOT NULL) AND (${t.dropPercent} IS NULL OR ${t.dropPercent} BETWEEN ${sql.raw(String(minDropPercent))} AND ${sql.raw(String(maxDropPercent))})`,
    ),
  ],
);

export const emailSubscribers = sqliteTable("email_subscribers", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  email: text("email").notNull().unique(),
  /** The latest sign-up (a re-subscription after unsubscribing starts it again). */
  subscribedAt: createdAt("subscribed_at"),
  isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
  source: text("source").notNull().default("website"),
  /** When the address confirmed this sign-up; null while it waits for confirmation (no newsletter goes to it). */
  confirmedAt: text("confirmed_at"),
});

/**
 * Which visitor confirmed which address for price alerts (double opt-in): their later alerts
 * for that address are active at once. Another visitor entering the address needs its own
 * confirmation, so nobody can have mail sent to an address they do not read.
 */
export const emailConsents = sqliteTable(
  "email_consents",
  {
    email: text("email").notNull(),
    userId: text("user_id").notNull(),
    confirmedAt: text("confirmed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.userId] })],
);

/**
 * Confirmation mails: one row per mail asked for. The link's token is derived from `token_seed`
 * with the app secret (so the database alone does not give it away) and only its SHA-256 hash is
 * kept for the lookup; the seed is cleared once the mail is sent.
 */
export const emailConfirmations = sqliteTable(
  "email_confirmations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    /** price-alerts (confirms the visitor's alerts for the address) or newsletter. */
    purpose: text("purpose").notNull(),
    /** The visitor who asked (price alerts); null for a newsletter sign-up. */
    userId: text("user_id"),
    tokenHash: text("token_hash").notNull().unique(),
    tokenSeed: text("token_seed"),
    createdAt: createdAt("created_at"),
    expiresAt: text("expires_at").notNull(),
    sentAt: text("sent_at"),
    /** Set while a check is sending the mail, as for price alerts. */
    claimToken: text("claim_token"),
    claimedAt: text("claimed_at"),
    confirmedAt: text("confirmed_at"),
  },
  (t) => [
    check("email_confirmations_purpose_ck", sql`${t.purpose} IN ('price-alerts', 'newsletter')`),
    check("email_confirmations_user_ck", sql`(${t.purpose} = 'newsletter') = (${t.userId} IS NULL)`),
    index("email_confirmations_email_idx").on(t.email, t.createdAt),
    index("email_confirmations_expires_idx").on(t.expiresAt),
  ],
);

export const userBehaviour = sqliteTable(
  "user_behaviour",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    retailerId: integer("retailer_id").references(() => retailers.id, { onDelete: "set null" }),
    sessionId: text("session_id"),
    timestamp: createdAt("timestamp"),
    metadata: text("metadata"),
  },
  (t) => [
    index("user_behaviour_time_idx").on(t.timestamp),
    index("user_behaviour_product_idx").on(t.productId),
    // The daily cap on a visitor's click events counts their rows since midnight.
    index("user_behaviour_user_time_idx").on(t.userId, t.timestamp),
  ],
);

export const productRecommendations = sqliteTable(
  "product_recommendations",
  {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: text("user_id").notNull(),
  productId: integer("product_id")
    .notNull()
    .references(() => products.id, { onDelete: "cascade" }),
  /** Three decimals: 0.000 to 99.999. */
  score: real("score").notNull(),
  reason: text("reason").notNull(),
  createdAt: createdAt("created_at"),
  expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("product_recommendations_product_idx").on(t.productId)],
);

export const userProfiles = sqliteTable("user_profiles", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: text("user_id").notNull().unique(),
  categoryPreferences: text("category_preferences"),
  priceRange: text("price_range"),
  petType: text("pet_type"),
  activityLevel: integer("activity_level").notNull().default(5),
  lastUpdated: createdAt("last_updated"),
});

export const vouchers = sqliteTable(
  "vouchers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull(),
    description: text("description").notNull(),
    /** Voucher retailers include ones we do not compare prices at (VetUK, Pet Planet, ...). */
    retailer: text("retailer").notNull(),
    url: text("url").notNull(),
    discount: text("discount").notNull(),
    /** Last valid day, YYYY-MM-DD (UK date). */
    expiryDate: text("expiry_date").notNull(),
    /** How often the code was copied or followed: orders the Popular tab. */
    uses: integer("uses").notNull().default(0),
    /** Part of the seeded demo catalogue (an invented code): cleared with it. */
    demo: integer("demo", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt("created_at"),
  },
  (t) => [uniqueIndex("vouchers_retailer_code_uq").on(t.retailer, t.code), index("vouchers_expiry_idx").on(t.expiryDate)],
);

/**
 * Who used which voucher on which (UK) day: a voucher's use counts once per visitor per day, so
 * repeated or scripted posts cannot move it up the Popular tab.
 */
export const voucherUses = sqliteTable(
  "voucher_uses",
  {
    voucherId: integer("voucher_id")
      .notNull()
      .references(() => vouchers.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    /** YYYY-MM-DD, UK date. */
    day: text("day").notNull(),
  },
  (t) => [primaryKey({ columns: [t.voucherId, t.userId, t.day] }), index("voucher_uses_day_idx").on(t.day)],
);

/** Five keys: AMAZON, PETS_AT_HOME, JOLLYES, ZOOPLUS, EBAY. */
export const affiliateSettings = sqliteTable("affiliate_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: createdAt("updated_at"),
});

/** Site-wide settings kept on the server (the admin password hash, ...). */
export const appSettings = sqliteTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: createdAt("updated_at"),
});

/**
 * Admin sessions. Only a SHA-256 of the session id is stored, so a copy of the database does
 * not let anyone sign in. Idle and absolute expiry are checked on every request.
 */
export const adminSessions = sqliteTable(
  "admin_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    createdAt: createdAt("created_at"),
    lastSeenAt: text("last_seen_at").notNull(),
  },
  (t) => [index("admin_sessions_last_seen_idx").on(t.lastSeenAt)],
);

/** Every admin write: when, what, which entity, and a before/after summary. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: createdAt("at"),
    /** create, update, delete, or another verb (rebuild, settings). */
    action: text("action").notNull(),
    /** product, category, retailer, voucher, affiliate-ids, subscriber, site. */
    entity: text("entity").notNull(),
    entityId: integer("entity_id"),
    /** One line a site owner reads: "Updated product Royal Canin ... (price £12.99 -> £11.49)". */
    summary: text("summary").notNull(),
    /** JSON of the changed fields before and after (null when created or deleted). */
    before: text("before"),
    after: text("after"),
  },
  (t) => [index("audit_log_at_idx").on(t.at)],
);

/** One row per site build (full or fast), for Platform Health and the build status. */
export const siteBuilds = sqliteTable(
  "site_builds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at"),
    durationMs: integer("duration_ms"),
    /** full: every page; fast: only the pages one product change affects. */
    kind: text("kind").notNull(),
    /** running, succeeded, failed. */
    result: text("result").notNull(),
    /** The release folder it built into. */
    release: text("release"),
    pages: integer("pages"),
    /** The last lines of the build's output. */
    logTail: text("log_tail"),
  },
  (t) => [index("site_builds_started_idx").on(t.startedAt)],
);

/**
 * Prices held for review: a checked price that moved beyond the configured factor from the
 * published one (default below 40% or above 250%) is kept here, not published, until the admin
 * accepts or rejects it. One pending hold per offer: a newer check replaces it.
 */
export const priceHolds = sqliteTable(
  "price_holds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    /** The listed price published when the check ran. */
    publishedPricePence: integer("published_price_pence"),
    heldPricePence: integer("held_price_pence").notNull(),
    originalPricePence: integer("original_price_pence"),
    deliveryPence: integer("delivery_pence"),
    inStock: integer("in_stock", { mode: "boolean" }),
    source: text("source").notNull(),
    url: text("url").notNull(),
    observedAt: text("observed_at").notNull(),
    /**
     * A source's first offer for the product at this retailer, held before it exists (its price
     * was beyond the hold factor of the product's best price): accepting it adds the offer.
     */
    newOffer: integer("new_offer", { mode: "boolean" }).notNull().default(false),
    /** Why a check was held besides a jump beyond the hold factor ("low confidence: ..."); null: the jump. */
    reason: text("reason"),
    /** pending, accepted, rejected. */
    status: text("status").notNull().default("pending"),
    decidedAt: text("decided_at"),
  },
  (t) => [
    index("price_holds_status_idx").on(t.status, t.observedAt),
    index("price_holds_offer_idx").on(t.productId, t.retailerId, t.status),
  ],
);

/** One row per price refresh (nightly or on demand), for Platform Health. */
export const priceRefreshRuns = sqliteTable(
  "price_refresh_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at"),
    durationMs: integer("duration_ms"),
    checked: integer("checked").notNull().default(0),
    changed: integer("changed").notNull().default(0),
    held: integer("held").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    /** running, succeeded, partial (some offers failed), failed (nothing could be checked). */
    result: text("result").notNull(),
    /** The first failures, one per line, for the admin. */
    failures: text("failures"),
  },
  (t) => [index("price_refresh_runs_started_idx").on(t.startedAt)],
);

/**
 * Product feeds the site owner manages in the admin (/admin/feeds). A source is a download URL
 * (held here only: the API sends it masked) or a file uploaded into the uploads folder. Rows
 * naming no merchant are offers of `retailer_key`; null reads the merchant from each row.
 */
export const feedSources = sqliteTable(
  "feed_sources",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull().unique(),
    /** url or file. */
    kind: text("kind").notNull(),
    url: text("url"),
    /** The uploaded file's own name, as the admin chose it. */
    fileName: text("file_name"),
    /** Where the upload is stored, relative to the uploads folder. */
    storedFile: text("stored_file"),
    fileBytes: integer("file_bytes"),
    /** auto (detected from the file) or one of the reader's layouts. */
    layout: text("layout").notNull().default("auto"),
    /** For the mapped layout: our field -> the feed's column, as JSON. */
    mapping: text("mapping"),
    retailerKey: text("retailer_key"),
    createProducts: integer("create_products", { mode: "boolean" }).notNull().default(false),
    /** A cron pattern in UK time; null: runs only when asked. */
    schedule: text("schedule"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt("created_at"),
    updatedAt: createdAt("updated_at"),
  },
  (t) => [check("feed_sources_kind", sql`${t.kind} IN ('url', 'file')`)],
);

/**
 * One row per import run, of an admin feed source (`source_id`) or a configured source (sample,
 * awin, amazon, a CLI file; `source_id` null). `source_key` names the source for the one-run-at-a-
 * time rule; `updated_at` moves with the live counters, so a run whose process died is seen as stale.
 */
export const feedImportRuns = sqliteTable(
  "feed_import_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sourceId: integer("source_id").references(() => feedSources.id, { onDelete: "cascade" }),
    sourceKey: text("source_key").notNull(),
    sourceLabel: text("source_label").notNull(),
    /** schedule, admin or cli. */
    trigger: text("trigger").notNull(),
    /** queued, running, succeeded, failed. */
    status: text("status").notNull(),
    queuedAt: createdAt("queued_at"),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
    updatedAt: createdAt("updated_at"),
    rowsRead: integer("rows_read").notNull().default(0),
    matched: integer("matched").notNull().default(0),
    created: integer("created").notNull().default(0),
    offersAdded: integer("offers_added").notNull().default(0),
    pricesChanged: integer("prices_changed").notNull().default(0),
    held: integer("held").notNull().default(0),
    unmatched: integer("unmatched").notNull().default(0),
    /** Rows refused, by reason, as JSON { reason: count }. */
    refused: text("refused").notNull().default("{}"),
    /** The first messages of the run, as a JSON array (capped; total_messages counts them all). */
    messages: text("messages").notNull().default("[]"),
    totalMessages: integer("total_messages").notNull().default(0),
    error: text("error"),
  },
  (t) => [
    index("feed_import_runs_source_idx").on(t.sourceKey, t.id),
    index("feed_import_runs_source_id_idx").on(t.sourceId),
    check("feed_import_runs_status", sql`${t.status} IN ('queued', 'running', 'succeeded', 'failed')`),
    check("feed_import_runs_trigger", sql`${t.trigger} IN ('schedule', 'admin', 'cli')`),
  ],
);

/**
 * What the price refresh knows about each retailer host: its robots.txt as last fetched (kept 24
 * hours) and the back-off it asked for with 429/503 and Retry-After.
 */
export const crawlHosts = sqliteTable("crawl_hosts", {
  /** scheme://host[:port], lower case. */
  origin: text("origin").primaryKey(),
  /** The robots.txt body (null: none to obey, as when it answered 4xx). */
  robotsTxt: text("robots_txt"),
  /** allow (4xx: no rules), rules (2xx: robots_txt applies), disallow (5xx or unreachable: nothing may be fetched). */
  robotsState: text("robots_state").notNull(),
  robotsFetchedAt: text("robots_fetched_at").notNull(),
  /** No request to this host before this time (a 429/503's Retry-After, or the back-off). */
  blockedUntil: text("blocked_until"),
  /** 429/503 answers in a row (the back-off doubles with each). */
  busyStreak: integer("busy_streak").notNull().default(0),
});

/**
 * Tokens for machines (the nightly CI workflow): created in the admin, shown once, stored as a
 * SHA-256 hash, limited to scopes, revocable; each use is recorded.
 */
export const machineTokens = sqliteTable(
  "machine_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    /** SHA-256 of the whole token, hex. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The token's first characters, shown in the admin to tell tokens apart. */
    prefix: text("prefix").notNull(),
    /** JSON array of scopes, e.g. ["nightly:run", "releases:read"]. */
    scopes: text("scopes").notNull(),
    createdAt: createdAt("created_at"),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
  },
);

/**
 * Runs of the nightly job (feeds, page prices, alerts, rebuild), started by the schedule, the
 * admin or a machine token; the workflow follows one to its end by id.
 */
export const nightlyRuns = sqliteTable(
  "nightly_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** schedule, admin, or token:<token id>. */
    trigger: text("trigger").notNull(),
    /** queued, running, succeeded, failed. */
    status: text("status").notNull(),
    queuedAt: createdAt("queued_at"),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
    /** The step being run (feeds, prices, alerts, build) while running. */
    step: text("step"),
    /** Each step's outcome, as JSON. */
    summary: text("summary").notNull().default("{}"),
    error: text("error"),
    /** The site release the run's build produced. */
    releaseId: text("release_id"),
  },
  (t) => [check("nightly_runs_status", sql`${t.status} IN ('queued', 'running', 'succeeded', 'failed')`)],
);
