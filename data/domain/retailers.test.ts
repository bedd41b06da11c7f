import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { affiliateKeys } from "./catalogue.ts";
import { extractOffer } from "./offer-extract.ts";
import {
  affiliateProgramme,
  compactName,
  extractionHintsFor,
  httpHostOf,
  isOnHost,
  offerUrlProblem,
  parseHostList,
  registryEntry,
  registryEntryByName,
  retailerForHost,
  retailerHosts,
  retailerLogo,
  retailerRegistry,
} from "./retailers.ts";

const publicDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../site/public");

describe("the retailer registry", () => {
  it("has one entry per key, name and host, each with its logo shipped", () => {
    const keys = retailerRegistry.map((entry) => entry.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(retailerRegistry.map((entry) => entry.name.toLowerCase())).size).toBe(keys.length);
    const hosts = retailerRegistry.flatMap((entry) => entry.hosts);
    expect(new Set(hosts).size).toBe(hosts.length);
    for (const entry of retailerRegistry) {
      expect(entry.key).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(fs.existsSync(path.join(publicDir, retailerLogo(entry.key))), `${entry.key}'s logo`).toBe(true);
      // Its website is on one of its hosts, so its own links pass the offer URL check.
      expect(offerUrlProblem(`${entry.website}/p/1`, entry)).toBeNull();
    }
  });

  it("gives every stored affiliate ID exactly one programme, and the compared retailers first", () => {
    for (const key of affiliateKeys) {
      expect(retailerRegistry.filter((entry) => entry.affiliate?.idKey === key)).toHaveLength(1);
      expect(affiliateProgramme(key).required).toMatch(/ is required$/);
    }
    // Each key finds its own retailer's programme, not the first one with a programme.
    expect(affiliateProgramme("JOLLYES").label).toBe("Jollyes Affiliate ID");
    expect(affiliateProgramme("EBAY").params("123")).toEqual([
      ["mkevt", "1"],
      ["mkcid", "1"],
      ["campid", "123"],
    ]);
    expect(() => affiliateProgramme("NO_SUCH" as never)).toThrow(new Error("No retailer in the registry uses the affiliate ID NO_SUCH"));
    expect(retailerLogo("pets-at-home")).toBe("/retailers/pets-at-home.svg");
    const compared = retailerRegistry.map((entry) => entry.comparesPrices);
    expect(compared.indexOf(false)).toBe(compared.lastIndexOf(true) + 1);
    expect(retailerRegistry.filter((entry) => entry.comparesPrices).map((entry) => entry.key)).toEqual(["amazon", "pets-at-home", "jollyes", "zooplus", "ebay"]);
  });

  it("parses every retailer's extraction hints (a malformed selector throws on the first page of that shop)", () => {
    for (const entry of retailerRegistry) {
      for (const host of entry.hosts) expect(() => extractOffer("<p>£1.00</p>", `https://www.${host}/p/1`), host).not.toThrow();
    }
  });
});

describe("finding a retailer", () => {
  it("by key, and by the names people and feeds give it", () => {
    expect(registryEntry("pets-at-home")?.name).toBe("Pets at Home");
    expect(registryEntry("Pets at Home")).toBeUndefined();
    expect(registryEntryByName("Amazon UK")?.key).toBe("amazon");
    expect(registryEntryByName("amazon.co.uk")?.key).toBe("amazon");
    expect(registryEntryByName("Jollyes - The Pet People")?.key).toBe("jollyes");
    expect(registryEntryByName("PetsAtHome")?.key).toBe("pets-at-home");
    expect(registryEntryByName("Zooplus UK")?.key).toBe("zooplus");
    expect(registryEntryByName("Amazonia")).toBeUndefined();
    expect(registryEntryByName("   ")).toBeUndefined();
    expect(registryEntryByName("")).toBeUndefined();
    // So a name of no letter or digit can match none: every name in the registry has one.
    for (const entry of retailerRegistry) {
      for (const known of [entry.key, entry.name, ...entry.feedNames]) expect(compactName(known), `${entry.key}: ${known}`).not.toBe("");
    }
  });

  it("by host: the host itself or a subdomain, never a look-alike", () => {
    expect(retailerForHost("www.amazon.co.uk")?.key).toBe("amazon");
    expect(retailerForHost("AMAZON.CO.UK.")?.key).toBe("amazon");
    expect(retailerForHost("www.zooplus.de")?.key).toBe("zooplus");
    expect(retailerForHost("notamazon.co.uk")).toBeNull();
    expect(retailerForHost("amazon.co.uk.evil.example")).toBeNull();
    expect(isOnHost("m.ebay.co.uk", "ebay.co.uk")).toBe(true);
    expect(isOnHost("ebay.co.uk", "m.ebay.co.uk")).toBe(false);
    expect(extractionHintsFor("www.zooplus.de")?.host).toBe("zooplus.de");
    expect(extractionHintsFor("www.vetuk.co.uk")).toBeNull();
  });
});

