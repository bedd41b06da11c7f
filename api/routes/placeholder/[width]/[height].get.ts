import { defineRoute } from "../../../context.ts";
import { parseWith, routeParam } from "../../../lib/http.ts";
import { placeholderParams } from "../../../../data/domain/queries.ts";
import { placeholderSvg } from "../../../../data/domain/placeholder.ts";

export default defineRoute((event) => {
  const { width, height, text } = parseWith(placeholderParams, {
    width: routeParam(event, "width"),
    height: routeParam(event, "height"),
    text: event.url.searchParams.get("text") ?? undefined,
  });
  return new Response(placeholderSvg(width, height, text), {
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "cache-control": "public, max-age=86400",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      "x-content-type-options": "nosniff",
    },
  });
});
