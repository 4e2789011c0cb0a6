// An action whose binding the browser's code also reads (`rename.schema` for a form's checks) must
// not take its body into the browser: the client build keeps an `action()`'s schema and cuts its
// run function (with what only that uses), and the browser's `action()` holds no run function. Any
// other worker function the browser's code would keep (a loader's) fails the build, naming it.
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { action } from "../../src/shared/schema-action.ts";
import { builtText, tempApp } from "../node/vite-app";

/** A schema the page's form checks with, whose vendor name marks it in the built output. */
const SCHEMA = `const RenameSchema = {
  "~standard": { version: 1, vendor: "s5_schema_vendor", validate: (value: unknown) => ({ value }) },
};
`;

/** A page that hands the action's schema to its form, as a product would for early field errors. */
const PAGE = `export default function Page() {
  return (
    <Form actionName="rename" schema={rename.schema}>
      <p>the visible text of the rename page</p>
    </Form>
  );
}
`;

describe("a page whose browser code reads its action's schema", () => {
  const app = tempApp();
  afterAll(() => app.remove());
  app.write({
    "db.server.ts": `export function sql(query: string, ...values: unknown[]) { return { query, values, secret: "s5_db_module_marker" }; }\n`,
    // The run function written in the call, its SQL and an env name in it.
    "inline.tsx": `import { action, Form } from "verge";
${SCHEMA}const rename = action(RenameSchema, async ({ input, env }) => {
  await env.DB.prepare("UPDATE s5_inline_passkeys SET name = ?").bind(input.name).run();
  return { renamed: env.S5_RENAME_SECRET };
});
export const actions = { rename };
${PAGE}`,
    // The run function declared apart, through an alias of \`action\`, with a *.server.ts import
    // only it uses.
    "apart.tsx": `import { action as makeAction, Form } from "verge";
import { sql } from "./db.server";
${SCHEMA}async function renameRun({ input, env }: { input: { name: string }; env: Record<string, string> }) {
  return sql("UPDATE s5_apart_passkeys SET name = ?", input.name, env.S5_APART_SECRET);
}
const rename = makeAction(RenameSchema, renameRun, { secret: [] });
export const actions = { rename };
${PAGE}`,
    // Through a namespace import of verge.
    "namespace.tsx": `import * as verge from "verge";
const Form = verge.Form;
${SCHEMA}const rename = verge.action(RenameSchema, async ({ env }) =>
  env.DB.prepare("DELETE FROM s5_namespace_passkeys").run().then(() => env.S5_NAMESPACE_SECRET),
);
export const actions = { rename };
${PAGE}`,
    // Made in a module of its own, which the page imports: that module's copy loses the run.
    "rename-action.ts": `import { action } from "verge";
${SCHEMA}export const rename = action(RenameSchema, async ({ env }) =>
  env.DB.prepare("UPDATE s5_imported_passkeys SET name = ?").run().then(() => env.S5_IMPORTED_SECRET),
);
`,
    "imported.tsx": `import { Form } from "verge";
import { rename } from "./rename-action";
export const actions = { rename };
${PAGE}`,
    "entry-imported.ts": `console.log(await import("./imported"));\n`,
    "entry-inline.ts": `console.log(await import("./inline"));\n`,
    "entry-apart.ts": `console.log(await import("./apart"));\n`,
    "entry-namespace.ts": `console.log(await import("./namespace"));\n`,
  });

  it.each([
    { file: "inline", sql: "UPDATE s5_inline_passkeys", env: "S5_RENAME_SECRET" },
    { file: "apart", sql: "UPDATE s5_apart_passkeys", env: "S5_APART_SECRET" },
    { file: "namespace", sql: "DELETE FROM s5_namespace_passkeys", env: "S5_NAMESPACE_SECRET" },
    { file: "imported", sql: "UPDATE s5_imported_passkeys", env: "S5_IMPORTED_SECRET" },
  ])("keeps the schema and leaves out the run function's SQL and env names ($file)", async (page) => {
    const { dir } = await app.build(`entry-${page.file}.ts`, `out-${page.file}`);
    const client = builtText(path.join(dir, "client"));
    // The page and its schema are built: the scan reads real output.
    expect(client).toContain("the visible text of the rename page");
    expect(client).toContain("s5_schema_vendor");
    expect(client).not.toContain(page.sql);
    expect(client).not.toContain(page.env);
    expect(client).not.toContain("s5_db_module_marker");
  });
});

describe("a worker function the browser's code would keep", () => {
  const app = tempApp();
  afterAll(() => app.remove());
  app.write({
    "loader.tsx": `async function load({ env }: { env: Record<string, string> }) { return env.S5_LOADER_SECRET; }
export { load as loader };
export default function Page() { return <button onClick={() => load({ env: {} })}>load</button>; }
`,
    "hand-written.tsx": `const rename = async ({ env }: { env: Record<string, string> }) => env.S5_HAND_SECRET;
export const actions = { rename };
export default function Page() { return <p>{rename.name}</p>; }
`,
    "entry-loader.ts": `console.log(await import("./loader"));\n`,
    "entry-hand-written.ts": `console.log(await import("./hand-written"));\n`,
  });

  it("fails the build when the browser's code calls the loader's function, naming it and the page", async () => {
    const build = app.build("entry-loader.ts", "out-loader");
    await expect(build).rejects.toThrow(
      `${app.rel("loader.tsx")}: \`Page\` uses \`load\`, the worker's \`loader\``,
    );
  });

  it("fails the build when the browser's code reads a hand-written action, naming it and the page", async () => {
    const build = app.build("entry-hand-written.ts", "out-hand-written");
    await expect(build).rejects.toThrow(
      `${app.rel("hand-written.tsx")}: \`Page\` uses \`rename\`, the worker's \`actions\``,
    );
    await expect(build).rejects.toThrow("export the schema on its own");
  });
});

describe("verge's action used other than by calling it", () => {
  const app = tempApp();
  afterAll(() => app.remove());
  app.write({
    "wrapped.tsx": `import { action } from "verge";
${SCHEMA}const make = action;
const rename = make(RenameSchema, async ({ env }) => env.S5_WRAPPED_SECRET);
export const actions = { rename };
export default function Page() { return <p>{String(rename.schema)}</p>; }
`,
    "entry-wrapped.ts": `console.log(await import("./wrapped"));\n`,
  });

  it("fails the build, naming the binding and the page", async () => {
    await expect(app.build("entry-wrapped.ts", "out-wrapped")).rejects.toThrow(
      `${app.rel("wrapped.tsx")}: \`make\` uses verge's \`action\` other than by calling it`,
    );
  });
});

describe("the browser's copy of action()", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("gives the schema and nothing that runs the run function", async () => {
    vi.stubEnv("SSR", false);
    const schema = {
      "~standard": {
        version: 1 as const,
        vendor: "test",
        validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
      },
    };
    const runs: unknown[] = [];
    const made = action(schema, (args) => runs.push(args));
    expect(made.schema).toBe(schema);
    // Whatever the browser does with it, the run function never runs there.
    await Promise.resolve()
      .then(() => (made as unknown as (args: unknown) => unknown)({ fields: {} }))
      .catch(() => undefined);
    expect(runs).toEqual([]);
  });
});
