/** File helpers for tests of the site's release folders. */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isMainThread } from "node:worker_threads";

/** Writes each file (relative path: text) under `root`, making folders as needed. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
}

/** Every file under `root` (relative path) with a hash of its bytes: equal trees, byte for byte. */
export function treeHash(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(root, file)] = crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  }
  return files;
}

/**
 * Runs `body` under umask 022, which lets a file made without an explicit mode be read by group and
 * others: a test of owner-only files then shows the code sets the mode itself. In a worker thread
 * (the mutation runner's pool) the umask cannot be set, and `body` runs under the process's own.
 */
export async function withPermissiveUmask<T>(body: () => T | Promise<T>): Promise<T> {
  if (!isMainThread) return await body();
  const before = process.umask(0o022);
  try {
    return await body();
  } finally {
    process.umask(before);
  }
}
