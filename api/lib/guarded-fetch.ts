/**
 * Reading a retailer's page for a URL someone typed (admin "extract price") or stored (the nightly
 * price refresh), without letting that URL reach into our own network. Only public unicast
 * addresses are fetched: every address a host resolves to is checked, the connection goes to a
 * checked address (no second lookup that DNS rebinding could answer differently), and every
 * redirect is checked again. Time, size and redirects are bounded, so one slow or huge page cannot
 * hold the refresh up.
 */
import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { type Duplex, PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import ipaddr from "ipaddr.js";

export interface FetchedPage {
  /** The URL the page came from, after redirects. */
  url: string;
  status: number;
  contentType: string | null;
  /** The body as text, decoded with the page's charset (empty for a 304). */
  body: string;
  /** The answer's ETag, when it sent one. */
  etag?: string;
  /** The answer's Last-Modified, when it sent one. */
  lastModified?: string;
}

/** The URL, or an address its host resolves to, is not allowed: the caller's input is at fault (400). */
export class FetchRefused extends Error {
  override name = "FetchRefused";
}

/** The page could not be read: network error, timeout, too large, too many redirects or a non-2xx status (502). */
export class FetchFailed extends Error {
  override name = "FetchFailed";
  /** The status of a non-2xx answer (404, 429, 503 …); null when there was no answer to give one. */
  readonly status: number | null;
  /** That answer's Retry-After header as sent; null when it sent none. */
  readonly retryAfter: string | null;

  constructor(message: string, options: ErrorOptions & { status?: number; retryAfter?: string | null } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status ?? null;
    this.retryAfter = options.retryAfter ?? null;
  }
}

/** Resolves a host name to its addresses; tests replace DNS with one through `allowLoopbackForTests`. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

declare const testAllowanceBrand: unique symbol;

/**
 * Lets a test fetch fixture pages from loopback (127.0.0.0/8, ::1). Only tests pass one: it exists
 * only as made by `allowLoopbackForTests()`, which refuses in production; no environment variable
 * or config file turns it on, and an object literal is not one (checked at run time too).
 * It never opens private, link-local or metadata ranges.
 */
export interface TestAllowance {
  readonly [testAllowanceBrand]: true;
}

interface AllowanceTerms {
  resolveHost: ResolveHost | undefined;
}

/** The allowances this module issued; anything else passed as one is refused. */
const issuedAllowances = new WeakMap<TestAllowance, AllowanceTerms>();

/**
 * For tests only: an allowance to fetch from loopback, and optionally a replacement for DNS so a
 * test can point a host name at chosen addresses (which are checked like real DNS answers).
 * Throws when NODE_ENV is "production".
 */
export function allowLoopbackForTests(options: { resolveHost?: ResolveHost } = {}): TestAllowance {
  if (isProduction()) throw new Error("The loopback test allowance is not available in production");
  const allowance = Object.freeze({}) as TestAllowance;
  issuedAllowances.set(allowance, { resolveHost: options.resolveHost });
  return allowance;
}

export interface GuardedFetchOptions {
  /** The whole fetch, redirects and body included; default 5000. */
  timeoutMs?: number;
  /** Largest body, counted after decompression (and on the wire); default 2 MiB. */
  maxBytes?: number;
  /** Default 3. */
  maxRedirects?: number;
  userAgent?: string;
  /** Cancels the fetch; it then fails with FetchFailed. */
  signal?: AbortSignal;
  /** Only tests pass this (see `TestAllowance`); production callers never do. */
  allowance?: TestAllowance;
  /**
   * A page's validators from an earlier read, sent as If-None-Match and If-Modified-Since; a 304
   * answer then comes back as a page with status 304 and an empty body instead of failing.
   */
  validators?: PageValidators;
}

/** What identifies the version of a page that was read (null: the site sent none). */
export interface PageValidators {
  etag: string | null;
  lastModified: string | null;
}

export const defaultUserAgent = "PawPriceBot/1.0 (+https://pawprice.co.uk/about; price checks for pawprice.co.uk)";

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * GETs an http(s) page whose every address is public unicast and returns it as text.
 * Throws FetchRefused for a URL or address that is not allowed, FetchFailed for anything that
 * went wrong reading it; the message says which in plain words.
 */
export async function guardedFetch(url: string, options: GuardedFetchOptions = {}): Promise<FetchedPage> {
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
  const opened = await openGuarded(url, options);
  try {
    const bytes = await readBody(opened.response, maxBytes);
    const { "content-type": contentType = null, etag, "last-modified": lastModified } = opened.response.headers;
    return {
      url: opened.target.href,
      status: opened.status,
      contentType,
      body: decodeText(bytes, contentType),
      ...(etag ? { etag } : {}),
      ...(lastModified ? { lastModified } : {}),
    };
  } catch (error) {
    throw opened.explain(error);
  }
}

export interface FetchedStream {
  /** The URL the body came from, after redirects. */
  url: string;
  status: number;
  contentType: string | null;
  /**
   * The body as bytes (Content-Encoding undone), streamed as it arrives. It fails with
   * FetchFailed past `maxBytes` (on the wire or decompressed) or the timeout; destroy it to stop early.
   */
  body: Readable;
}

/**
 * As guardedFetch (the same address checks, after DNS and after every redirect), for a large
 * download such as a product feed: the body is streamed, never held, and `maxBytes` and
 * `timeoutMs` (the whole download) are the caller's to set for the file's size.
 */
export async function guardedFetchStream(url: string, options: GuardedFetchOptions & { maxBytes: number; timeoutMs: number }): Promise<FetchedStream> {
  const opened = await openGuarded(url, options);
  const { response, maxBytes } = { response: opened.response, maxBytes: options.maxBytes };
  let decompress: Duplex;
  try {
    if (Number(response.headers["content-length"]) > maxBytes) throw tooLarge(maxBytes);
    decompress = decompressor(response.headers["content-encoding"]);
  } catch (error) {
    response.destroy();
    throw opened.explain(error);
  }
  const body = new PassThrough();
  pipeline(response, countedBytes(maxBytes), decompress, countedBytes(maxBytes), body).catch((error: unknown) => {
    response.destroy();
    // The reader stopped early (destroyed the body): nothing went wrong with the download.
    if (body.destroyed && !(error instanceof FetchFailed)) return;
    body.destroy(opened.explain(isZlibError(error) ? new FetchFailed("The download's compressed body is damaged", { cause: error }) : error));
  });
  return { url: opened.target.href, status: opened.status, contentType: response.headers["content-type"] ?? null, body };
}

/** A transform that fails with FetchFailed once more than `maxBytes` have passed through it. */
function countedBytes(maxBytes: number) {
  return async function* (source: AsyncIterable<Buffer>) {
    let bytes = 0;
    for await (const chunk of source) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw tooLarge(maxBytes);
      yield chunk;
    }
  };
}

