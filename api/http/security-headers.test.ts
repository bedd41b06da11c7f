/**
 * The security headers, exactly as they are sent: the page policy (every directive, the scripts
 * allowed by hash), the API's policy, and the headers every answer carries, with
 * Strict-Transport-Security only for an https site. What each answer of the app and the site
 * carries is checked where they are served (api/test/security-headers.test.ts, ./site.test.ts).
 */
import { describe, expect, it } from "vitest";
import { pagePolicy, securityHeaders } from "./security-headers.ts";

const pageDirectives = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

const apiPolicyText = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const everyAnswer = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
};

describe("pagePolicy", () => {
  it("allows scripts from this origin only, and the inline scripts whose hashes it is given", () => {
    expect(pagePolicy()).toBe(pageDirectives.join("; "));
    const hashed = pageDirectives.map((directive) => (directive.startsWith("script-src") ? "script-src 'self' 'sha256-one' 'sha256-two'" : directive));
    expect(pagePolicy(["sha256-one", "sha256-two"])).toBe(hashed.join("; "));
  });
});

describe("securityHeaders", () => {
  it("gives a page the page policy and an API answer the API's, with the headers every answer carries", () => {
    expect(securityHeaders("page", { scriptHashes: ["sha256-one"] })).toEqual({ "content-security-policy": pagePolicy(["sha256-one"]), ...everyAnswer });
    expect(securityHeaders("api")).toEqual({ "content-security-policy": apiPolicyText, ...everyAnswer });
  });

  it("pins HTTPS only when the site is https", () => {
    const pinned = { "strict-transport-security": "max-age=31536000; includeSubDomains" };
    expect(securityHeaders("api", { https: true })).toEqual({ "content-security-policy": apiPolicyText, ...everyAnswer, ...pinned });
    expect(securityHeaders("page", { https: true })).toEqual({ "content-security-policy": pagePolicy(), ...everyAnswer, ...pinned });
    expect(securityHeaders("page", { https: false })).toEqual({ "content-security-policy": pagePolicy(), ...everyAnswer });
  });
});
