// The browser harness for passkey tests works: Chromium's virtual authenticator, attached through
// DevTools, creates and offers discoverable passkeys on a page served over http://localhost (a
// secure context), and a credential it no longer holds no longer signs in.
import { createServer, type Server } from "node:http";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addCredential,
  addVirtualAuthenticator,
  CHROMIUM_PATH,
  listCredentials,
  removeCredential,
  setUserVerified,
  toBase64url,
} from "verge/test/browser";
import { freePort } from "../../src/test/browser/preview";

/** A page that runs a ceremony from JSON options and answers the credential's JSON or the error's name. */
const PAGE = `<!doctype html><title>passkeys</title><script>
const run = async (make) => { try { return (await make()).toJSON(); } catch (error) { return { error: error.name }; } };
window.create = (options) => run(() => navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) }));
window.get = (options) => run(() => navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) }));
</script>`;

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const challenge = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

const creation = (name: string, userId: string) => ({
  rp: { id: "localhost", name: "verge" },
  user: { id: userId, name, displayName: name },
  challenge: challenge(),
  pubKeyCredParams: [{ type: "public-key", alg: -7 }],
  authenticatorSelection: { residentKey: "required", userVerification: "required" },
  attestation: "none",
  timeout: 10_000,
});
const request = () => ({
  challenge: challenge(),
  rpId: "localhost",
  userVerification: "required",
  timeout: 3_000,
});

let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  server = createServer((_, response) => response.writeHead(200, { "Content-Type": "text/html" }).end(PAGE));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  origin = `http://localhost:${port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function device() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(origin);
  const authenticator = await addVirtualAuthenticator(context, page);
  type Answer = { id?: string; error?: string; response: Record<string, string> };
  type Ceremonies = Record<"create" | "get", (options: object) => Promise<Answer>>;
  return {
    context,
    page,
    authenticator,
    create: (options: object) => page.evaluate((o) => (window as unknown as Ceremonies).create(o), options),
    get: (options: object) => page.evaluate((o) => (window as unknown as Ceremonies).get(o), options),
  };
}

describe("the virtual authenticator harness", () => {
  it("registers a discoverable passkey, then signs in with it, naming its user", async () => {
    const { context, authenticator, create, get } = await device();
    const userId = base64url(crypto.getRandomValues(new Uint8Array(16)));
    const created = await create(creation("Ada", userId));
    expect(created.error).toBeUndefined();
    const clientData = JSON.parse(Buffer.from(created.response.clientDataJSON!, "base64url").toString());
    expect(clientData).toMatchObject({ type: "webauthn.create", origin });

    const held = await listCredentials(authenticator);
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
    expect(toBase64url(held[0]!.credentialId)).toBe(created.id);
    expect(toBase64url(held[0]!.userHandle!)).toBe(userId);

    const signedIn = await get(request());
    expect(signedIn.error).toBeUndefined();
    expect(signedIn.id).toBe(created.id);
    expect(signedIn.response.userHandle).toBe(userId);
    // The authenticator data's flags: user present and verified.
    const flags = Buffer.from(signedIn.response.authenticatorData!, "base64url")[32]!;
    expect(flags & 0x05).toBe(0x05);
    await context.close();
  });

  it("signs in on a second device holding the same passkey, and not once it is removed", async () => {
    const phone = await device();
    await phone.create(creation("Grace", base64url(crypto.getRandomValues(new Uint8Array(16)))));
    const [credential] = await listCredentials(phone.authenticator);
    const laptop = await device();
    await addCredential(laptop.authenticator, credential!);
    expect((await laptop.get(request())).id).toBe(toBase64url(credential!.credentialId));

    await removeCredential(laptop.authenticator, credential!.credentialId);
    expect(await listCredentials(laptop.authenticator)).toEqual([]);
    expect((await laptop.get(request())).error).toBe("NotAllowedError");
    await phone.context.close();
    await laptop.context.close();
  });

  it("refuses user verification when the device says it failed", async () => {
    const { context, authenticator, create } = await device();
    await setUserVerified(authenticator, false);
    const created = await create(creation("Nobody", base64url(crypto.getRandomValues(new Uint8Array(16)))));
    expect(created.error).toBe("NotAllowedError");
    await context.close();
  });
});
