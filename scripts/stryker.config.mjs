// @ts-check
/**
 * Mutation testing (npm run test:mutation): Stryker changes one small thing in the code at a
 * time (a `<` into `<=`, a condition into `true`, a string into "") and runs the tests that
 * cover it; a mutant no test notices "survives" and points at a test that could not fail.
 * Incremental: results are kept in scripts/mutation/incremental.json, so a re-run tests only
 * the mutants whose code or covering tests changed.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: "vitest",
  vitest: { configFile: "scripts/vitest.mutation.config.ts", related: true },
  plugins: ["@stryker-mutator/vitest-runner"],
  coverageAnalysis: "perTest",
  mutate: [
    "data/domain/**/*.ts",
    "data/db/**/*.ts",
    "api/lib/**/*.ts",
    "api/routes/**/*.ts",
    "api/jobs/**/*.ts",
    "!**/*.test.ts",
    // Configuration and declarations, not logic: the schema is checked through migrations and every query.
    "!data/db/drizzle.config.ts",
    "!data/db/schema.ts",
  ],
  ignorePatterns: ["dist", ".node", "releases", "data/*.db*", "data/outbox", "data/bench", "data/secrets", "reports"],
  // Static mutants (module-level code: SQL text constants, validation schemas, lookup tables) are
  // left out: each needs every covering test file re-run with all modules reloaded, about 700 of
  // them taking ~94% of a run. The route table's tests check that code on every request instead.
  // A thorough run: npm run test:mutation -- --ignoreStatic false
  ignoreStatic: true,
  incremental: true,
  incrementalFile: "scripts/mutation/incremental.json",
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ["progress", "json", "html"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};

/**
 * Survivors that are equivalent mutants: the changed program behaves exactly as the original, so
 * no test can tell them apart. npm run test:mutation leaves them out of the score; each needs a
 * reason. Matched by file, mutator and the code replaced (and the replacement, and the whole
 * source line, where given). Only a mutant no input can tell apart belongs here; a survivor a
 * test could catch needs the test.
 * @type {{ file: string, mutator: string, original: string, replacement?: string, line?: string, reason: string }[]}
 */