interface OpenedResponse {
  target: URL;
  status: number;
  response: http.IncomingMessage;
  /** Turns an error met while reading the body into FetchRefused or FetchFailed with plain words. */
  explain(error: unknown): Error;
}

/** Connects to checked addresses only, following (and checking) redirects, up to a 2xx answer (or a 304 to validators sent). */
async function openGuarded(url: string, options: GuardedFetchOptions): Promise<OpenedResponse> {
  const { timeoutMs = 5000, maxRedirects = 3, userAgent = defaultUserAgent } = options;
  const terms = options.allowance === undefined ? undefined : allowanceTerms(options.allowance);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let target = allowedUrl(url);
  const explain = (error: unknown): Error => {
    if (error instanceof FetchRefused || error instanceof FetchFailed) return error;
    if (timeout.aborted) return new FetchFailed(`${target.href} did not answer within ${timeoutMs / 1000} seconds`, { cause: error });
    if (signal.aborted) return new FetchFailed(`The fetch of ${target.href} was cancelled`, { cause: error });
    return new FetchFailed(`Could not read ${target.href}: ${plainNetworkError(error)}`, { cause: error });
  };
  try {
    for (let redirects = 0; ; redirects++) {
      const addresses = await allowedAddresses(target, terms, signal);
      const response = await openResponse(target, addresses, userAgent, conditionalHeaders(options.validators), signal);
      const status = response.statusCode ?? 0;
      if (redirectStatuses.has(status)) {
        response.destroy();
        if (redirects === maxRedirects) throw new FetchFailed(`${url} redirected more than ${maxRedirects} times`);
        const location = response.headers.location;
        if (!location) throw new FetchFailed(`${target.href} answered ${status} without saying where to`);
        target = allowedUrl(location, target);
        continue;
      }
      if (status === 304 && options.validators) return { target, status, response, explain };
      if (status < 200 || status > 299) {
        response.destroy();
        const retryAfter = response.headers["retry-after"] ?? null;
        throw new FetchFailed(`${target.href} answered ${status} ${response.statusMessage ?? ""}`.trim(), { status, retryAfter });
      }
      return { target, status, response, explain };
    }
  } catch (error) {
    throw explain(error);
  }
}

