// A deliberately wrong page does not compile, and tsc says why in words a page author can act on.
// The wrong pages are test/types/wrong/ (left out of tsconfig.json); the right cases are
// test/types/inference.types.tsx, which `npm run typecheck` checks.
import path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { root } from "./dist";

const WRONG = [
  "wrong-data.tsx",
  "wrong-param.tsx",
  "wrong-link.tsx",
  "wrong-field.tsx",
  "wrong-route.ts",
  "wrong-visitor.tsx",
  "wrong-endpoint.ts",
];

/** tsc's messages for each wrong file, compiled in one program with the product's route table. */
function compileWrongPages(): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  )!;
  const files = WRONG.map((name) => path.join(root, "test/types/wrong", name));
  // The product's table registers the app's routes (href() checks against them).
  const program = ts.createProgram({
    rootNames: [...files, path.join(root, "src/app/routes.ts"), path.join(root, "worker-configuration.d.ts")],
    options: config.options,
  });
  const messages = new Map<string, string[]>();
  for (const file of files) {
    const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(file));
    // Each message after the line tsc points at: where the author is sent to look.
    messages.set(
      path.basename(file),
      diagnostics.map((d) => {
        const line = d.file!.getLineAndCharacterOfPosition(d.start!).line + 1;
        return `line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
      }),
    );
  }
  return messages;
}

describe("a deliberately wrong page", () => {
  let errors: Map<string, string[]>;
  beforeAll(() => {
    errors = compileWrongPages();
  });

  it("reading a field its loader does not return: the field and the data's type", () => {
    expect(errors.get("wrong-data.tsx")!.join("\n")).toContain(
      "Property 'visitor' does not exist on type '{ visitors: number; }'. Did you mean 'visitors'?",
    );
  });

  it("reading a param its pattern does not have: the param and the pattern's params", () => {
    expect(errors.get("wrong-param.tsx")!.join("\n")).toContain(
      "Property 'slug' does not exist on type '{ id: string; }'.",
    );
  });

  it("linking to a path no route has: the path and the app's patterns", () => {
    const message = errors.get("wrong-link.tsx")!.join("\n");
    expect(message).toContain(`Argument of type '"/guestbok"' is not assignable to parameter of type`);
    expect(message).toContain(`"/guestbook"`);
  });

  it("a field the action's schema does not have: the field and the schema's fields", () => {
    const message = errors.get("wrong-field.tsx")!.join("\n");
    expect(message).toContain(`Type '"nmae"' is not assignable to type '"name"'.`);
  });

  it("a route whose page expects other params: one line at that page() line, naming the param", () => {
    const [message] = errors.get("wrong-route.ts")!;
    expect(message).toMatch(
      /^line 5: Argument of type '[^\n]*' is not assignable to parameter of type '[^\n]*'\.$/,
    );
    expect(message).toContain(
      `"page('/users/:id'): its module reads the param 'slug', which the pattern does not have"`,
    );
  });

  it("reading the per-visitor data outside a hole: it is a Promise there", () => {
    expect(errors.get("wrong-visitor.tsx")!.join("\n")).toContain(
      "Property 'name' does not exist on type 'VisitorData<() => { name: string; }>'.",
    );
  });

  it("an endpoint whose handler expects other params: the route and the param it lacks", () => {
    const message = errors.get("wrong-endpoint.ts")!.join("\n");
    expect(message).toContain("does not satisfy the constraint");
    expect(message).toContain("Property 'slug' is missing in type '{ id: string; }'");
  });

  it("and nothing else is wrong in them: one error each", () => {
    expect([...errors.values()].map((messages) => messages.length)).toEqual(WRONG.map(() => 1));
  });
});
