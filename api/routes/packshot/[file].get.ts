import { createHash } from "node:crypto";
import { z } from "zod";
import { defineRoute } from "../../context.ts";
import { notFound } from "../../http/http.ts";
import { slugParam } from "../../../data/domain/queries.ts";
import { packshotSvg } from "../../../data/domain/packshot.ts";
import { getPackshotProduct } from "../../../data/db/packshots.ts";
import type { CachedResponse } from "../../http/response-cache.ts";

/**
 * A product's illustrative packshot, `/api/packshot/{slug}.svg`. Browsers keep it a day and then
 * ask again with its ETag (the drawing's hash), so a renamed product's new drawing arrives by the
 * next day, and an unchanged one costs a 304. Kept in the response cache between catalogue writes.
 * The API's content policy (nothing may run) applies to it like to every other answer.
 */
const fileSuffix = ".svg";
/** `{slug}.svg`, parsed to the slug. */
const packshotFile = z
  .string()
  .refine((file) => file.endsWith(fileSuffix), "A packshot is asked for as {slug}.svg")
  .transform((file) => file.slice(0, -fileSuffix.length))
  .pipe(slugParam("slug"))
  .meta({ description: "The product's slug and .svg", pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*\\.svg$" });
const noQuery = z.strictObject({}, { error: "This endpoint takes no query parameters" });

export default defineRoute({ params: { file: packshotFile }, query: noQuery }, (event, ctx, { params: { file: slug } }) => {

  const key = `packshot:${slug}`;
  let answer: CachedResponse | undefined = ctx.cache?.get(key);
  if (!answer) {
    const product = getPackshotProduct(ctx.db, slug);
    if (!product) throw notFound("Product not found");
    const body = packshotSvg(product);
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
    answer = {
      body,
      headers: {
        "content-type": "image/svg+xml; charset=utf-8",
        "cache-control": "public, max-age=86400",
        etag,
      },
    };
    ctx.cache?.set(key, answer);
  }
  for (const [name, value] of Object.entries(answer.headers)) event.res.headers.set(name, value);
  if (event.req.headers.get("if-none-match") === answer.headers.etag) {
    return new Response(null, { status: 304, headers: answer.headers });
  }
  return answer.body;
});
