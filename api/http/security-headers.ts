/**
 * The security headers every response carries: pages, 404 pages, API JSON, the unsubscribe
 * pages. Scripts run only from this origin or when their exact text is allowed by hash (the
 * build lists the hashes of the inline scripts it emits), never as arbitrary inline code; no
 * other site may frame a page; MIME types are never sniffed; the Referer leaves only as the origin
 * across sites; HTTPS is pinned (Strict-Transport-Security) when the public base URL is https.
 */

export interface SecurityHeaderOptions {
  /** `sha256-...` hashes of the inline scripts the served pages contain (HTML responses only). */
  scriptHashes?: readonly string[];
  /** Whether the site's public base URL is https: then browsers are told to keep to https. */
  https?: boolean;
}

/** For HTML pages: scripts from this origin or allowed by hash; images may come from retailers. */
export function pagePolicy(scriptHashes: readonly string[] = []): string {
  const scripts = ["'self'", ...scriptHashes.map((hash) => `'${hash}'`)].join(" ");
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    // Inline style attributes (React, Astro's island styles) are harmless without inline scripts.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** For JSON and every other non-page answer: nothing may run or be framed. */
export const apiPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function securityHeaders(kind: "page" | "api", options: SecurityHeaderOptions = {}): Record<string, string> {
  const headers: Record<string, string> = {
    "content-security-policy": kind === "page" ? pagePolicy(options.scriptHashes) : apiPolicy,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    "cross-origin-opener-policy": "same-origin",
  };
  if (options.https) headers["strict-transport-security"] = "max-age=31536000; includeSubDomains";
  return headers;
}
