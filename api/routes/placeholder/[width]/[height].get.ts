import { defineRoute } from "../../../context.ts";
import { placeholderParams } from "../../../../data/domain/queries.ts";
import { placeholderSvg } from "../../../../data/domain/placeholder.ts";

const { width, height } = placeholderParams.shape;

export default defineRoute({ params: { width, height }, query: placeholderParams.pick({ text: true }) }, (_event, _ctx, { params, query: { text } }) => {
  const { width, height } = params;
  return new Response(placeholderSvg(width, height, text), {
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "cache-control": "public, max-age=86400",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      "x-content-type-options": "nosniff",
    },
  });
});
