import { afterEach, describe, expect, it, vi } from "vitest";
import { buildAffiliateUrl } from "./affiliate.ts";
import type { AffiliateIds } from "./catalogue.ts";

const ids: AffiliateIds = {
  AMAZON: "pawprice-21",
  PETS_AT_HOME: "pah 42",
  JOLLYES: "jol7",
  ZOOPLUS: "zp9",
  EBAY: "533",
};
const site = "PawPrice";
const build = (retailer: string, url: string, overrides: Partial<AffiliateIds> = {}) =>
  buildAffiliateUrl(retailer, url, { ...ids, ...overrides }, site);

const query = (href: string) => Object.fromEntries(new URL(href).searchParams);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("buildAffiliateUrl: retailers by their stable key", () => {
  it("tags by key whatever the display name became", () => {
    expect(build("amazon", "https://www.amazon.co.uk/dp/B01")).toBe("https://www.amazon.co.uk/dp/B01?tag=pawprice-21");
    expect(build("pets-at-home", "https://www.petsathome.com/product/p1")).toBe("https://www.petsathome.com/product/p1?aff=pah+42");
    expect(build("jollyes", "https://www.jollyes.co.uk/x")).toBe("https://www.jollyes.co.uk/x?ref=jol7");
    expect(build("zooplus", "https://www.zooplus.co.uk/x")).toBe("https://www.zooplus.co.uk/x?partner=zp9");
    expect(build("ebay", "https://www.ebay.co.uk/itm/1")).toBe("https://www.ebay.co.uk/itm/1?mkevt=1&mkcid=1&campid=533");
  });
  it("does not take a key-like text for another retailer's key", () => {
    expect(build("pets-at-home-outlet", "https://outlet.example/p")).toBe("https://outlet.example/p?ref=PawPrice");
  });
});

describe("buildAffiliateUrl: the five affiliate retailers", () => {
  it("tags Amazon with tag, keeping the other parameters", () => {
    expect(build("Amazon", "https://www.amazon.co.uk/dp/B01?th=1")).toBe("https://www.amazon.co.uk/dp/B01?th=1&tag=pawprice-21");
  });
  it("tags Pets at Home with aff", () => {
    expect(build("Pets at Home", "https://www.petsathome.com/product/p1")).toBe("https://www.petsathome.com/product/p1?aff=pah+42");
  });
  it("tags Jollyes with ref", () => {
    expect(build("Jollyes", "https://www.jollyes.co.uk/dog/food.html")).toBe("https://www.jollyes.co.uk/dog/food.html?ref=jol7");
  });
  it("tags Zooplus with partner", () => {
    expect(build("Zooplus", "https://www.zooplus.co.uk/shop/dogs/1")).toBe("https://www.zooplus.co.uk/shop/dogs/1?partner=zp9");
  });
  it("tags eBay with mkevt, mkcid and campid", () => {
    expect(build("eBay", "https://www.ebay.co.uk/itm/123?hash=abc")).toBe(
      "https://www.ebay.co.uk/itm/123?hash=abc&mkevt=1&mkcid=1&campid=533",
    );
  });
  it("replaces an existing value instead of adding a second one", () => {
    const href = build("Amazon", "https://www.amazon.co.uk/dp/B01?tag=someone-else-21&th=1");
    expect(href).toBe("https://www.amazon.co.uk/dp/B01?tag=pawprice-21&th=1");
    expect(new URL(build("eBay", "https://www.ebay.co.uk/itm/1?campid=1&mkevt=9")).searchParams.getAll("campid")).toEqual(["533"]);
  });
  it("keeps the fragment where it belongs", () => {
    expect(build("Zooplus", "https://www.zooplus.co.uk/p/1#reviews")).toBe("https://www.zooplus.co.uk/p/1?partner=zp9#reviews");
  });
});

describe("buildAffiliateUrl: retailer names", () => {
  it("matches names whatever their case, spacing and punctuation", () => {
    for (const name of ["Pets at Home", "pets-at-home", "PetsAtHome", "PETS AT HOME", " pets_at_home "]) {
      expect(query(build(name, "https://www.petsathome.com/p/1")).aff).toBe("pah 42");
    }
    for (const name of ["Amazon", "Amazon UK", "amazon.co.uk", "AMAZON"]) {
      expect(query(build(name, "https://www.amazon.co.uk/dp/1")).tag).toBe("pawprice-21");
    }
    expect(query(build("E-Bay", "https://www.ebay.co.uk/itm/1")).campid).toBe("533");
    expect(query(build("zooplus.co.uk", "https://www.zooplus.co.uk/p/1")).partner).toBe("zp9");
  });
  it("treats a name that only contains a retailer's name as another retailer", () => {
    expect(build("Amazonia Pets", "https://amazonia.example/p")).toBe("https://amazonia.example/p?ref=PawPrice");
  });
});

