// verge:static-files: the files a client build serves beside its chunks: robots.txt (every page
// may be crawled; one that must not says so in its meta) and Workers Static Assets' _headers
// (hashed files cached for a year).
import type { Plugin } from "vite";
import { isClient } from "./context.ts";

const ROBOTS = "User-agent: *\nAllow: /\n";
const IMMUTABLE_ASSETS = "/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n";

export function staticFiles(): Plugin {
  return {
    name: "verge:static-files",
    enforce: "pre",
    generateBundle() {
      if (!isClient(this)) return;
      this.emitFile({ type: "asset", fileName: "robots.txt", source: ROBOTS });
      this.emitFile({ type: "asset", fileName: "_headers", source: IMMUTABLE_ASSETS });
    },
  };
}
