/**
 * `npm run admin:password`: sets the admin password. On a terminal it asks twice without
 * echoing; otherwise it reads one line from stdin (`echo "$PW" | npm run admin:password`), so
 * scripts and CI can set it. The scrypt hash is stored in the database (the running server
 * uses it at the next login, and every open admin session ends). With `--print` the hash is
 * printed instead, for ADMIN_PASSWORD_HASH.
 */
import readline from "node:readline";
import { hashPassword, minPasswordLength } from "../api/lib/admin-auth.ts";
import { databasePath } from "../data/config.ts";
import { storePasswordHash } from "../data/db/admin-auth.ts";
import { migrateDb, openDb } from "../data/db/client.ts";

const printOnly = process.argv.includes("--print");

/** Asks on the terminal without echoing what is typed. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const output = rl as unknown as { _writeToOutput: (text: string) => void; output: NodeJS.WriteStream };
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write("\n");
      resolve(answer);
    });
    output._writeToOutput = (text: string) => {
      if (text.startsWith(question)) output.output.write(question);
    };
  });
}

async function readOneLine(): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return "";
}

let password: string;
if (process.stdin.isTTY) {
  password = await askHidden(`New admin password (at least ${minPasswordLength} characters): `);
  const again = await askHidden("Again: ");
  if (again !== password) {
    console.error("The two passwords differ; nothing changed.");
    process.exit(1);
  }
} else {
  password = await readOneLine();
}

if (password.length < minPasswordLength) {
  console.error(`The password must have at least ${minPasswordLength} characters; nothing changed.`);
  process.exit(1);
}

const hash = await hashPassword(password);
if (printOnly) {
  console.log(hash);
} else {
  const file = databasePath();
  const db = openDb(file);
  await migrateDb(db);
  storePasswordHash(db, hash);
  db.$client.close();
  console.log(`Admin password updated in ${file}; open admin sessions were ended.`);
  if (process.env.ADMIN_PASSWORD_HASH) console.log("Note: ADMIN_PASSWORD_HASH is set, and it wins over the stored password.");
}