describe("offer URLs", () => {
  const amazon = { name: "Amazon", hosts: ["amazon.co.uk"] };

  it("must be absolute http(s) on one of the retailer's hosts; the message names the host", () => {
    expect(offerUrlProblem("https://www.amazon.co.uk/dp/B0", amazon)).toBeNull();
    expect(offerUrlProblem("http://amazon.co.uk/dp/B0", amazon)).toBeNull();
    expect(offerUrlProblem("http://169.254.169.254/latest/meta-data", amazon)).toBe("the URL's host 169.254.169.254 is not Amazon's (amazon.co.uk)");
    expect(offerUrlProblem("https://www.amazon.co.uk.evil.example/dp/B0", amazon)).toBe("the URL's host www.amazon.co.uk.evil.example is not Amazon's (amazon.co.uk)");
    expect(offerUrlProblem("https://www.amazon.com/dp/B0", amazon)).toBe("the URL's host www.amazon.com is not Amazon's (amazon.co.uk)");
    expect(offerUrlProblem("javascript:alert(1)", amazon)).toBe("the URL must be an absolute http(s) address");
    expect(offerUrlProblem("/dp/B0", amazon)).toBe("the URL must be an absolute http(s) address");
    expect(offerUrlProblem("https://shop.example/x", { name: "Shop", hosts: [] })).toBe("the URL's host shop.example is not Shop's (no hosts are set for it)");
  });

  it("a retailer's hosts: the registry's, the added ones and its website's, sorted without repeats", () => {
    expect(retailerHosts({ key: "zooplus", website: "https://www.zooplus.co.uk", hosts: [] })).toEqual(["zooplus.co.uk", "zooplus.de"]);
    expect(retailerHosts({ key: "paws", website: "https://www.paws.example/shop", hosts: ["b-paws.co.uk", "paws.example"] })).toEqual(["b-paws.co.uk", "paws.example"]);
    expect(retailerHosts({ key: "paws", website: "not a url", hosts: [] })).toEqual([]);
    expect(httpHostOf(" https://WWW.Shop.co.uk./x ")).toBe("www.shop.co.uk");
    expect(httpHostOf("mailto:a@b.c")).toBeNull();
    // White space the URL parser would not strip itself (a no-break space pasted with the link).
    expect(httpHostOf("\u00a0https://www.shop.co.uk/x\u00a0")).toBe("www.shop.co.uk");
    // Only a leading "www." is dropped from the website's host.
    expect(retailerHosts({ key: "paws", website: "https://awww.example", hosts: [] })).toEqual(["awww.example"]);
  });

  it("host lists as people type them: canonical hosts, and what is no host name", () => {
    expect(parseHostList("https://www.shop.co.uk/p/1, SHOP.co.uk\nm.shop.com:8080  ")).toEqual({ hosts: ["shop.co.uk", "m.shop.com"], invalid: [] });
    expect(parseHostList("169.254.169.254 localhost shop..uk -shop.com ok.org")).toEqual({
      hosts: ["ok.org"],
      invalid: ["169.254.169.254", "localhost", "shop..uk", "-shop.com"],
    });
    // An address with a scheme other than http(s) has no host here.
    expect(parseHostList("ftp://shop.co.uk shop.co.uk")).toEqual({ hosts: ["shop.co.uk"], invalid: ["ftp://shop.co.uk"] });
  });
});
