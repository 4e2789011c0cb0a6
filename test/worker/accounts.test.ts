import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  addPasskey,
  createAccount,
  deleteOwnEntry,
  entriesByAuthor,
  listPasskeys,
  removePasskey,
  renamePasskey,
} from "../../src/app/db/accounts.server";
import { addEntry } from "../../src/app/db/guestbook.server";

const passkey = (name: string) => ({
  id: crypto.randomUUID(),
  publicKey: new Uint8Array([1, 2, 3]),
  algorithm: -7,
  counter: 0,
  transports: ["internal"],
  name,
});

async function account(displayName = "Owner") {
  const id = crypto.randomUUID();
  const first = passkey("Phone");
  await createAccount(env.DB, { id, displayName }, first);
  return { id, first };
}

const sign = (authorId: string | null, message: string) =>
  addEntry(env.DB, { name: "Author", message, formKey: crypto.randomUUID(), authorId });

describe("an account's passkeys", () => {
  it("are listed oldest first, renamed, and removed, but never the last one", async () => {
    const { id, first } = await account();
    const second = passkey("Laptop");
    await addPasskey(env.DB, id, second);
    expect((await listPasskeys(env.DB, id)).map((p) => p.name).sort()).toEqual(["Laptop", "Phone"]);
    expect(await renamePasskey(env.DB, id, second.id, "Work laptop")).toBe(true);
    expect(await removePasskey(env.DB, id, first.id)).toBe(true);
    expect(await removePasskey(env.DB, id, second.id)).toBe(false);
    expect(await listPasskeys(env.DB, id)).toMatchObject([{ id: second.id, name: "Work laptop" }]);
  });

  it("cannot be renamed or removed by another account", async () => {
    const owner = await account();
    await addPasskey(env.DB, owner.id, passkey("Spare"));
    const other = await account("Other");
    expect(await renamePasskey(env.DB, other.id, owner.first.id, "Mine now")).toBe(false);
    expect(await removePasskey(env.DB, other.id, owner.first.id)).toBe(false);
    expect(await listPasskeys(env.DB, owner.id)).toHaveLength(2);
    expect((await listPasskeys(env.DB, owner.id)).find((p) => p.id === owner.first.id)?.name).toBe("Phone");
  });

  it("refuses a display name or passkey name outside 1 to 60 characters", async () => {
    await expect(
      createAccount(env.DB, { id: crypto.randomUUID(), displayName: "" }, passkey("x")),
    ).rejects.toThrow();
    await expect(
      createAccount(env.DB, { id: crypto.randomUUID(), displayName: "ok" }, passkey("n".repeat(61))),
    ).rejects.toThrow();
  });
});

describe("an entry's author", () => {
  it("is stored with the entry; the account lists its own entries, newest first", async () => {
    const { id } = await account();
    const first = await sign(id, "first of mine");
    const second = await sign(id, "second of mine");
    await sign(null, "anonymous");
    const mine = await entriesByAuthor(env.DB, id);
    expect(mine.map((e) => e.id)).toEqual([second, first]);
  });

  it("alone deletes the entry; another account or an anonymous entry is refused, nothing deleted", async () => {
    const author = await account("Author");
    const other = await account("Other");
    const entry = (await sign(author.id, "delete me"))!;
    const anonymous = (await sign(null, "nobody's"))!;
    expect(await deleteOwnEntry(env.DB, other.id, entry)).toBe(false);
    expect(await deleteOwnEntry(env.DB, other.id, anonymous)).toBe(false);
    const still = await env.DB.prepare("SELECT count(*) AS n FROM guestbook WHERE id IN (?, ?)")
      .bind(entry, anonymous)
      .first<{ n: number }>();
    expect(still?.n).toBe(2);
    expect(await deleteOwnEntry(env.DB, author.id, entry)).toBe(true);
    expect(await deleteOwnEntry(env.DB, author.id, entry)).toBe(false);
  });

  it("outlives its account as an anonymous entry; the account's passkeys and sessions go", async () => {
    const { id } = await account();
    const entry = (await sign(id, "kept"))!;
    await env.DB.prepare(
      "INSERT INTO sessions (id, account_id, created_at, expires_at, absolute_expires_at) VALUES (?, ?, 0, 1, 2)",
    )
      .bind(crypto.randomUUID(), id)
      .run();
    await env.DB.prepare("DELETE FROM accounts WHERE id = ?").bind(id).run();
    const row = await env.DB.prepare("SELECT author_id FROM guestbook WHERE id = ?").bind(entry).first();
    expect(row).toEqual({ author_id: null });
    expect(await listPasskeys(env.DB, id)).toEqual([]);
    const sessions = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE account_id = ?")
      .bind(id)
      .first();
    expect(sessions).toEqual({ n: 0 });
  });
});