/**
 * True for a public unicast address, the only kind fetched. IPv4-mapped IPv6 (::ffff:a.b.c.d)
 * is judged by its IPv4 address; other IPv6 must be global unicast (2000::/3) outside every
 * special range, which also refuses IPv4-compatible, NAT64, 6to4 and Teredo forms.
 * Anything that is not an IP address is not public.
 */
export function isPublicAddress(address: string): boolean {
  const ip = embeddedIPv4(parseAddress(address));
  if (ip === null) return false;
  if (ip instanceof ipaddr.IPv6 && !ip.match(globalUnicastV6)) return false;
  return ip.range() === "unicast";
}

const globalUnicastV6 = ipaddr.IPv6.parseCIDR("2000::/3");
const ipv4MappedV6 = ipaddr.IPv6.parseCIDR("::ffff:0:0/96");

function isLoopbackAddress(address: string): boolean {
  return embeddedIPv4(parseAddress(address))?.range() === "loopback";
}

/** A strictly written IPv4 or IPv6 address (brackets and zone allowed), or null. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const version = isIP(bare);
  if (version === 4) return ipaddr.IPv4.parse(bare);
  // ipaddr.js reads "::a.b.c.d" as IPv4-mapped; written as hex groups it keeps its real meaning.
  if (version === 6) return ipaddr.IPv6.parse(bare.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, dottedTailAsHex));
  return null;
}

function dottedTailAsHex(_match: string, ...octets: string[]): string {
  const [a, b, c, d] = octets.slice(0, 4).map(Number) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function embeddedIPv4(ip: ipaddr.IPv4 | ipaddr.IPv6 | null): ipaddr.IPv4 | ipaddr.IPv6 | null {
  return ip instanceof ipaddr.IPv6 && ip.match(ipv4MappedV6) ? ip.toIPv4Address() : ip;
}

function isProduction(): boolean {
  return process.env.NODE_ENV === "production";
}

function allowanceTerms(allowance: TestAllowance): AllowanceTerms {
  const terms = issuedAllowances.get(allowance);
  if (!terms) throw new FetchRefused("The test allowance was not made by allowLoopbackForTests()");
  if (isProduction()) throw new FetchRefused("The loopback test allowance is not honoured in production");
  return terms;
}

/** An http(s) URL without credentials; `base` resolves a relative redirect. */
function allowedUrl(input: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new FetchRefused(`${JSON.stringify(input)} is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FetchRefused(`Only http and https pages are fetched, not ${url.protocol} (${url.href})`);
  }
  if (url.username || url.password) throw new FetchRefused(`URLs with a user name or password are not fetched (${url.host})`);
  return url;
}

/** URL hosts keep IPv6 addresses in brackets; sockets and lookups want them without. */
function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * The addresses to connect to for `target`: the literal address, or every address its host
 * resolves to. All of them must be allowed, or the fetch is refused before any connection.
 */
async function allowedAddresses(target: URL, terms: AllowanceTerms | undefined, signal: AbortSignal): Promise<LookupAddress[]> {
  const hostname = bareHostname(target);
  const literal = isIP(hostname);
  const addresses = literal !== 0 ? [{ address: hostname, family: literal }] : await resolveAll(hostname, terms?.resolveHost, signal);
  if (addresses.length === 0) throw new FetchFailed(`Could not find the host ${hostname}`);
  for (const { address } of addresses) {
    if (isPublicAddress(address) || (terms !== undefined && isLoopbackAddress(address))) continue;
    const source = literal !== 0 ? address : `${hostname} resolves to ${address}, which`;
    throw new FetchRefused(`${source} is not a public address; only public addresses are fetched`);
  }
  return addresses;
}

async function resolveAll(hostname: string, resolveHost: ResolveHost | undefined, signal: AbortSignal): Promise<LookupAddress[]> {
  const lookup = resolveHost ?? ((name: string) => dnsLookup(name, { all: true, verbatim: true }));
  try {
    return await untilAborted(lookup(hostname), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new FetchFailed(`Could not find the host ${hostname}`, { cause: error });
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Answers the socket's lookup with the addresses already checked, whatever DNS would say now. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  const [first] = addresses;
  if (!first) throw new Error("pinnedLookup needs at least one address");
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  };
}

function conditionalHeaders(validators: PageValidators | undefined): Record<string, string> {
  return {
    ...(validators?.etag ? { "if-none-match": validators.etag } : {}),
    ...(validators?.lastModified ? { "if-modified-since": validators.lastModified } : {}),
  };
}

function openResponse(
  target: URL,
  addresses: LookupAddress[],
  userAgent: string,
  extraHeaders: Record<string, string>,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const hostname = bareHostname(target);
  const isLiteral = isIP(hostname) !== 0;
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      {
        protocol: target.protocol,
        hostname,
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        method: "GET",
        // The Host header and TLS name stay the page's own host name while the socket goes to the checked address.
        headers: {
          host: target.host,
          "user-agent": userAgent,
          accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
          "accept-language": "en-GB",
          "accept-encoding": "gzip, deflate, br",
          ...extraHeaders,
        },
        ...(isLiteral ? {} : { lookup: pinnedLookup(addresses), servername: hostname.replace(/\.$/, "") }),
        // A fresh connection each time: no pooled socket, and no proxy that would do its own lookup.
        agent: false,
        signal,
      },
      resolve,
    );
    request.on("error", reject);
    request.end();
  });
}

function tooLarge(maxBytes: number): FetchFailed {
  const mebibytes = maxBytes / (1024 * 1024);
  const limit = Number.isInteger(mebibytes) ? `${mebibytes} MB` : `${maxBytes} bytes`;
  return new FetchFailed(`The page is larger than ${limit}`);
}

/** A stream undoing the page's Content-Encoding (a pass-through for none); stacked encodings are not read. */
function decompressor(contentEncoding: string | undefined): Duplex {
  const coding = (contentEncoding ?? "").trim().toLowerCase();
  // Lenient flushing, as browsers are: a page cut short at the end still decodes what arrived.
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (coding === "" || coding === "identity") return new PassThrough();
  if (coding === "gzip" || coding === "x-gzip") return zlib.createGunzip(flush);
  if (coding === "deflate") return zlib.createInflate(flush);
  if (coding === "br") return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  throw new FetchFailed(`The page uses a compression this fetcher does not read (${coding})`);
}

/** The body, at most `maxBytes` both as received and as decompressed; past that the connection is cut. */
async function readBody(response: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  let decompress: Duplex;
  try {
    decompress = decompressor(response.headers["content-encoding"]);
  } catch (error) {
    response.destroy();
    throw error;
  }
  // The wire size counts too, so a declared length over the limit fails before reading.
  if (Number(response.headers["content-length"]) > maxBytes) {
    response.destroy();
    throw tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let decodedBytes = 0;
  async function* countedOnTheWire(source: AsyncIterable<Buffer>) {
    let wireBytes = 0;
    for await (const chunk of source) {
      wireBytes += chunk.length;
      if (wireBytes > maxBytes) throw tooLarge(maxBytes);
      yield chunk;
    }
  }
  async function collect(source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      decodedBytes += chunk.length;
      if (decodedBytes > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk);
    }
  }
  try {
    await pipeline(response, countedOnTheWire, decompress, collect);
  } catch (error) {
    if (error instanceof FetchFailed) throw error;
    if (isZlibError(error)) throw new FetchFailed(`The page's compressed body is damaged`, { cause: error });
    throw error;
  }
  return Buffer.concat(chunks);
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("Z_") || code.startsWith("ERR_BROTLI"));
}

