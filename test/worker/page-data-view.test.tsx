// A page's title and meta functions get the loader's data as the page component does: through
// JSON (a Date as its string, undefined fields gone), with a top-level Promise left for <Await>.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { page, type PageProps } from "../../src/shared/route-module";
import type { Data } from "../../src/shared/page-data-types";
import { appWith } from "./apps";
import { BUILD, ORIGIN } from "./action-helpers";

function loader() {
  return { when: new Date(Date.UTC(2026, 10, 25)), gone: undefined, later: Promise.resolve("later") };
}

const dated = {
  loader,
  // Would throw on a Date (no .slice): the title gets what the component gets.
  title: (data: Data<typeof loader>) =>
    `Since ${data.when.slice(0, 10)} (${"gone" in data ? "kept" : "dropped"})`,
  meta: (data: Data<typeof loader>) => ({
    description: `A promise for <Await>: ${data.later instanceof Promise}`,
  }),
  default: ({ data }: PageProps<typeof loader>) => <p>{data.when}</p>,
};

async function send(path: string, init: RequestInit = {}) {
  const app = appWith([page("/dated", async () => dated)], { reportError: () => {}, log: () => {} });
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(`${ORIGIN}${path}`, init), env, ctx);
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  return { response, body };
}

describe("title and meta functions", () => {
  it("see the data as JSON delivers it: a Date as its ISO string, undefined fields dropped", async () => {
    const { response, body } = await send("/dated");
    expect(response.status).toBe(200);
    expect(body).toContain("<title>Since 2026-11-25 (dropped)</title>");
    expect(body).toContain("A promise for &lt;Await&gt;: true");
  });

  it("see the same in page data", async () => {
    const { body } = await send("/dated?_data=1", { headers: { "X-Page-Data": "1", "X-Build": BUILD } });
    expect(JSON.parse(body)).toMatchObject({ title: "Since 2026-11-25 (dropped)" });
  });
});
