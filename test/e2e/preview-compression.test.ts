// `npm run preview` answers as Cloudflare's edge does: text compressed for a client that accepts
// gzip, a streamed page still streamed (its shell inflates before its slow section exists).
import { request } from "node:http";
import { createGunzip } from "node:zlib";
import { describe, expect, inject, it } from "vitest";

/**
 * GET `url` with Accept-Encoding: gzip: the answer's encoding, its inflated text, and when that
 * text first held each of `marks` (ms from the request).
 */
function getGzip(url: URL, marks: string[]) {
  const started = Date.now();
  return new Promise<{ encoding: string | undefined; seen: Record<string, number>; text: string }>(
    (resolve, reject) => {
      const call = request(url, { headers: { "Accept-Encoding": "gzip" } }, (response) => {
        const encoding = response.headers["content-encoding"];
        const body = encoding === "gzip" ? response.pipe(createGunzip()) : response;
        const seen: Record<string, number> = {};
        let text = "";
        body.setEncoding("utf8");
        body.on("data", (chunk: string) => {
          text += chunk;
          for (const mark of marks)
            if (!(mark in seen) && text.includes(mark)) seen[mark] = Date.now() - started;
        });
        body.on("end", () => resolve({ encoding, seen, text }));
        body.on("error", reject);
      });
      call.on("error", reject);
      call.end();
    },
  );
}

describe("npm run preview's compression", () => {
  it("gzips a document for a client that accepts gzip", async () => {
    const home = await getGzip(new URL("/", inject("baseURL")), ["</html>"]);
    expect(home.encoding).toBe("gzip");
    expect(home.text).toContain("</html>");
  });

  it("still streams a gzipped page: /slow's shell inflates before its slow section, in one answer", async () => {
    // The tests' app's /slow: the product's is served from the edge cache, whole, after one visit.
    const slow = new URL("/slow", inject("fixtureURL"));
    const { encoding, seen } = await getGzip(slow, ["<h1>Slow</h1>", 'data-testid="slow-value"']);
    expect(encoding).toBe("gzip");
    const shell = seen["<h1>Slow</h1>"]!;
    const section = seen['data-testid="slow-value"']!;
    // The section's loader value takes about a second: a shell held back until then would come with it.
    expect(section - shell, JSON.stringify(seen)).toBeGreaterThan(500);
  });
});
