// Chromium's virtual authenticator now lives in verge/test/browser; kept for imports of this path.
export * from "../../src/test/browser/virtual-authenticator";
