/**
 * Site identity and runtime settings (DECISIONS.md "Identity"). Every page, e-mail and export
 * reads them from here; environment variables override the defaults.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const env = (name: string, fallback: string) => {
  const value = process.env[name]?.trim();
  return value ? value : fallback;
};

export const siteConfig = {
  siteName: env("SITE_NAME", "PawPrice"),
  companyName: env("COMPANY_NAME", "PawPrice Ltd"),
  contactEmail: env("CONTACT_EMAIL", "hello@pawprice.example"),
  baseUrl: env("PUBLIC_BASE_URL", "http://localhost:4321").replace(/\/+$/, ""),
} as const;

export function databasePath(): string {
  return path.resolve(projectRoot, env("DATABASE_PATH", "data/pawprice.db"));
}

export function serverPort(): number {
  const port = Number(env("PORT", "4321"));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${process.env.PORT}"`);
  return port;
}

export function serverHost(): string {
  return env("HOST", "0.0.0.0");
}

/** Social profile links shown in the footer (DECISIONS.md item 9: configuration). */
export const socialLinks = {
  facebook: env("SOCIAL_FACEBOOK_URL", "https://www.facebook.com/pawprice"),
  instagram: env("SOCIAL_INSTAGRAM_URL", "https://www.instagram.com/pawprice"),
} as const;