describe("buildAffiliateUrl: other retailers", () => {
  it("appends ref naming the site", () => {
    expect(build("Viovet", "https://www.viovet.co.uk/p/1")).toBe("https://www.viovet.co.uk/p/1?ref=PawPrice");
    expect(build("VetUK", "https://www.vetuk.co.uk/p?x=1&ref=old")).toBe("https://www.vetuk.co.uk/p?x=1&ref=PawPrice");
    expect(build("Fetch", "fetch.co.uk/deal")).toBe("fetch.co.uk/deal?ref=PawPrice");
  });
  it("encodes a site name with spaces", () => {
    expect(buildAffiliateUrl("Pet Planet", "https://www.petplanet.co.uk/", ids, "Paw Price")).toBe(
      "https://www.petplanet.co.uk/?ref=Paw+Price",
    );
  });
  it("leaves the link untagged when there is no site name", () => {
    expect(buildAffiliateUrl("Viovet", "https://www.viovet.co.uk/p/1", ids, " ")).toBe("https://www.viovet.co.uk/p/1");
  });
});

describe("buildAffiliateUrl: empty affiliate IDs", () => {
  it("never adds an empty tag", () => {
    expect(build("Amazon", "https://www.amazon.co.uk/dp/1", { AMAZON: "" })).toBe("https://www.amazon.co.uk/dp/1");
    expect(build("Amazon", "foo", { AMAZON: "  " })).toBe("foo");
  });
  it("adds no eBay tracking without a campaign id", () => {
    expect(build("eBay", "https://www.ebay.co.uk/itm/1", { EBAY: "" })).toBe("https://www.ebay.co.uk/itm/1");
  });
  it("leaves a Pets at Home redirector link as it is (its own tracking still pays)", () => {
    const awin = "https://www.awin1.com/cread.php?awinmid=1&ued=https%3A%2F%2Fwww.petsathome.com%2Fp%2F1";
    expect(build("Pets at Home", awin, { PETS_AT_HOME: "" })).toBe(awin);
  });
  it("still refuses a dangerous scheme", () => {
    expect(build("Amazon", "javascript:alert(1)", { AMAZON: "" })).toBe("#");
  });
});

