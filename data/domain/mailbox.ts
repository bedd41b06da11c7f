/**
 * Which addresses reach the same mailbox, so that limits on mail to an address (the daily cap on
 * confirmation mails, data/db/email-consent.ts) cannot be dodged by spelling one mailbox many ways.
 * Mail itself still goes to the address as typed.
 */

/**
 * Domains whose mail service ignores dots in the local part, each with the domain it is the same
 * mailboxes as: googlemail.com is gmail.com.
 */
const dotIgnoringDomains: Readonly<Record<string, string>> = { "gmail.com": "gmail.com", "googlemail.com": "gmail.com" };

/**
 * The mailbox an address reaches: lower case, the plus-tag dropped (`a+x@` is `a@`), and for
 * gmail.com and googlemail.com (both as gmail.com) the dots in the local part dropped too; other
 * domains keep their dots. The local part ends at the last `@`.
 * @example mailboxKey("Mailbox+12@Example.com") // "mailbox@example.com"
 * @example mailboxKey("m.a.i.l.box+x@googlemail.com") // "mailbox@gmail.com"
 * @example mailboxKey("first.last@example.com") // "first.last@example.com"
 */
export function mailboxKey(address: string): string {
  const lower = address.toLowerCase();
  const at = lower.lastIndexOf("@");
  if (at < 0) return lower;
  const domain = lower.slice(at + 1);
  let local = lower.slice(0, at);
  const plus = local.indexOf("+");
  if (plus >= 0) local = local.slice(0, plus);
  const sameAs = dotIgnoringDomains[domain];
  return sameAs === undefined ? `${local}@${domain}` : `${local.replaceAll(".", "")}@${sameAs}`;
}

/**
 * Every domain an address with the same mailbox can be written with: gmail.com and googlemail.com
 * for either of them, otherwise the address's own domain (lower case).
 * @example mailboxDomains("a@GoogleMail.com") // ["gmail.com", "googlemail.com"]
 * @example mailboxDomains("a@example.com") // ["example.com"]
 */
export function mailboxDomains(address: string): string[] {
  const key = mailboxKey(address);
  const domain = key.slice(key.lastIndexOf("@") + 1);
  const spellings = Object.keys(dotIgnoringDomains).filter((spelling) => dotIgnoringDomains[spelling] === domain);
  return spellings.length > 0 ? spellings : [domain];
}
