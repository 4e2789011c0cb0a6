// Server code never reaches the browser, however a module writes it: each shape below keeps a
// loader, a per-visitor loader or an action (and what only it uses: a *.server.ts import, SQL
// text) in a page, and the client build must leave every marker of it out of dist/client. A form
// the plugin cannot strip safely fails the build with a message that says how to write it.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { builtText, tempApp } from "../node/vite-app";

/** A shape: the page's source, given its own markers (server-only strings) and its visible text. */
interface Shape {
  name: string;
  source: (marker: string, text: string) => string;
}

const DB = `import { sql } from "./db.server";\n`;

const SHAPES: Shape[] = [
  {
    name: "an action declared apart, its SQL written in it (no *.server.ts import)",
    source: (marker, text) => `import { action } from "verge";
const rename = action(async (form, { env }) => env.DB.prepare("UPDATE ${marker} SET name = ?").bind(form.get("name")).run());
export const actions = { rename };
export default function Page() { return <p>${text}</p>; }
`,
  },
  {
    name: "an action declared apart from `export const actions = { rename }`",
    source: (marker, text) => `${DB}import { action } from "verge";
const rename = action(async (form) => sql("UPDATE ${marker} SET name = ?", form.get("name")));
export const actions = { rename };
export default function Page() { return <p>${text}</p>; }
`,
  },
  {
    name: "a loader declared as a function and exported by another name",
    source: (marker, text) => `${DB}async function load() { return sql("SELECT * FROM ${marker}"); }
export { load as loader };
export default function Page() { return <p>${text}</p>; }
`,
  },
  {
    name: "a loader that is a constant declared apart (`export const loader = someConst`)",
    source: (marker, text) => `${DB}const someConst = async () => sql("SELECT * FROM ${marker}");
export const loader = someConst;
export default function Page() { return <p>${text}</p>; }
`,
  },
  {
    name: "a per-visitor loader through helpers that only it calls",
    source: (marker, text) => `${DB}function query(table: string) { return sql("SELECT key FROM " + table); }
const TABLE = "${marker}";
async function forVisitor() { return query(TABLE); }
export { forVisitor as visitorLoader };
export default function Page() { return <p>${text}</p>; }
`,
  },
  {
    name: "actions whose object is declared apart, with a schema only the action reads",
    source: (marker, text) => `${DB}import { action } from "verge";
const schema = { "~standard": { version: 1, vendor: "${marker}-vendor", validate: (value: unknown) => ({ value }) } };
const sign = action(schema, async () => sql("INSERT INTO ${marker} VALUES (1)"));
const all = { sign };
export { all as actions };
export default function Page() { return <p>${text}</p>; }
`,
  },
  {
    name: "a loader exported with `export let` and a loader object with its own methods",
    source: (marker, text) => `${DB}const queries = { list: () => sql("SELECT * FROM ${marker}") };
export let loader = async () => queries.list();
export default function Page() { return <p>${text}</p>; }
`,
  },
  {
    name: "a title and meta exported from a list, the title's variable also read by the page",
    source: (marker, text) => `const title = "${text}";
const pageMeta = { description: "${marker}" };
export { title, pageMeta as meta };
export default function Page() { return <h1>{title}</h1>; }
`,
  },
];

describe("the client build of a page that declares its server code apart from its export", () => {
  const app = tempApp();
  afterAll(() => app.remove());
  const pages = SHAPES.map((shape, i) => ({
    ...shape,
    i,
    marker: `server_marker_${i}_table`,
    text: `the visible text of page ${i}`,
  }));
  app.write({
    "db.server.ts": `export function sql(query: string, ...values: unknown[]) { return { query, values, secret: "db_server_module_marker" }; }\n`,
    ...Object.fromEntries(
      pages.flatMap((page) => [
        [`page-${page.i}.tsx`, page.source(page.marker, page.text)],
        [`entry-${page.i}.ts`, `console.log(await import("./page-${page.i}"));\n`],
      ]),
    ),
  });

  it.each(pages)("leaves out $name, and what only it uses", async (page) => {
    const { dir } = await app.build(`entry-${page.i}.ts`, `out-${page.i}`);
    const client = builtText(path.join(dir, "client"));
    // The page itself is built: the scan reads real output.
    expect(client).toContain(page.text);
    expect(client).not.toContain(page.marker);
    expect(client).not.toContain("db_server_module_marker");
  });
});

describe("a server export the plugin cannot strip safely", () => {
  const app = tempApp();
  afterAll(() => app.remove());
  app.write({
    "db.server.ts": `export const secret = "refused_marker";\n`,
    "parts.tsx": `export async function loader() { return 1; }\nexport default function Part() { return null; }\n`,
    "star.tsx": `export * from "./parts";\n`,
    "destructured.tsx": `import { secret } from "./db.server";\nconst made = { loader: async () => secret };\nexport const { loader } = made;\nexport default function Page() { return null; }\n`,
    "destructured-array.tsx": `const made = [async () => 1];\nexport const [actions] = made;\nexport default function Page() { return null; }\n`,
    "uses-loader.tsx": `export async function loader() { return 1; }\nexport default function Page() { return <button onClick={() => loader()}>go</button>; }\n`,
    "entry-star.ts": `console.log(await import("./star"));\n`,
    "entry-destructured.ts": `console.log(await import("./destructured"));\n`,
    "entry-destructured-array.ts": `console.log(await import("./destructured-array"));\n`,
    "entry-uses-loader.ts": `console.log(await import("./uses-loader"));\n`,
  });

  it("fails the build on `export * from`, saying to name what the browser needs", async () => {
    const build = app.build("entry-star.ts", "out-star");
    await expect(build).rejects.toThrow(`${app.rel("star.tsx")}: \`export * from "./parts"\``);
    await expect(build).rejects.toThrow('name what it re-exports: `export { A, B } from "./parts"`');
  });

  it("fails the build on a destructured `export const { loader } = …`, saying how to declare it", async () => {
    const build = app.build("entry-destructured.ts", "out-destructured");
    await expect(build).rejects.toThrow(`${app.rel("destructured.tsx")}: \`export const { loader }\``);
    await expect(build).rejects.toThrow("export const loader = ");
  });

  it("fails the build on a destructured `export const [actions] = …`", async () => {
    await expect(app.build("entry-destructured-array.ts", "out-array")).rejects.toThrow(
      `${app.rel("destructured-array.tsx")}: \`export const [actions]\``,
    );
  });

  it("fails the build when the browser's code calls the loader, naming both", async () => {
    await expect(app.build("entry-uses-loader.ts", "out-uses")).rejects.toThrow(
      `${app.rel("uses-loader.tsx")}: \`Page\` uses \`loader\``,
    );
  });
});
