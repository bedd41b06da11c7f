/**
 * The newsletter never advertises a prescription-only medicine: `npm run newsletter:send` (the real
 * script on a real SQLite file, mail into an outbox folder) refuses an issue that links to or names
 * a POM-V or POM-VPS product of the catalogue, dry run or not, and sends nothing; the same issue
 * about a product that is not prescription-only goes to every confirmed subscriber.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../data/config.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

const run = promisify(execFile);
let temp: TempDb;
let dir: string;
let outbox: string;
/** Two products of the catalogue: `medicine` is made POM-VPS, `other` stays as it is. */
let medicine: { name: string; slug: string };
let other: { name: string; slug: string };

beforeAll(async () => {
  temp = await tempDb(10);
  dir = path.dirname(temp.file);
  outbox = path.join(dir, "outbox");
  [medicine, other] = temp.db.$client.prepare("SELECT name, slug FROM products ORDER BY id LIMIT 2").all() as [typeof medicine, typeof other];
  temp.db.$client.prepare("UPDATE products SET legal_category = 'POM-VPS' WHERE slug = ?").run(medicine.slug);
  const subscriber = temp.db.$client.prepare("INSERT INTO email_subscribers (email, confirmed_at) VALUES (?, '2026-01-01T00:00:00.000Z')");
  subscriber.run("reader@example.com");
  subscriber.run("other@example.com");
});
afterAll(() => temp?.remove());

/** The script's exit code and output (execFile rejects on a non-zero exit; its error carries both). */
async function newsletter(issue: string, extra: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  const textFile = path.join(dir, "issue.txt");
  fs.writeFileSync(textFile, issue);
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: temp.file, MAIL_OUTBOX: outbox, SECRETS_DIR: path.join(dir, "secrets") };
  delete env.SMTP_URL;
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(projectRoot, "scripts/newsletter.ts"), "--subject", "This week", "--text-file", textFile, ...extra], { cwd: projectRoot, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
const mails = () => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((file) => file.endsWith(".eml")).length : 0);

describe("the newsletter and prescription-only medicines", () => {
  it("refuses an issue linking to a prescription-only medicine's page, naming it, and sends nothing, not even a dry run", async () => {
    for (const extra of [[], ["--dry-run"]]) {
      const result = await newsletter(`This week's best buy: https://pawprice.example/product/${medicine.slug}\n`, extra);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`prescription-only medicines, which may not be advertised: "${medicine.name}" (/product/${medicine.slug})`);
      expect(result.stdout).not.toContain("would go to");
    }
    expect(mails()).toBe(0);
  });

  it("refuses an issue naming one in full, in other letter case", async () => {
    const result = await newsletter(`Back in stock: ${medicine.name.toUpperCase()}!\n`);
    expect(result.code).toBe(2);
    expect(mails()).toBe(0);
  });

  it("sends the same issue about a product that is not prescription-only to every confirmed subscriber", async () => {
    const result = await newsletter(`This week's best buy: ${other.name}, https://pawprice.example/product/${other.slug}\n`);
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain("2 sent, 0 failed");
    expect(mails()).toBe(2);
  });
});
