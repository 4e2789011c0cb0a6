// A comment or a doc that names one of the project's files names one that exists: after a file is
// renamed or split, the mentions of its old name are what mislead the next reader. Code's own
// strings are left out (a test writes files of its own names); so are other packages' files.
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root } from "./dist";

/** Where comments and docs are read. */
const READ = ["src", "client", "scripts", "test", "docs", "README.md"];

/** The project's folders: a mention that starts with one of them is a path in the project. */
const FOLDERS = ["src", "client", "scripts", "test", "docs", "bench", "migrations"];

/** Named as files a reader creates (the README's first page), not as ones the project has. */
const TO_BE_CREATED = new Set(["src/app/pages/about.tsx", "src/app/layouts/docs.tsx"]);

const SKIPPED = new Set(["node_modules", "dist", ".wrangler", ".tmp"]);

function filesUnder(entry: string): string[] {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  // A test's temporary app (test/node/.tmp-*) may vanish while this reads it: never the project's.
  return readdirSync(full).flatMap((name) =>
    SKIPPED.has(name) || name.startsWith(".tmp-") ? [] : filesUnder(path.join(entry, name)),
  );
}

/** The text of every comment in a script (its strings and code left out). */
function commentsOf(file: string, source: string): string {
  const variant = /\.(tsx|jsx)$/.test(file) ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, variant, source);
  const comments: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia)
      comments.push(scanner.getTokenText());
  }
  return comments.join("\n");
}

/** A file name with one of the project's extensions, with or without folders before it. */
const MENTION = /(?<![\w.\/@-])((?:[\w-]+\/)*[\w-]+\.(?:tsx?|mjs|md|css|sql))(?![\w\/-])/g;

const everyFile = FOLDERS.flatMap(filesUnder).concat(readdirSync(root));
const basenames = new Set(everyFile.map((file) => path.basename(file)));

/** Whether `mention`, made in `file`, names a file the project has (or one it cannot judge). */
function exists(mention: string, file: string): boolean {
  if (TO_BE_CREATED.has(mention)) return true;
  // A bare name: some file of the project has it (the reader finds it by name).
  if (!mention.includes("/")) return basenames.has(mention);
  const first = mention.split("/")[0]!;
  const bases = [path.dirname(file), ".", "src", "test"];
  const ours = FOLDERS.includes(first) || bases.some((base) => existsSync(path.join(root, base, first)));
  // Another package's path (`@sentry/core utils/string.ts`) is not the project's to check.
  if (!ours) return true;
  return bases.some((base) => existsSync(path.join(root, base, mention)));
}

/** Every mention of a project file, in `file`'s comments or text, that names no file. */
function staleMentions(file: string): string[] {
  const source = readFileSync(path.join(root, file), "utf8");
  const text = /\.(md)$/.test(file) ? source : /\.[cm]?[jt]sx?$/.test(file) ? commentsOf(file, source) : "";
  return [...text.matchAll(MENTION)]
    .map((match) => match[1]!)
    .filter((mention) => !exists(mention, file))
    .map((mention) => `${file}: ${mention}`);
}

describe("mentions of the project's files", () => {
  it("name files that exist, in every comment and doc", () => {
    const read = READ.flatMap(filesUnder);
    expect(read.length).toBeGreaterThan(200);
    expect(read.flatMap(staleMentions)).toEqual([]);
  });

  it("are found: a renamed file's old name is caught", () => {
    expect(commentsOf("x.ts", '// see src/server/no-such-file.ts\nconst s = "src/nope.ts";')).not.toContain(
      "nope",
    );
    expect(exists("src/server/no-such-file.ts", "src/server/x.ts")).toBe(false);
    expect(exists("no-such-file.ts", "src/server/x.ts")).toBe(false);
    expect(exists("shell.tsx", "src/server/x.ts")).toBe(true);
    expect(exists("server/shell.tsx", "src/shared/x.ts")).toBe(true);
  });
});
