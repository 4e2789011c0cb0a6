// verge:preview: `vite preview` as Cloudflare answers deployed: on wrangler dev's port, text
// compressed for a client that accepts it, each chunk flushed as it comes, so a streamed page
// stays streamed.
import zlib from "node:zlib";
import compression from "compression";
import type { Connect, Plugin } from "vite";

export function preview(): Plugin {
  return {
    name: "verge:preview",
    enforce: "pre",
    config(user) {
      return { preview: { port: user.preview?.port ?? 8787 } };
    },
    configurePreviewServer(server) {
      // Before the Cloudflare plugin's handler (this plugin runs first), which then writes through it.
      // (Typed for Express; it takes Node's own request and response, as Connect hands them.)
      const gzip = compression({
        flush: zlib.constants.Z_SYNC_FLUSH,
      }) as unknown as Connect.NextHandleFunction;
      server.middlewares.use(gzip);
    },
  };
}
