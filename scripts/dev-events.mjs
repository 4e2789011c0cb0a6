// `npm run dev`'s channel to the browser: Server-Sent Events on a loopback port of its own, which
// the development build's refresh runtime (client/dev/refresh.ts) listens to. Only `npm run dev`
// opens it; nothing of it is in a production build.
import { createServer } from "node:http";

/** Starts the event server on 127.0.0.1:`port`; `send` goes to every page listening. */
export async function startDevEvents(port) {
  const listeners = new Set();
  const server = createServer((request, response) => {
    if (request.url !== "/events") {
      response.writeHead(404).end();
      return;
    }
    // The page is on wrangler dev's port: this is another origin, so it is allowed by CORS.
    response.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-store",
      "Access-Control-Allow-Origin": "*",
    });
    response.write(": connected\n\n");
    listeners.add(response);
    request.on("close", () => listeners.delete(response));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/events`,
    send(event) {
      for (const listener of listeners) listener.write(`data: ${JSON.stringify(event)}\n\n`);
    },
    close: () => {
      for (const listener of listeners) listener.end();
      server.close();
    },
  };
}
