// A write that changed nothing issues no bookmark: sending the same form again (its idempotency
// key already stored, `ON CONFLICT DO NOTHING`) cannot renew the cache-bypass token for ever.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { postForm, postScript, uniqueName } from "../worker/action-helpers";
import { productOn, scriptSign, spyD1 } from "../worker/d1-doubles";
import { page, type ActionArgs } from "../../src/shared/route-module";
import { D1_BOOKMARK_HEADER, type ActionSuccess } from "../../src/shared/protocol";

const BOOKMARK_COOKIE = /^d1-bookmark=/;
const fields = () => ({ name: uniqueName("again"), message: "twice", _key: crypto.randomUUID() });

/** An insert of a row with `key`, skipped when the key is already stored. */
const insert = (db: Pick<D1Database, "prepare">, key: string) =>
  db
    .prepare(
      "INSERT INTO guestbook (name, message, idempotency_key) VALUES (?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING",
    )
    .bind(uniqueName("batch"), "batch", key);

const batchRoutes = [
  page("/batch", async () => ({
    default: () => null,
    title: "Batch",
    actions: {
      batch: async ({ env, fields }: ActionArgs) => {
        const key = fields.key!;
        await env.DB.batch([insert(env.DB, key), env.DB.prepare("SELECT COUNT(*) AS n FROM guestbook")]);
        return null;
      },
      update: async ({ env }: ActionArgs) => {
        await env.DB.prepare("UPDATE guestbook SET message = message WHERE id = -1").run();
        return null;
      },
    },
  })),
];

async function runAction(action: string, key = crypto.randomUUID()) {
  const { response } = await productOn(spyD1().DB, batchRoutes)(
    "/batch",
    scriptSign({ key }, { "X-Action": action }),
  );
  expect(response.status).toBe(200);
  return response.headers.get(D1_BOOKMARK_HEADER);
}

describe("a write that changed no row", () => {
  it("sends no bookmark cookie when a plain form is sent again with the same key", async () => {
    const sent = fields();
    const first = await postForm({ _action: "sign", ...sent });
    expect(first.status).toBe(303);
    expect(first.headers.get("Set-Cookie")).toMatch(BOOKMARK_COOKIE);
    const again = await postForm({ _action: "sign", ...sent });
    expect(again.status).toBe(303);
    expect(again.headers.has("Set-Cookie")).toBe(false);
  });

  it("sends no bookmark header when our client sends the same form again", async () => {
    const sent = fields();
    const first = await postScript("sign", sent);
    expect(first.headers.get(D1_BOOKMARK_HEADER)).toBeTruthy();
    const again = await postScript("sign", sent);
    expect(((await again.json()) as ActionSuccess).result).toEqual({ created: false });
    expect(again.headers.has(D1_BOOKMARK_HEADER)).toBe(false);
    expect(again.headers.has("Set-Cookie")).toBe(false);
  });

  it("sends none after a batch whose insert was skipped, and one after a batch that inserted", async () => {
    const key = crypto.randomUUID();
    await insert(env.DB, key).run();
    expect(await runAction("batch", key)).toBeNull();
    expect(await runAction("batch")).toBeTruthy();
  });

  it("sends none after an UPDATE that matched no row", async () => {
    expect(await runAction("update")).toBeNull();
  });
});
