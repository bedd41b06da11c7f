/**
 * The limit the page server is measured against (scripts/bench-pages.ts): a bare node:http
 * server sending recorded answers (headers and the bytes as sent, base64 in the JSON file named
 * by its argument), with no routing beyond a Map lookup by URL. Prints "running at <port>".
 */
import fs from "node:fs";
import http from "node:http";

export interface RecordedPage {
  path: string;
  headers: [string, string][];
  /** The body as sent (compressed when it was), base64. */
  body: string;
}

const file = process.argv[2];
if (!file) throw new Error("usage: bench-bare-pages.ts <answers.json>");
const answers = new Map(
  (JSON.parse(fs.readFileSync(file, "utf8")) as RecordedPage[]).map((answer) => {
    const body = Buffer.from(answer.body, "base64");
    return [answer.path, { headers: [...answer.headers.flat(), "content-length", String(body.length)], body }];
  }),
);
const server = http.createServer((req, res) => {
  const answer = answers.get(req.url ?? "");
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, answer.headers);
  res.end(answer.body);
});
server.listen(0, "127.0.0.1", () => console.log(`running at ${(server.address() as { port: number }).port}`));
