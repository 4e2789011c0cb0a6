// verge/test/browser: what a product's browser tests import (Node, Chromium through
// playwright-core): a started preview and its log lines, pages of visitors of their own, and
// Chromium's virtual authenticator for passkeys. docs/testing.md.
export { CHROMIUM_PATH, chromiumMissing } from "./chromium-path";
export { launchBrowser, type LaunchOptions } from "./chromium";
export { byName, documentRay, openPage, unexpectedProblems, useBrowser, type ObservedPage } from "./page";
export {
  readLogLines,
  startPreview,
  usePreview,
  type LogLine,
  type Preview,
  type PreviewOptions,
} from "./preview";
export {
  addCredential,
  addVirtualAuthenticator,
  listCredentials,
  removeCredential,
  removeVirtualAuthenticator,
  setUserVerified,
  toBase64url,
  type HeldCredential,
  type VirtualAuthenticator,
} from "./virtual-authenticator";