describe("buildAffiliateUrl: Pets at Home redirector links", () => {
  const merchant = "https://www.petsathome.com/product/dog-food/p7?size=2kg";
  const webAndAff = {
    size: "2kg",
    utm_source: "website",
    utm_medium: "affiliate",
    app_redirect: "false",
    force_web: "true",
    aff: "pah 42",
  };

  it("unwraps an AWIN link to the merchant URL and adds the web and affiliate parameters", () => {
    const awin = `https://www.awin1.com/cread.php?awinmid=7&awinaffid=99&ued=${encodeURIComponent(merchant)}`;
    const href = build("Pets at Home", awin);
    expect(href.startsWith("https://www.petsathome.com/product/dog-food/p7?")).toBe(true);
    expect(query(href)).toEqual(webAndAff);
  });
  it("unwraps generic redirector parameters", () => {
    for (const param of ["url", "u", "murl", "destination", "URL"]) {
      const href = build("Pets at Home", `https://go.redirect.example/r?${param}=${encodeURIComponent(merchant)}`);
      expect(new URL(href).hostname).toBe("www.petsathome.com");
      expect(query(href)).toEqual(webAndAff);
    }
  });
  it("unwraps a URL encoded twice", () => {
    const twice = encodeURIComponent(encodeURIComponent(merchant));
    const href = build("Pets at Home", `https://www.awin1.com/cread.php?awinmid=7&ued=${twice}`);
    expect(href.startsWith("https://www.petsathome.com/product/dog-food/p7?")).toBe(true);
    expect(query(href)).toEqual(webAndAff);
  });
  it("unwraps a redirector nested inside another", () => {
    const inner = `https://click.linksynergy.example/deeplink?murl=${encodeURIComponent(merchant)}`;
    const href = build("Pets at Home", `https://www.awin1.com/cread.php?ued=${encodeURIComponent(inner)}`);
    expect(new URL(href).hostname).toBe("www.petsathome.com");
    expect(query(href)).toEqual(webAndAff);
  });
  it("replaces the merchant URL's own aff and utm values", () => {
    const tagged = "https://www.petsathome.com/p/1?aff=old&utm_source=email";
    const href = build("Pets at Home", `https://www.awin1.com/cread.php?ued=${encodeURIComponent(tagged)}`);
    expect(new URL(href).searchParams.getAll("aff")).toEqual(["pah 42"]);
    expect(new URL(href).searchParams.getAll("utm_source")).toEqual(["website"]);
  });
  it("falls back to appending aff to the original link when the wrapped value does not parse, and warns", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const bad = "https://www.awin1.com/cread.php?awinmid=7&ued=petsathome%20dog%20food";
    expect(build("Pets at Home", bad)).toBe(`${bad}&aff=pah%2042`);
    expect(warn).toHaveBeenCalledOnce();
  });
  it("falls back when the wrapped value is badly encoded or not an http(s) URL", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const malformed = "https://www.awin1.com/cread.php?ued=%25E0%25A4%25Apetsathome";
    expect(build("Pets at Home", malformed)).toBe(`${malformed}&aff=pah%2042`);
    const script = `https://www.awin1.com/cread.php?ued=${encodeURIComponent("javascript:alert('petsathome')")}`;
    expect(build("Pets at Home", script)).toBe(`${script}&aff=pah%2042`);
    expect(warn).toHaveBeenCalledTimes(2);
  });
  it("does not trust a wrapped URL that leads somewhere other than petsathome.com", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const elsewhere = `https://www.awin1.com/cread.php?ued=${encodeURIComponent("https://evil.example/?next=petsathome")}`;
    expect(build("Pets at Home", elsewhere)).toBe(`${elsewhere}&aff=pah%2042`);
  });
  it("trusts petsathome.com and its subdomains only, not hosts that merely end or start with the name", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    for (const host of ["evilpetsathome.com", "petsathome.com.evil.example", "www.notpetsathome.com"]) {
      const wrapped = `https://www.awin1.com/cread.php?ued=${encodeURIComponent(`https://${host}/p/1`)}`;
      expect(build("Pets at Home", wrapped)).toBe(`${wrapped}&aff=pah%2042`);
    }
    for (const host of ["petsathome.com", "www.petsathome.com", "shop.petsathome.com"]) {
      const wrapped = `https://www.awin1.com/cread.php?ued=${encodeURIComponent(`https://${host}/p/1`)}`;
      expect(build("Pets at Home", wrapped)).toBe(`https://${host}/p/1?utm_source=website&utm_medium=affiliate&app_redirect=false&force_web=true&aff=pah+42`);
    }
  });
  it("tags a redirector link that does not point at Pets at Home as an ordinary link", () => {
    expect(build("Pets at Home", "https://go.example/r?url=https%3A%2F%2Fshop.example%2F")).toBe(
      "https://go.example/r?url=https%3A%2F%2Fshop.example%2F&aff=pah+42",
    );
  });
});

describe("buildAffiliateUrl: links that are not absolute URLs", () => {
  it("appends with ? when there is no query", () => {
    expect(build("Amazon", "foo")).toBe("foo?tag=pawprice-21");
    expect(build("Pets at Home", "/product/p1")).toBe("/product/p1?aff=pah%2042");
  });
  it("appends with & when there is a query", () => {
    expect(build("Jollyes", "foo?bar=1")).toBe("foo?bar=1&ref=jol7");
    expect(build("Zooplus", "www.zooplus.co.uk/p?")).toBe("www.zooplus.co.uk/p?partner=zp9");
  });
  it("appends every eBay parameter, before a fragment", () => {
    expect(build("eBay", "ebay.co.uk/itm/1#top")).toBe("ebay.co.uk/itm/1?mkevt=1&mkcid=1&campid=533#top");
  });
  it("URL-encodes the value", () => {
    expect(build("Amazon", "foo", { AMAZON: "a&b=c" })).toBe("foo?tag=a%26b%3Dc");
  });
});

describe("buildAffiliateUrl: unsafe links", () => {
  it("returns # for schemes other than http and https", () => {
    for (const bad of ["javascript:alert(1)", " JavaScript:alert(1)", "java\tscript:alert(1)", "data:text/html,<b>x</b>", "vbscript:x", "mailto:a@b.c"]) {
      expect(build("Amazon", bad)).toBe("#");
      expect(build("Viovet", bad)).toBe("#");
    }
  });
  it("returns # for an empty link and for text no browser could resolve", () => {
    expect(build("Amazon", "")).toBe("#");
    expect(build("Amazon", "   ")).toBe("#");
    expect(build("Amazon", "https://exa mple.com/")).toBe("#");
  });
  it("accepts http as well as https", () => {
    expect(build("Amazon", "http://www.amazon.co.uk/dp/1")).toBe("http://www.amazon.co.uk/dp/1?tag=pawprice-21");
  });
});
