// The per-visitor proxy now lives in verge/test/browser (src/test/browser/visitor-proxy.ts); kept for imports of this path.
export * from "../../src/test/browser/visitor-proxy";
