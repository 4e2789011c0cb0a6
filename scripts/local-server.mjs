// What the benchmark and the browser tests share to run the worker locally: a free loopback
// port, and the `wrangler dev` command line for it.
import { createServer } from "node:net";

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Arguments for `wrangler dev` on 127.0.0.1:`port` with its local state (D1) in `persistTo`,
 * without the interactive hotkeys; `config` picks another wrangler.toml, `extra` goes last.
 */
export function wranglerDevArgs({ port, persistTo, config, extra = [] }) {
  return [
    "dev",
    ...(config ? ["--config", config] : []),
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    persistTo,
    "--show-interactive-dev-session=false",
    ...extra,
  ];
}
