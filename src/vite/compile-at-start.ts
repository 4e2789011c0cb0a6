// verge:compile-at-start: React's code in the worker build, marked for V8 to compile as the Worker
// starts rather than during its first request. V8 compiles a function when first called, unless it
// reads as about to be called: a function in parentheses, which it compiles with its module. Every
// page request runs most of React's renderer, so the build puts React's functions in parentheses and
// makes each top-level `function f` a `var f = (function …)` at the top of its module, where the
// declaration was hoisted to; the minifier keeps the parentheses. Hono's request path is mostly
// methods (which cannot be marked), and verge's own code mostly serves requests a given page does
// not make: both stay lazy, as the product's pages do. docs/decisions.md, "React compiled as the
// Worker starts", says what it moves.
import MagicString, { type SourceMap } from "magic-string";
import type { Plugin } from "vite";
import { isClient } from "./context.ts";

/** React's packages: the renderer every page request runs, and what it requires. */
const REACT = /[\\/]node_modules[\\/](react|react-dom)[\\/]/;

/** Whether the worker's module `id` (a path) is compiled as the Worker starts. */
export function compiledAtStart(id: string): boolean {
  const file = id.split("?")[0]!;
  return /\.[cm]?js$/.test(file) && REACT.test(file);
}

/** A node of the ESTree program Vite's parser gives. */
interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is AstNode =>
  typeof value === "object" && value !== null && typeof (value as AstNode).type === "string";

function children(node: AstNode): AstNode[] {
  const found: AstNode[] = [];
  for (const key in node) {
    const value = node[key];
    if (Array.isArray(value)) found.push(...value.filter(isNode));
    else if (isNode(value)) found.push(value);
  }
  return found;
}

/** A function that may stand in parentheses (a method or accessor may not). */
function isFunctionValue(node: AstNode, parent: AstNode): boolean {
  if (node.type !== "FunctionExpression" && node.type !== "ArrowFunctionExpression") return false;
  if (parent.type === "MethodDefinition") return false;
  return !(parent.type === "Property" && (parent.method === true || parent.kind !== "init"));
}

/** The names a statement declares in its module's scope: its own, and every `var` it holds. */
function declaredNames(statement: AstNode): string[] {
  const names: string[] = [];
  const id = (node: unknown) => isNode(node) && node.type === "Identifier" && names.push(node.name as string);
  const walk = (node: AstNode, top: boolean) => {
    if (top && (node.type === "FunctionDeclaration" || node.type === "ClassDeclaration")) id(node.id);
    if (/Function/.test(node.type) || node.type === "ClassDeclaration") return;
    if (node.type === "VariableDeclaration" && (top || node.kind === "var"))
      for (const declarator of node.declarations as AstNode[]) id(declarator.id);
    for (const child of children(node)) walk(child, false);
  };
  walk(statement, true);
  return names;
}

/**
 * `code`, a module of JavaScript, with its functions marked to compile with it, and the source
 * map of the change; null when it has none. `program` is `code` parsed (ESTree, with offsets).
 * What the marks could change is left as it is: exported declarations (an import cycle may call
 * one before its module runs), and a name declared twice.
 */
export function markToCompileAtStart(
  code: string,
  program: AstNode,
): { code: string; map: SourceMap } | null {
  const out = new MagicString(code);
  const body = program.body as AstNode[];
  // Where the declarations go: after the directives ("use strict"), before any other statement.
  const top = body.find((statement) => !("directive" in statement))?.start ?? code.length;
  const declared = new Map<string, number>();
  for (const name of body.flatMap(declaredNames)) declared.set(name, (declared.get(name) ?? 0) + 1);
  let marked = 0;
  const parenthesize = (node: AstNode, parent: AstNode) => {
    // Already in parentheses of its own (those of a call's arguments are the call's): as it is.
    const argument =
      (parent.type === "CallExpression" || parent.type === "NewExpression") && parent.callee !== node;
    if (!argument && code[node.start - 1] === "(" && code[node.end] === ")") return;
    out.appendLeft(node.start, "(");
    out.prependRight(node.end, ")");
    marked++;
  };
  const visit = (node: AstNode, parent: AstNode) => {
    if (isFunctionValue(node, parent)) parenthesize(node, parent);
    for (const child of children(node)) visit(child, node);
  };
  for (const statement of body) {
    const id = statement.id as AstNode | null | undefined;
    const name = id?.name as string | undefined;
    if (statement.type !== "FunctionDeclaration" || !id || !name || declared.get(name) !== 1) {
      visit(statement, program);
      continue;
    }
    // Hoisted as the declaration was: callable from anywhere in the module, its first line too.
    // Its place keeps a `;`, so the statements around it stay apart. The function loses its own
    // name, which its body could not assign to as it could to the declaration's (`f.name` is
    // still "f").
    if (statement.start > top) out.move(statement.start, statement.end, top);
    out.appendRight(statement.end, ";");
    out.prependRight(statement.start, `var ${name} = (`);
    out.remove(id.start, id.end);
    out.appendLeft(statement.end, ");\n");
    marked++;
    for (const child of children(statement)) visit(child, statement);
  }
  return marked === 0 ? null : { code: out.toString(), map: out.generateMap({ hires: "boundary" }) };
}

export function compileAtStart(enabled: boolean): Plugin {
  return {
    name: "verge:compile-at-start",
    apply: (_, { command }) => enabled && command === "build",
    sharedDuringBuild: true,
    // After the other transforms: React's file as the bundler reads it.
    enforce: "post",
    transform(code, id) {
      if (isClient(this) || !compiledAtStart(id)) return undefined;
      return markToCompileAtStart(code, this.parse(code) as unknown as AstNode);
    },
  };
}
