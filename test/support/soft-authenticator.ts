// The soft authenticator now lives in verge/test (src/test/soft-authenticator.ts); kept for imports of this path.
export * from "../../src/test/soft-authenticator";
