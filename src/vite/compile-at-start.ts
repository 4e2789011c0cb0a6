// verge:compile-at-start: React and Hono, which every page request runs nearly all of, are
// compiled as the Worker starts, not during its first request. V8 compiles a function when it is
// first called, unless it reads as about to be called: a function in parentheses, `(function …)`
// or `(() => …)`, which it compiles with its module. So the worker's build puts their functions
// in parentheses and turns each top-level `function f` into `var f = (function f …)` at the top of
// its module, where the declaration was hoisted to; the minifier keeps the parentheses. verge's
// own code and the product's stay lazy: most of it serves requests a given page does not make.
// docs/decisions.md, "React and Hono compiled as the Worker starts", says what it moves.
import MagicString, { type SourceMap } from "magic-string";
import type { Plugin } from "vite";
import { isClient } from "./context.ts";

/** The packages every page request runs nearly all of. */
const PACKAGES = /[\\/]node_modules[\\/](hono|react|react-dom)[\\/]/;

/** Whether the worker's module `id` (a path) is compiled as the Worker starts. */
export function compiledAtStart(id: string): boolean {
  const file = id.split("?")[0]!;
  if (!/\.[cm]?[jt]sx?$/.test(file)) return false;
  return PACKAGES.test(file);
}

/** A node of the ESTree program Vite's parser gives. */
interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && typeof (value as Node).type === "string";

function children(node: Node): Node[] {
  const found: Node[] = [];
  for (const key in node) {
    const value = node[key];
    if (Array.isArray(value)) found.push(...value.filter(isNode));
    else if (isNode(value)) found.push(value);
  }
  return found;
}

/** A function that may stand in parentheses (a method or accessor may not). */
function isFunctionValue(node: Node, parent: Node): boolean {
  if (node.type !== "FunctionExpression" && node.type !== "ArrowFunctionExpression") return false;
  if (parent.type === "MethodDefinition") return false;
  return !(parent.type === "Property" && (parent.method === true || parent.kind !== "init"));
}

/**
 * `code`, a module of JavaScript, with its functions marked to compile with it, and the source
 * map of the change; null when it has none. `program` is `code` parsed (ESTree, with offsets).
 */
export function markEager(code: string, program: Node): { code: string; map: SourceMap } | null {
  const out = new MagicString(code);
  const body = program.body as Node[];
  // Where the declarations go: after the directives ("use strict"), before any other statement.
  const top = body.find((statement) => !("directive" in statement))?.start ?? code.length;
  let marked = 0;
  const parenthesize = (node: Node, parent: Node) => {
    // Already in parentheses of its own (not those of a call's arguments): as it is.
    const call =
      (parent.type === "CallExpression" || parent.type === "NewExpression") && parent.callee !== node;
    if (!call && code[node.start - 1] === "(" && code[node.end] === ")") return;
    out.appendLeft(node.start, "(");
    out.prependRight(node.end, ")");
    marked++;
  };
  const visit = (node: Node, parent: Node) => {
    if (isFunctionValue(node, parent)) parenthesize(node, parent);
    for (const child of children(node)) visit(child, node);
  };
  for (const statement of body) {
    const exported = statement.type === "ExportNamedDeclaration" && isNode(statement.declaration);
    const declaration = exported ? (statement.declaration as Node) : statement;
    const name = (declaration.id as { name?: string } | null | undefined)?.name;
    if (declaration.type !== "FunctionDeclaration" || !name) {
      visit(statement, program);
      continue;
    }
    // Hoisted as the declaration was: callable from anywhere in the module, its first line too.
    if (statement.start > top) out.move(statement.start, statement.end, top);
    const head = `${exported ? "export " : ""}var ${name} = (`;
    if (exported) out.overwrite(statement.start, declaration.start, head);
    else out.prependRight(declaration.start, head);
    out.appendLeft(declaration.end, ");\n");
    marked++;
    for (const child of children(declaration)) visit(child, declaration);
  }
  return marked === 0 ? null : { code: out.toString(), map: out.generateMap({ hires: true }) };
}

export function compileAtStart(enabled: boolean): Plugin {
  return {
    name: "verge:compile-at-start",
    apply: (_, { command }) => enabled && command === "build",
    sharedDuringBuild: true,
    // After TypeScript and JSX are compiled away: plain JavaScript, as the bundler reads it.
    enforce: "post",
    transform(code, id) {
      if (isClient(this) || !compiledAtStart(id)) return undefined;
      return markEager(code, this.parse(code) as unknown as Node);
    },
  };
}
