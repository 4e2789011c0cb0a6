// What a route table's endpoint lines are in the browser: their patterns alone. The browser never
// runs an endpoint (a link to one is a full load), so `endpoint("/robots.txt", () => import(...))`
// loses its import there, and the endpoint's module gets no browser chunk at all.
import ts from "typescript";

/** `code` with every `endpoint(pattern, load)` call's `load` removed, or null when it has none. */
export function withoutEndpointImports(file: string, code: string): string | null {
  if (!/\bendpoint\s*\(/.test(code)) return null;
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
  const cuts: [number, number][] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "endpoint" &&
      node.arguments.length === 2
    ) {
      // From the end of the pattern to the end of the load: `, () => import("...")`.
      cuts.push([node.arguments[0]!.getEnd(), node.arguments[1]!.getEnd()]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (cuts.length === 0) return null;
  let out = code;
  for (const [start, end] of cuts.reverse()) out = out.slice(0, start) + out.slice(end);
  return out;
}