function plainNetworkError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const plain: Record<string, string> = {
    ECONNREFUSED: "the connection was refused",
    ECONNRESET: "the connection was closed by the server",
    ETIMEDOUT: "the connection timed out",
    EHOSTUNREACH: "the host cannot be reached",
    ENETUNREACH: "the network cannot be reached",
    EPROTO: "the secure connection failed",
    ERR_TLS_CERT_ALTNAME_INVALID: "the site's certificate is for another name",
    CERT_HAS_EXPIRED: "the site's certificate has expired",
    DEPTH_ZERO_SELF_SIGNED_CERT: "the site's certificate is self-signed",
  };
  if (typeof code === "string" && plain[code]) return plain[code];
  return error instanceof Error ? error.message : String(error);
}

/**
 * The charset to read the page with: a byte-order mark, else Content-Type's charset, else a
 * `<meta charset>` or `<meta http-equiv="Content-Type">` in the first 1 KB, else UTF-8.
 * Labels TextDecoder does not know are skipped.
 */
function decodeText(bytes: Buffer, contentType: string | null): string {
  const candidates = [byteOrderMark(bytes), charsetParameter(contentType), metaCharset(bytes)];
  const encoding = candidates.find((label) => label !== null && knownEncoding(label)) ?? "utf-8";
  return new TextDecoder(encoding).decode(bytes);
}

function byteOrderMark(bytes: Buffer): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return null;
}

function charsetParameter(contentType: string | null): string | null {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1] ?? null;
}

function metaCharset(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 1024).toString("latin1");
  return /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:+-]+)/i.exec(head)?.[1] ?? null;
}

function knownEncoding(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}
