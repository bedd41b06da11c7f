/**
 * The route table's paths, compiled once: `:name` is one path segment (anything but a slash,
 * still percent-encoded), every other character is literal. The app's 405 answers, the fast
 * path for cache hits (../lib/fast-reads.ts) and the OpenAPI document all read paths through
 * this one module, so they cannot disagree on what a path matches.
 */

/** One route's path, compiled. */
export interface CompiledPath {
  /** The path as the route table writes it (`/api/products/:slug`). */
  path: string;
  /** Its parameters' names in order. */
  names: string[];
  /** Matches a whole pathname; group i + 1 is parameter names[i]. */
  pattern: RegExp;
  /** The path in OpenAPI's form (`/api/products/{slug}`). */
  template: string;
}

const parameter = /:([a-zA-Z]+)/g;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function compilePath(path: string): CompiledPath {
  const names = [...path.matchAll(parameter)].map((match) => match[1]!);
  const literals = path.split(parameter).filter((_, i) => i % 2 === 0);
  const pattern = new RegExp(`^${literals.map(escapeRegExp).join("([^/]+)")}$`);
  return { path, names, pattern, template: path.replace(parameter, "{$1}") };
}

/** A pathname's raw (still percent-encoded) parameters when it matches, else null. */
export function matchPath(compiled: CompiledPath, pathname: string): Record<string, string> | null {
  const match = compiled.pattern.exec(pathname);
  if (!match) return null;
  const params: Record<string, string> = {};
  compiled.names.forEach((name, i) => (params[name] = match[i + 1]!));
  return params;
}

/** A table's routes, each with its compiled path, in the table's order. */
export type CompiledRoutes<R extends readonly [string, string, ...unknown[]]> = ReadonlyArray<{ route: R; method: R[0]; compiled: CompiledPath }>;

export function compileRoutes<R extends readonly [string, string, ...unknown[]]>(table: readonly R[]): CompiledRoutes<R> {
  const byPath = new Map<string, CompiledPath>();
  return table.map((route) => {
    let compiled = byPath.get(route[1]);
    if (!compiled) byPath.set(route[1], (compiled = compilePath(route[1])));
    return { route, method: route[0], compiled };
  });
}

/** The methods the table serves at this pathname, HEAD wherever GET is (none when no route matches it). */
export function allowedMethods(table: CompiledRoutes<readonly [string, string, ...unknown[]]>, pathname: string): string[] {
  const methods = table.filter(({ compiled }) => compiled.pattern.test(pathname)).map(({ method }) => method);
  return methods.includes("GET") ? [...methods, "HEAD"] : methods;
}

/**
 * Routes ordered as the app's router prefers them when several match: fewer parameters first
 * (`/api/products/count` before `/api/products/:slug`), the table's order among equals.
 */
export function staticFirst<T extends { compiled: CompiledPath }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => a.compiled.names.length - b.compiled.names.length);
}
