/**
 * A real SMTP server (smtp-server) on loopback that keeps what it receives, and just enough MIME
 * reading for nodemailer's output (no parser dependency), for the mail tests.
 */
import net from "node:net";
import { SMTPServer } from "smtp-server";

// ---------------------------------------------------------------------------------------------
// A real SMTP server that keeps what it receives

export interface ReceivedMail {
  to: string[];
  raw: string;
  headers: Map<string, string>;
  subject: string;
  text: string;
  html: string;
}

export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** While set, every message is refused with a 5xx answer after DATA. */
  refuse = false;
  /** Delay before accepting a message, to make concurrent checks overlap. */
  delayMs = 0;
  port = 0;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        setTimeout(() => {
          if (this.refuse) return callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
          this.received.push(parseMail(Buffer.concat(chunks).toString("utf8"), session.envelope.rcptTo.map((rcpt) => rcpt.address)));
          callback();
        }, this.delayMs);
      });
    },
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.server.address() as net.AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// ---------------------------------------------------------------------------------------------
// Just enough MIME reading for nodemailer's output (no parser dependency)

function decodeQuotedPrintable(value: string): string {
  const joined = value.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(joined.charCodeAt(i));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=), as nodemailer writes non-ASCII subjects. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, data: string) =>
      encoding.toUpperCase() === "B" ? Buffer.from(data, "base64").toString("utf8") : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

function splitHead(raw: string): { headers: Map<string, string>; body: string } {
  const normalised = raw.replace(/\r\n/g, "\n");
  const end = normalised.indexOf("\n\n");
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end === -1 ? "" : normalised.slice(end + 2) };
}

/** The text/plain and text/html parts of a message, walking nested multiparts. */
function readParts(raw: string, parts: { text: string; html: string }): void {
  const { headers, body } = splitHead(raw);
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith("multipart/") && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (!part.startsWith("--")) readParts(part.replace(/^\n/, ""), parts);
    }
    return;
  }
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  const content = encoding === "quoted-printable" ? decodeQuotedPrintable(body) : encoding === "base64" ? Buffer.from(body, "base64").toString("utf8") : body;
  if (type.toLowerCase().startsWith("text/html")) parts.html += content;
  else if (type.toLowerCase().startsWith("text/plain")) parts.text += content;
}

export function parseMail(raw: string, to: string[]): ReceivedMail {
  const { headers } = splitHead(raw);
  const parts = { text: "", html: "" };
  readParts(raw, parts);
  return { to, raw, headers, subject: decodeHeader(headers.get("subject") ?? ""), ...parts };
}

