// One cache entry per page: repeated, reordered or undeclared query parameters and a trailing
// slash cannot split a cached page into as many entries as a visitor can spell its URL.
import { describe, expect, it } from "vitest";
import { recordedApp } from "../worker/apps";
import { page, type PageProps, type RouteModule } from "../../src/shared/route-module";

let runs = 0;

function Listing({ data }: PageProps<{ page: string | null; sort: string | null; run: number }>) {
  return <h1>{`page ${data.page} sort ${data.sort} render ${data.run}`}</h1>;
}

const { send } = recordedApp([
  page("/listing", async (): Promise<RouteModule> => ({
    default: Listing as RouteModule["default"],
    title: "Listing",
    loader: ({ url }) => ({
      page: url.searchParams.get("page"),
      sort: url.searchParams.get("sort"),
      run: ++runs,
    }),
    cache: { maxAge: 60, query: ["page", "sort"] },
  })),
]);

describe("a cached page's key", () => {
  it("is one entry for every spelling of the same declared query and a trailing slash", async () => {
    const first = await send("/listing?page=2&sort=new");
    expect(first.lines[0]).toMatchObject({ cache: "miss" });
    const spellings = [
      "/listing?sort=new&page=2",
      "/listing?page=2&page=2&sort=new",
      "/listing?page=2&sort=new&page=2&sort=new&utm_source=x",
      "/listing/?page=2&sort=new",
      "/listing/?sort=new&page=2&page=2",
    ];
    for (const path of spellings) {
      const { response, body, lines } = await send(path);
      expect(response.status, path).toBe(200);
      expect(lines[0], path).toMatchObject({ cache: "hit" });
      expect(body, path).toContain("page 2 sort new render 1");
    }
  });

  it("is one entry when a declared parameter is repeated with other values: the first is read", async () => {
    const first = await send("/listing?page=7");
    expect(first.body).toContain("page 7 sort null");
    for (const path of ["/listing?page=7&page=8", "/listing?page=7&page=9&page=10"]) {
      const { lines, body } = await send(path);
      expect(lines[0], path).toMatchObject({ cache: "hit" });
      expect(body).toContain("page 7 sort null");
    }
  });
});
