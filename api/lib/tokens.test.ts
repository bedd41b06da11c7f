import { describe, expect, it } from "vitest";
import { signToken, verifyToken } from "./tokens.ts";

const secret = "a-test-secret-that-is-long-enough-0123456789";

describe("signed tokens", () => {
  it("round-trips the id for the purpose it was signed for, in a URL-safe form", () => {
    const token = signToken("alert-unsubscribe", 42, secret);
    expect(token).toMatch(/^alert-unsubscribe\.42\.[A-Za-z0-9_-]{43}$/);
    expect(encodeURIComponent(token)).toBe(token);
    expect(verifyToken("alert-unsubscribe", token, secret)).toBe(42);
  });

  it("is the same for the same input and differs per id, purpose and secret", () => {
    const token = signToken("alert-unsubscribe", 7, secret);
    expect(signToken("alert-unsubscribe", 7, secret)).toBe(token);
    const signatureOf = (value: string) => value.split(".")[2];
    expect(signatureOf(signToken("alert-unsubscribe", 8, secret))).not.toBe(signatureOf(token));
    expect(signatureOf(signToken("newsletter-unsubscribe", 7, secret))).not.toBe(signatureOf(token));
    expect(signatureOf(signToken("alert-unsubscribe", 7, `${secret}x`))).not.toBe(signatureOf(token));
  });

  it("refuses a token signed for another purpose or with another secret", () => {
    expect(verifyToken("newsletter-unsubscribe", signToken("alert-unsubscribe", 3, secret), secret)).toBeNull();
    expect(verifyToken("alert-unsubscribe", signToken("alert-unsubscribe", 3, "another-secret-that-is-long-enough-000000"), secret)).toBeNull();
  });

  it("refuses a changed id, a changed or re-encoded signature and a swapped purpose", () => {
    const token = signToken("alert-unsubscribe", 12, secret);
    const [, , signature] = token.split(".") as [string, string, string];
    expect(verifyToken("alert-unsubscribe", token.replace(".12.", ".13."), secret)).toBeNull();
    expect(verifyToken("alert-unsubscribe", token.replace(".12.", ".012."), secret)).toBeNull();
    const flipped = signature[0] === "A" ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expect(verifyToken("alert-unsubscribe", `alert-unsubscribe.12.${flipped}`, secret)).toBeNull();
    // The last character of 32 bytes in base64url carries two unused bits: other values decode to the same bytes.
    const last = signature.at(-1)!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sameBytes = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(Buffer.from(signature.slice(0, -1) + sameBytes, "base64url")).toEqual(Buffer.from(signature, "base64url"));
    expect(verifyToken("alert-unsubscribe", `alert-unsubscribe.12.${signature.slice(0, -1)}${sameBytes}`, secret)).toBeNull();
    expect(verifyToken("newsletter-unsubscribe", token.replace("alert-", "newsletter-"), secret)).toBeNull();
  });

  it.each(["", "alert-unsubscribe", "alert-unsubscribe.1", "alert-unsubscribe.0.x", "alert-unsubscribe.-1.x", "a.b.c.d", "%%%", "x".repeat(500)])(
    "refuses the malformed token %j",
    (token) => {
      expect(verifyToken("alert-unsubscribe", token, secret)).toBeNull();
    },
  );

  it("signs only positive whole ids", () => {
    expect(() => signToken("alert-unsubscribe", 0, secret)).toThrow("token id must be a positive integer, got 0");
    expect(() => signToken("alert-unsubscribe", 1.5, secret)).toThrow("token id must be a positive integer, got 1.5");
    expect(() => signToken("alert-unsubscribe", 2 ** 53, secret)).toThrow("token id must be a positive integer");
  });
});
