// A budget measures a chunk's own source: other chunks' hashes in it (the file names it imports, its
// debug ID) do not move its measured size.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { asset, gzipSize, readBuild, staticClosure } from "./dist";
import { stableGzip, stableText } from "./stable-size";

/** `code` as another build would make it if other chunks changed: new hashes, a new debug ID. */
function rehashed(code: string, seed: string): string {
  const fresh = (text: string, length: number) =>
    createHash("sha256")
      .update(seed + text)
      .digest("base64url")
      .slice(0, length);
  return code
    .replace(/-([\w-]{8})\.(js|css)(?=["'`])/g, (_, hash: string, ext: string) => `-${fresh(hash, 8)}.${ext}`)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
      const hex = createHash("sha256")
        .update(seed + id)
        .digest("hex");
      return [
        hex.slice(0, 8),
        hex.slice(8, 12),
        hex.slice(12, 16),
        hex.slice(16, 20),
        hex.slice(20, 32),
      ].join("-");
    });
}

const { manifest } = readBuild();
/** Every chunk a budget measures: the first loads' (entry, shell, pages) and the Web Vitals collector's. */
const measured = [...staticClosure([manifest.entry, ...Object.values(manifest.modules).map((m) => m.file)])];

describe("the size a budget measures", () => {
  it("is the same whatever the hashes of the chunks a chunk imports", () => {
    const moved: string[] = [];
    for (const href of measured) {
      const code = asset(href);
      for (const seed of ["a", "b", "c"]) {
        const other = rehashed(code, seed);
        expect(stableText(other), href).toBe(stableText(code));
        if (gzipSize(other) !== gzipSize(code)) moved.push(href);
      }
    }
    // Without the stand-ins, hashes alone move sizes: the Web Vitals budget once went red by 1 B so.
    expect(moved.length).toBeGreaterThan(0);
  });

  // The stand-ins are random-looking, as hashes are: a run of zeros would shrink every chunk.
  it("stays within a few bytes of the chunk's own gzip size (4 B at most, measured)", () => {
    for (const href of measured) {
      const code = asset(href);
      expect(Math.abs(stableGzip(code) - gzipSize(code)), href).toBeLessThanOrEqual(8);
    }
  });
});
