/**
 * The admin app's list-and-form calls (`resource`) against the real API on loopback, as the
 * browser makes them: same-origin paths, the session cookie, JSON bodies. Each call is checked
 * where its effect lands (the database), and a refused one throws the server's message and
 * changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../api/test/server.ts";
import { ApiError } from "../../lib/api.ts";
import { resource } from "./admin-api.ts";

let server: TestServer;
const browserFetch = globalThis.fetch;

interface Category {
  id: number;
  name: string;
  slug: string;
  icon: string;
  description: string;
}
type CategoryInput = Omit<Category, "id">;

const categories = resource<Category, CategoryInput, { id: number }, Category[]>("/api/categories");
const stored = (id: number) => server.db.$client.prepare("SELECT name, slug, icon, description FROM categories WHERE id = ?").get(id);
const count = () => (server.db.$client.prepare("SELECT count(*) AS n FROM categories").get() as { n: number }).n;

beforeAll(async () => {
  server = await startTestServer({ products: 20 });
  const cookie = await server.login();
  // The page's origin is the server's: a path the app asks for goes there with the session cookie, as in the browser.
  globalThis.fetch = (input, init) =>
    browserFetch(`${server.baseUrl}${String(input)}`, { ...init, headers: { ...(init?.headers as Record<string, string>), cookie } });
});
afterAll(async () => {
  globalThis.fetch = browserFetch;
  await server.close();
});

describe("resource", () => {
  it("creates, reads, lists, updates and deletes through the path it was given", async () => {
    const before = count();
    const { id } = await categories.create({ name: "Rabbit Hay", slug: "rabbit-hay", icon: "rabbit", description: "Timothy and meadow hay" });
    expect(stored(id)).toEqual({ name: "Rabbit Hay", slug: "rabbit-hay", icon: "rabbit", description: "Timothy and meadow hay" });
    expect(count()).toBe(before + 1);

    expect(await categories.get(id)).toMatchObject({ id, name: "Rabbit Hay", slug: "rabbit-hay" });
    expect((await categories.list()).map((category) => category.slug)).toContain("rabbit-hay");

    await categories.update(id, { name: "Rabbit Hay & Forage", slug: "rabbit-hay", icon: "rabbit", description: "" });
    expect(stored(id)).toEqual({ name: "Rabbit Hay & Forage", slug: "rabbit-hay", icon: "rabbit", description: "" });

    await categories.remove(id);
    expect(stored(id)).toBeUndefined();
    expect(count()).toBe(before);
  });

  it("throws the server's message for a refused write, and nothing is stored", async () => {
    const before = count();
    const refused = categories.create({ name: "", slug: "no-name", icon: "rabbit", description: "" });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 400, error: "name is required" });
    expect(count()).toBe(before);
  });

  it("throws a 404 for an id that is not there", async () => {
    await expect(categories.get(999_999)).rejects.toMatchObject({ status: 404 });
  });
});