export const equivalentMutants = [
  {
    file: "data/domain/offers.ts",
    mutator: "EqualityOperator",
    original: "offer.retailerId < best.retailerId",
    replacement: "offer.retailerId <= best.retailerId",
    reason: "Equal ids would be two offers of one retailer for one product, which the unique (product, retailer) index rules out.",
  },
  {
    file: "data/domain/offers.ts",
    mutator: "ConditionalExpression",
    original: "best.originalPricePence !== null",
    replacement: "true",
    reason: "null > price is false in JavaScript, so a missing was-price is dropped by the comparison that follows.",
  },
  {
    file: "data/domain/compare.ts",
    mutator: "ConditionalExpression",
    original: "item.bestPrice === null",
    replacement: "false",
    reason: "Number.isFinite(null) is false, so the check that follows skips a missing price all the same.",
  },
  {
    file: "data/domain/search.ts",
    mutator: "Regex",
    original: "/[^\\p{L}\\p{N}]+/u",
    replacement: "/[^\\p{L}\\p{N}]/u",
    reason: "Splitting at each separator instead of each run of them only adds empty terms, which the next step drops.",
  },
  {
    file: "data/db/statements.ts",
    mutator: "ConditionalExpression",
    original: "!cache",
    replacement: "true",
    reason: "Only the statement cache: a new cache prepares the same SQL again, with the same results.",
  },
  {
    file: "data/db/statements.ts",
    mutator: "ConditionalExpression",
    original: "!prepared",
    replacement: "true",
    reason: "Only the statement cache: preparing the same SQL again gives the same results.",
  },
  ...["ids.length === 0", "productIds.length === 0"].map((original) => ({
    file: "data/db/products.ts",
    mutator: "ConditionalExpression",
    original,
    replacement: "false",
    reason: "A shortcut: the query over an empty id list returns nothing anyway.",
  })),
  .../** @type {[string, string, string][]} */ ([
    ["ConditionalExpression", "total === 0 || page.offset >= total", "false"],
    ["LogicalOperator", "total === 0 || page.offset >= total", "total === 0 && page.offset >= total"],
    ["ConditionalExpression", "total === 0", "false"],
    ["ConditionalExpression", "page.offset >= total", "false"],
    ["EqualityOperator", "page.offset >= total", "page.offset > total"],
  ]).map(([mutator, original, replacement]) => ({
    file: "data/db/products.ts",
    mutator,
    original,
    replacement,
    reason: "A shortcut: with no hits, or an offset past the last one, the ranked query returns no rows anyway.",
  })),
  {
    file: "data/db/alerts.ts",
    mutator: "BooleanLiteral",
    original: "true",
    line: "if (n >= activeAlertLimit) return { limitReached: true };",
    reason: "Callers test for the limitReached key, not its value.",
  },
  {
    file: "data/db/favorites.ts",
    mutator: "BooleanLiteral",
    original: "true",
    line: "if (n >= favoriteLimit) return { limitReached: true };",
    reason: "Callers test for the limitReached key, not its value.",
  },
  {
    file: "data/db/alerts.ts",
    mutator: "ConditionalExpression",
    original: "row.is_active === 1",
    replacement: "true",
    reason: "Every alert this module returns is active: lists show active alerts only, and create returns an active one.",
  },
  {
    file: "data/db/subscribers.ts",
    mutator: "ConditionalExpression",
    original: "existing.is_active === 0",
    replacement: "true",
    reason: "Switching an active subscriber on again changes nothing.",
  },
  {
    file: "data/db/subscribers.ts",
    mutator: "ObjectLiteral",
    original: "{ created: false }",
    replacement: "{}",
    reason: "An absent created reads as false, the same answer.",
  },
  ...["true", "false"].map((replacement) => ({
    file: "data/db/offers.ts",
    mutator: "ConditionalExpression",
    original: "sqlite.inTransaction",
    replacement,
    reason: "Only how the updates are grouped into transactions (the speed of a bulk recompute); the rows written are the same.",
  })),
  {
    file: "data/db/product-pages.ts",
    mutator: "OptionalChaining",
    original: "entry?.retailers",
    replacement: "entry.retailers",
    reason: "Every price-history row belongs to a listed product (foreign key with cascading delete), so entry is never undefined.",
  },
  {
    file: "data/db/product-pages.ts",
    mutator: "ConditionalExpression",
    original: "entry === undefined",
    replacement: "false",
    reason: "Every price-history row belongs to a listed product (foreign key with cascading delete), so entry is never undefined.",
  },
  {
    file: "data/db/offers.ts",
    mutator: "ArrayDeclaration",
    original: "[]",
    line: "for (const id of ids ?? []) byProduct.set(id, []);",
    reason: "ids ?? []: ids is null only on the all-products pass, whose ids come from the next loop; byProduct.set(id, []): a stray non-offer entry has no inStock and is skipped.",
  },
  {
    file: "data/db/offers.ts",
    mutator: "ArrayDeclaration",
    original: "[]",
    line: 'for (const { id } of sqlite.prepare("SELECT id FROM products").all() as { id: number }[]) byProduct.set(id, []);',
    reason: "A stray non-offer entry in the list has no inStock and is skipped, so the best offer is the same.",
  },
  ...["data/db/offers.ts", "data/db/products.ts"].map((file) => ({
    file,
    mutator: "OptionalChaining",
    original: "byProduct.get(row.product_id)?.push",
    replacement: "byProduct.get(row.product_id).push",
    reason: "Every offer row read belongs to a product in the map: the query selects the offers of exactly those products.",
  })),
  {
    file: "data/db/products.ts",
    mutator: "LogicalOperator",
    original: 'row.best_retailer_logo ?? ""',
    replacement: 'row.best_retailer_logo && ""',
    reason: "retailers.logo is NOT NULL: with a best retailer there is always a logo (the fallback only satisfies the type).",
  },
  {
    file: "data/db/products.ts",
    mutator: "StringLiteral",
    original: '""',
    line: 'row.best_retailer_name === null ? null : { name: row.best_retailer_name, logo: row.best_retailer_logo ?? "" },',
    reason: "retailers.logo is NOT NULL: the fallback is never used.",
  },
  {
    file: "data/db/favorites.ts",
    mutator: "ArrayDeclaration",
    original: "[]",
    line: "return product ? [{ ...toFavorite(row), product }] : [];",
    reason: "A favourite's product always exists: deleting a product deletes its favourites (foreign key, cascade).",
  },
  {
    file: "data/db/seed.ts",
    mutator: "ConditionalExpression",
    original: "row",
    replacement: "true",
    reason: "An upsert with RETURNING always returns the row.",
  },
  {
    file: "data/db/client.ts",
    mutator: "ConditionalExpression",
    original: "!options.readonly",
    replacement: "true",
    reason: "A read-only connection opens an existing file: creating its existing folder and asking for the WAL mode it already has change nothing.",
  },
  .../** @type {[string, string, string][]} */ ([
    ["ConditionalExpression", "a.recordedAt > b.recordedAt", "true"],
    ["ConditionalExpression", "a.recordedAt > b.recordedAt", "false"],
    ["EqualityOperator", "a.recordedAt > b.recordedAt", "a.recordedAt >= b.recordedAt"],
    ["EqualityOperator", "a.recordedAt > b.recordedAt", "a.recordedAt <= b.recordedAt"],
  ]).map(([mutator, original, replacement]) => ({
    file: "data/db/product-pages.ts",
    mutator,
    original,
    replacement,
    reason: "Only changes the comparator's answer between 0 and 1 for points not earlier than the other; Array.prototype.sort in V8 only asks whether the answer is below 0.",
  })),
  {
    file: "api/lib/http.ts",
    mutator: "ConditionalExpression",
    original: "!issue",
    replacement: "false",
    reason: "A failed zod parse always has at least one issue.",
  },
  {
    file: "api/lib/http.ts",
    mutator: "OptionalChaining",
    original: "event.context.params?.[name]",
    replacement: "event.context.params[name]",
    reason: "routeParam is only called by routes whose path has that parameter, so the router always sets params.",
  },
  {
    file: "data/db/seed.ts",
    mutator: "StringLiteral",
    original: '"product"',
    replacement: '""',
    reason: "Every product's id is looked up right after the product was upserted, so the unknown-product message is never produced.",
  },
  {
    file: "api/lib/http.ts",
    mutator: "StringLiteral",
    original: '""',
    line: 'const type = event.req.headers.get("content-type") ?? "";',
    reason: "Any fallback that is not a JSON media type gives the same 415 for a body sent without a content type.",
  },
  {
    file: "api/jobs/runner.ts",
    mutator: "ConditionalExpression",
    original: "current === run",
    replacement: "true",
    reason: "A run only starts after the one before it has finished, so the finishing run is always the current one.",
  },
  {
    file: "api/jobs/runner.ts",
    mutator: "OptionalChaining",
    original: "timer.unref?.()",
    replacement: "timer.unref()",
    reason: "Node's timers always have unref; the optional call only serves other runtimes' types.",
  },
  {
    file: "api/jobs/runner.ts",
    mutator: "CallExpression",
    original: "clearTimeout(timer);",
    replacement: ";",
    reason: "The cancelled run has already resolved; the timer is unreferenced and firing it later starts nothing.",
  },
  .../** @type {[string, string, string][]} */ ([
    ["ConditionalExpression", "timer", "true"],
    ["ConditionalExpression", "timer", "false"],
    ["CallExpression", "clearInterval(timer);", ";"],
  ]).map(([mutator, original, replacement]) => ({
    file: "api/jobs/alert-check.ts",
    mutator,
    original,
    replacement,
    line: "if (timer) clearInterval(timer);",
    reason: "After stop() the runner answers every request as stopped, so a tick of a timer left running checks nothing (and it is unreferenced).",
  })),
  {
    file: "api/lib/response-cache.ts",
    mutator: "UpdateOperator",
    original: "this.#generation++",
    replacement: "this.#generation--",
    reason: "Any change of the generation makes every stored version stale; the direction does not matter.",
  },
  .../** @type {[string, string][]} */ ([
    ["token.length > maxTokenLength", "false"],
    ["token.length > maxTokenLength", "token.length >= maxTokenLength"],
  ]).map(([original, replacement]) => ({
    file: "api/lib/tokens.ts",
    mutator: replacement === "false" ? "ConditionalExpression" : "EqualityOperator",
    original,
    replacement,
    reason: "A cheap early exit: the token pattern that follows admits at most 83 characters, well under the 120 limit.",
  })),
  {
    file: "api/lib/tokens.ts",
    mutator: "ConditionalExpression",
    original: "match[1] !== purpose",
    replacement: "false",
    reason: "Defence in depth: the signature is over purpose and id, so another purpose's token fails the signature check.",
  },
  {
    file: "api/lib/tokens.ts",
    mutator: "ConditionalExpression",
    original: "!Number.isSafeInteger(id)",
    replacement: "false",
    reason: "Defence in depth: signToken refuses unsafe ids, so no valid signature exists for one and the HMAC check refuses it.",
  },
  {
    file: "api/lib/tokens.ts",
    mutator: "ConditionalExpression",
    original: "given.length === expected.length",
    replacement: "true",
    reason: "The token pattern fixes the signature at 43 characters, the length of every SHA-256 signature in base64url.",
  },
];
