/**
 * Outgoing mail. With SMTP_URL every message goes through nodemailer's
 * SMTP transport; without it the finished message is written as an .eml file to the outbox
 * folder, so nothing is lost and a developer can open what would have been sent.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { mailConfig, type MailConfig } from "../../data/config.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Adds List-Unsubscribe and the RFC 8058 one-click header, so mail clients offer an unsubscribe button. */
  unsubscribeUrl?: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message (or the .eml file is written); rejects otherwise. */
  send(message: MailMessage): Promise<void>;
  readonly describe: "smtp" | "outbox";
}

/** A mail server that does not answer must not hold up an alert check for minutes. */
const smtpTimeoutMs = 10_000;

export function createMailer(config: MailConfig = mailConfig()): Mailer {
  return config.smtpUrl ? smtpMailer(config.smtpUrl, config.from) : outboxMailer(config.outboxDir, config.from);
}

function mailOptions(message: MailMessage, from: string) {
  const headers: Record<string, string> = { ...message.headers };
  if (message.unsubscribeUrl) headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers,
    ...(message.unsubscribeUrl ? { list: { unsubscribe: message.unsubscribeUrl } } : {}),
  };
}

function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: smtpTimeoutMs,
    greetingTimeout: smtpTimeoutMs,
    socketTimeout: smtpTimeoutMs,
  });
  return {
    describe: "smtp",
    async send(message) {
      await transport.sendMail(mailOptions(message, from));
    },
  };
}

/** `2025-01-31T10-15-00.123Z-1a2b3c4d.eml`: sorts by time, no colons (not allowed in Windows file names). */
function outboxFileName(now: Date): string {
  return `${now.toISOString().replaceAll(":", "-")}-${crypto.randomBytes(4).toString("hex")}.eml`;
}

function outboxMailer(outboxDir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    describe: "outbox",
    async send(message) {
      const info = await transport.sendMail(mailOptions(message, from));
      await fs.mkdir(outboxDir, { recursive: true });
      const file = path.join(outboxDir, outboxFileName(new Date()));
      // Written under a temporary name first, so a reader of the outbox never sees half a mail.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer);
      await fs.rename(`${file}.tmp`, file);
    },
  };
}
