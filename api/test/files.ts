/** File helpers for tests of the site's release folders. */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

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
