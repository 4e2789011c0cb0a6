// Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain, through playwright-core):
// a passkey device for browser tests, whose credentials a test can list, add and remove.
import type { BrowserContext, CDPSession, Page } from "playwright-core";

export interface VirtualAuthenticator {
  session: CDPSession;
  authenticatorId: string;
}

/** A credential as the authenticator holds it (ids and handles are base64, as CDP sends binary). */
export interface HeldCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  userHandle?: string;
  signCount: number;
  privateKey: string;
}

/**
 * Attaches a platform authenticator like a phone's or a laptop's to `page`: CTAP2, internal,
 * discoverable credentials, user verification that succeeds, and presence given without a prompt.
 * A second call on another page of the context is a second device.
 */
export async function addVirtualAuthenticator(
  context: BrowserContext,
  page: Page,
  options: { isUserVerified?: boolean } = {},
): Promise<VirtualAuthenticator> {
  const session = await context.newCDPSession(page);
  await session.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await session.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      ctap2Version: "ctap2_1",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: options.isUserVerified ?? true,
      automaticPresenceSimulation: true,
    },
  });
  return { session, authenticatorId };
}

/** The credentials the authenticator holds now. */
export async function listCredentials({
  session,
  authenticatorId,
}: VirtualAuthenticator): Promise<HeldCredential[]> {
  const { credentials } = await session.send("WebAuthn.getCredentials", { authenticatorId });
  return credentials;
}

/** Puts a credential (e.g. one listed from another authenticator: a synced passkey) on this one. */
export async function addCredential(
  { session, authenticatorId }: VirtualAuthenticator,
  credential: HeldCredential,
): Promise<void> {
  await session.send("WebAuthn.addCredential", { authenticatorId, credential });
}

/** Removes one credential, as a visitor deleting a passkey from their device would. */
export async function removeCredential(
  { session, authenticatorId }: VirtualAuthenticator,
  credentialId: string,
): Promise<void> {
  await session.send("WebAuthn.removeCredential", { authenticatorId, credentialId });
}

/** Whether the next ceremonies' user verification succeeds (false: the visitor fails the PIN or biometric). */
export async function setUserVerified(
  { session, authenticatorId }: VirtualAuthenticator,
  isUserVerified: boolean,
): Promise<void> {
  await session.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified });
}

/** Detaches the authenticator and its DevTools session. */
export async function removeVirtualAuthenticator({
  session,
  authenticatorId,
}: VirtualAuthenticator): Promise<void> {
  await session.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
  await session.detach();
}

/** CDP's base64 credential id as WebAuthn's JSON writes it (base64url, no padding). */
export const toBase64url = (base64: string) =>
  base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
