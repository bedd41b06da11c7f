import { describe, expect, it } from "vitest";
import { mailboxDomains, mailboxKey } from "./mailbox.ts";

describe("mailboxKey", () => {
  it("drops the plus-tag at any domain", () => {
    expect(mailboxKey("mailbox+1@example.com")).toBe("mailbox@example.com");
    expect(mailboxKey("mailbox+12@example.com")).toBe("mailbox@example.com");
    expect(mailboxKey("mailbox+@example.com")).toBe("mailbox@example.com");
    // Only the first plus starts the tag.
    expect(mailboxKey("mailbox+a+b@example.com")).toBe("mailbox@example.com");
  });

  it("is lower case", () => {
    expect(mailboxKey("MailBox@Example.COM")).toBe("mailbox@example.com");
    expect(mailboxKey("Mailbox+7@Example.com")).toBe("mailbox@example.com");
  });

  it("ignores dots in the local part at gmail.com, and keeps them elsewhere", () => {
    expect(mailboxKey("m.a.i.l.box@gmail.com")).toBe("mailbox@gmail.com");
    expect(mailboxKey("M.ailbox+news@Gmail.com")).toBe("mailbox@gmail.com");
    expect(mailboxKey("first.last@example.com")).toBe("first.last@example.com");
    expect(mailboxKey("firstlast@example.com")).not.toBe(mailboxKey("first.last@example.com"));
    // The domain's own dots are never dropped.
    expect(mailboxKey("mailbox@mail.example.co.uk")).toBe("mailbox@mail.example.co.uk");
  });

  it("treats googlemail.com as gmail.com, dots and all", () => {
    expect(mailboxKey("mailbox@googlemail.com")).toBe("mailbox@gmail.com");
    expect(mailboxKey("Mail.Box+x@GoogleMail.com")).toBe(mailboxKey("mailbox@gmail.com"));
    // A look-alike domain is just another domain.
    expect(mailboxKey("mail.box@gmail.co")).toBe("mail.box@gmail.co");
    expect(mailboxKey("mail.box@notgmail.com")).toBe("mail.box@notgmail.com");
  });

  it("leaves a plain lower-case address without a plus as it is", () => {
    expect(mailboxKey("mailbox@example.com")).toBe("mailbox@example.com");
    expect(mailboxKey("mailbox@gmail.com")).toBe("mailbox@gmail.com");
  });

  it("splits at the last @", () => {
    expect(mailboxKey('"a@b"+x@Example.com')).toBe('"a@b"@example.com');
  });
});

describe("mailboxDomains", () => {
  it("gives both Google spellings for either, else the address's own domain", () => {
    expect(mailboxDomains("a@gmail.com")).toEqual(["gmail.com", "googlemail.com"]);
    expect(mailboxDomains("a@GoogleMail.com")).toEqual(["gmail.com", "googlemail.com"]);
    expect(mailboxDomains("a@Example.com")).toEqual(["example.com"]);
  });
});
