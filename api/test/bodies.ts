/** Test helper: what an HTTP answer says, as a reader sees it. */
import zlib from "node:zlib";
import { expect } from "vitest";

/** The body of a response, decoded as its content-encoding says (gzip, brotli or none). */
export async function decodedBody(response: Response): Promise<string> {
  const body = Buffer.from(await response.arrayBuffer());
  const encoding = response.headers.get("content-encoding");
  if (encoding === "gzip") return zlib.gunzipSync(body).toString();
  if (encoding === "br") return zlib.brotliDecompressSync(body).toString();
  expect(encoding).toBeNull();
  return body.toString();
}
