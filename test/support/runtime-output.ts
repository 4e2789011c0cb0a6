// Watches what workerd prints while the worker tests run, for what no request may leave behind: an
// uncaught rejection (Workers Logs records each as an exception). Tests in workerd ask over HTTP.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** How workerd begins its report of a rejected promise nothing handled (one write per report). */
const UNCAUGHT = "uncaught exception; source = Uncaught (in promise)";

/**
 * The one report that is workerd's own and not counted: a fetch() with a body (even a string)
 * whose upstream drops the connection is reported as uncaught although the fetch's rejection
 * is handled (workerd 1.20260426; the relay's "ingest is down" test). No JavaScript holds that
 * promise, so nothing in verge can handle it.
 */
const WORKERD_OWN = `${UNCAUGHT}; stack = Error: Network connection lost.\n`;

export interface RuntimeOutputWatch {
  /** GET it: the lines reported since the last GET, as a JSON array, and forgets them. */
  url: string;
  /** Lines no GET has taken yet. */
  unreported(): string[];
  close(): Promise<void>;
}

/**
 * Starts recording the uncaught rejections workerd prints. The pool writes workerd's output to
 * this process's stdout and stderr, so both are watched, and passed on unchanged.
 */
export async function watchRuntimeOutput(): Promise<RuntimeOutputWatch> {
  let lines: string[] = [];
  const restore = [process.stdout, process.stderr].map((stream) => {
    const write = stream.write;
    stream.write = function (this: typeof stream, chunk: unknown, ...rest: unknown[]) {
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString();
      if (text.startsWith(UNCAUGHT) && text !== WORKERD_OWN)
        lines.push(...text.split("\n").filter((line) => line.trim() !== ""));
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof stream.write;
    return () => void (stream.write = write);
  });
  const server = createServer((_, response) => {
    // A turn of the event loop first: output workerd wrote before this request is read by then.
    setImmediate(() => {
      const taken = lines;
      lines = [];
      // Closed after each answer: a kept-alive socket that Node closes after 5 s idle, just as
      // workerd sends the next file's request on it, fails that request ("Network connection lost").
      response
        .writeHead(200, { "content-type": "application/json", connection: "close" })
        .end(JSON.stringify(taken));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/uncaught`,
    unreported: () => lines,
    close: () =>
      new Promise((resolve) => {
        restore.forEach((undo) => undo());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
