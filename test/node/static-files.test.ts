// One owner for each URL: a file Workers Static Assets would serve at a route's address fails the
// client build, naming the file and the route line (src/vite/static-files.ts). The product's own
// /robots.txt and /sitemap.xml answer from their endpoints (test/e2e/assets.test.ts).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { shadowedRoutes } from "../../src/vite/static-files.ts";
import { tempApp } from "./vite-app";

describe("a static file at a route's address", () => {
  const app = tempApp();
  afterAll(() => app.remove());
  app.write({
    "entry.ts": `import { routes } from "./routes";\nconsole.log(routes.length);\n`,
    "routes.ts": `import { endpoint, page } from "verge";

export const routes = [
  page("/", () => import("./home")),
  endpoint("/robots.txt", () => import("./robots")),
];
`,
    "home.tsx": `export default function Home() { return <p>home</p>; }\n`,
    "robots.ts": `export const GET = () => new Response("User-agent: *\\n");\n`,
    "public/robots.txt": "User-agent: *\nDisallow: /\n",
    "public/logo.svg": "<svg/>",
    "entry-alone.ts": `import { page } from "verge";\nconsole.log([page("/", () => import("./home"))]);\n`,
  });

  it("fails the build with one sentence naming the file and the route line", async () => {
    await expect(app.build("entry.ts", "out-clash", "public")).rejects.toThrow(
      `/robots.txt has two owners: the file ${app.rel("public/robots.txt")}, which Workers Static ` +
        `Assets serves before the Worker runs, and the route line endpoint("/robots.txt") at ` +
        `${app.rel("routes.ts")}:5; keep one.`,
    );
  });

  it("builds without verge's own robots.txt when a route answers /robots.txt", async () => {
    const { dir } = await app.build("entry.ts", "out-endpoint");
    expect(existsSync(path.join(dir, "client/robots.txt"))).toBe(false);
    expect(existsSync(path.join(dir, "client/_headers"))).toBe(true);
  });

  it("adds an allow-all robots.txt when nothing else claims the address", async () => {
    const { dir } = await app.build("entry-alone.ts", "out-alone");
    expect(readFileSync(path.join(dir, "client/robots.txt"), "utf8")).toBe("User-agent: *\nAllow: /\n");
  });
});

describe("the addresses a static file takes", () => {
  const line = (pattern: string, kind: "page" | "endpoint" = "page") => ({
    pattern,
    kind,
    at: "src/app/routes.ts:9",
  });

  it("counts about.html as /about and docs/index.html as /docs/, as Static Assets serves them", () => {
    const files = [
      { file: "guestbook.html", source: "public/guestbook.html" },
      { file: "errors/index.html", source: "public/errors/index.html" },
    ];
    expect(shadowedRoutes(files, [line("/guestbook"), line("/errors")])).toEqual([
      expect.stringMatching(/^\/guestbook has two owners: the file public\/guestbook.html, /),
      expect.stringMatching(/^\/errors\/ has two owners: the file public\/errors\/index.html, /),
    ]);
  });

  it("counts a file under a pattern's params as that route's address", () => {
    const files = [{ file: "sign-in/options", source: "public/sign-in/options" }];
    expect(shadowedRoutes(files, [line("/sign-in/:step", "endpoint")])).toEqual([
      expect.stringContaining(`the route line endpoint("/sign-in/:step") at src/app/routes.ts:9`),
    ]);
  });

  it("leaves hashed chunks, Static Assets' own settings and other files alone", () => {
    const files = ["assets/entry-AbC123.js", "_headers", "_redirects", "favicon.ico"].map((file) => ({
      file,
      source: file,
    }));
    expect(shadowedRoutes(files, [line("/"), line("/errors/:kind"), line("/_headers")])).toEqual([]);
  });
});
