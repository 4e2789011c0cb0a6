// The client manifest, made from the client build's chunks: the build id, the entry and what it
// imports, and for each module the browser loads with `import()` (a page), its chunk, the chunks
// that chunk imports and its stylesheets. The worker embeds it (virtual:verge/manifest).
import { createHash } from "node:crypto";
import type { ClientManifest } from "../server/manifest";

/** What the manifest needs to know of a built chunk. */
export interface ClientChunk {
  fileName: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  /** The module the chunk stands for (root-relative), if any. */
  module: string | null;
  /** Chunks it imports statically. */
  imports: string[];
  /** Stylesheets its modules import. */
  css: string[];
}

const url = (fileName: string) => `/${fileName}`;

export function clientManifest(chunks: ClientChunk[], entry: string): ClientManifest {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  /** A chunk and every chunk it imports statically, transitively: what loading it loads. */
  const closure = (fileName: string, seen = new Set<string>()) => {
    if (seen.has(fileName)) return seen;
    seen.add(fileName);
    for (const imported of byName.get(fileName)?.imports ?? []) closure(imported, seen);
    return seen;
  };
  const styles = (files: Set<string>) =>
    [...new Set([...files].flatMap((f) => byName.get(f)?.css ?? []))].map(url);
  const entryChunk = chunks.find((chunk) => chunk.isEntry && chunk.module === entry);
  if (!entryChunk) throw new Error(`the client build has no chunk for its entry ${entry}`);
  const entryFiles = closure(entryChunk.fileName);
  const entryCss = styles(entryFiles);
  const modules: ClientManifest["modules"] = {};
  for (const chunk of chunks) {
    if (!chunk.isDynamicEntry || chunk.module === null) continue;
    const files = closure(chunk.fileName);
    modules[chunk.module] = {
      file: url(chunk.fileName),
      imports: [...files].filter((f) => f !== chunk.fileName && !entryFiles.has(f)).map(url),
      css: styles(files).filter((href) => !entryCss.includes(href)),
    };
  }
  // Content-hashed names: another name is other content.
  const names = chunks.flatMap((chunk) => [chunk.fileName, ...chunk.css]).sort();
  return {
    build: createHash("sha256").update(names.join("\n")).digest("hex").slice(0, 12),
    mode: "production",
    entry: url(entryChunk.fileName),
    entryImports: [...entryFiles].filter((f) => f !== entryChunk.fileName).map(url),
    css: entryCss,
    modules,
  };
}
