// A form key that comes back with other content (Back, edit, send) stores it; the same content stores once.
import { describe, expect, it } from "vitest";
import { postForm, postScript, rowsNamed, uniqueName } from "../worker/action-helpers";
import type { ActionSuccess } from "../../src/shared/protocol";

describe("a reused guestbook form key", () => {
  it("stores a different message sent without JavaScript under a key already used", async () => {
    const name = uniqueName("back-edit");
    const _key = crypto.randomUUID();
    expect((await postForm({ _action: "sign", _key, name, message: "first words" })).status).toBe(303);
    const edited = await postForm({ _action: "sign", _key, name, message: "second thoughts" });
    expect(edited.status).toBe(303);
    const messages = (await rowsNamed(name)).map((row) => row.message).sort();
    expect(messages).toEqual(["first words", "second thoughts"]);
  });

  it("stores a different name under a key already used, with JavaScript, and says it was created", async () => {
    const [first, second] = [uniqueName("renamed"), uniqueName("renamed")];
    const _key = crypto.randomUUID();
    await postScript("sign", { _key, name: first, message: "same message" });
    const edited = await postScript("sign", { _key, name: second, message: "same message" });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as ActionSuccess).result).toEqual({ created: true });
    expect(await rowsNamed(first)).toHaveLength(1);
    expect(await rowsNamed(second)).toHaveLength(1);
  });

  it("stores one entry when the same key brings the same content that differs only in trimmed spaces", async () => {
    const name = uniqueName("respaced");
    const _key = crypto.randomUUID();
    await postForm({ _action: "sign", _key, name, message: "hello\r\nthere" });
    const again = await postScript("sign", { _key, name: ` ${name} `, message: "hello\nthere\n" });
    expect(((await again.json()) as ActionSuccess).result).toEqual({ created: false });
    expect(await rowsNamed(name)).toHaveLength(1);
  });
});
