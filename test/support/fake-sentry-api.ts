// A stand-in for the part of Sentry's web API that `sentry-cli sourcemaps upload` talks to: it
// asks for the upload options, sends the artifact bundle (a zip) in chunks, then assembles it.
// Records what was assembled and the bundle's files, unzipped, for the tests to read.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash } from "node:crypto";
import { inflateRawSync } from "node:zlib";

export interface AssembledBundle {
  /** The assemble request: checksum, chunks, projects, version (the release). */
  request: { checksum: string; chunks: string[]; projects: string[]; version?: string };
  /** The artifact bundle's files by name (manifest.json among them). */
  files: Map<string, Buffer>;
}

export interface FakeSentryApi {
  url: string;
  assembled: AssembledBundle[];
  close(): Promise<void>;
}

/** The entries of a zip file, from its central directory (stored or deflated). */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + skip;
  }
  return files;
}

/** The file parts of a multipart/form-data body. */
function multipartFiles(body: Buffer, contentType: string): Buffer[] {
  const boundary = Buffer.from(`--${/boundary=("?)([^";]+)\1/.exec(contentType)![2]}`);
  const parts: Buffer[] = [];
  let at = body.indexOf(boundary);
  while (at >= 0) {
    const next = body.indexOf(boundary, at + boundary.length);
    if (next < 0) break;
    const part = body.subarray(at + boundary.length, next - 2); // the CRLF before the boundary
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd >= 0) parts.push(part.subarray(headerEnd + 4));
    at = next;
  }
  return parts;
}

export async function startFakeSentryApi(): Promise<FakeSentryApi> {
  const chunks = new Map<string, Buffer>();
  const assembled: AssembledBundle[] = [];
  const server: Server = createServer((request, response) => {
    const body: Buffer[] = [];
    request.on("data", (chunk: Buffer) => body.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://localhost");
      const json = (value: unknown) =>
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (url.pathname.endsWith("/chunk-upload/") && request.method === "GET") {
        return json({
          url: `http://${request.headers.host}${url.pathname}`,
          chunkSize: 8 * 1024 * 1024,
          chunksPerRequest: 64,
          maxFileSize: 2 ** 31,
          maxRequestSize: 32 * 1024 * 1024,
          concurrency: 1,
          hashAlgorithm: "sha1",
          compression: [],
          accept: ["artifact_bundles", "sources", "release_files"],
        });
      }
      if (url.pathname.endsWith("/chunk-upload/")) {
        for (const part of multipartFiles(Buffer.concat(body), String(request.headers["content-type"]))) {
          chunks.set(createHash("sha1").update(part).digest("hex"), part);
        }
        return json({});
      }
      if (url.pathname.endsWith("/artifactbundle/assemble/")) {
        const assemble = JSON.parse(Buffer.concat(body).toString("utf8"));
        const missing = (assemble.chunks as string[]).filter((sha) => !chunks.has(sha));
        if (missing.length > 0) return json({ state: "not_found", missingChunks: missing });
        const zip = Buffer.concat(assemble.chunks.map((sha: string) => chunks.get(sha)!));
        assembled.push({ request: assemble, files: unzip(zip) });
        return json({ state: "created", missingChunks: [] });
      }
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    assembled,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
