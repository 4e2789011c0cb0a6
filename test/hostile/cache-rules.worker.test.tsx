// What a cached page may know of its visitor (nothing but its URL and method), and Cache-Control
// no shared cache can store, for HTML and page data alike: anything else is refused at start.
import { describe, expect, it } from "vitest";
import { recordedApp } from "../worker/apps";
import { page, type PageProps, type RouteModule } from "../../src/shared/route-module";
import { PAGE_DATA_HEADER } from "../../src/shared/protocol";
import { manifest } from "../worker/apps";

const module =
  (extra: Partial<RouteModule> = {}) =>
  async (): Promise<RouteModule> => ({ default: () => <h1>Page</h1>, title: "Page", ...extra });

/** What a visitor could tell apart: who they are, where from, their language, their bookmark. */
const IDENTITY: Record<string, string> = {
  "Cf-Access-Authenticated-User-Email": "first-visitor@example.com",
  "Cf-Access-Jwt-Assertion": "jwt-of-the-first-visitor",
  "Proxy-Authorization": "Basic Zmlyc3Q6dmlzaXRvcg==",
  "X-Api-Key": "api-key-of-the-first-visitor",
  "CF-Connecting-IP": "203.0.113.77",
  "Accept-Language": "fr-CH-first-visitor",
  "X-Custom-Identity": "custom-identity-of-the-first-visitor",
};

/** The cached page shows every header its loader saw, and the method. */
function Seen({ data }: PageProps<{ headers: string[]; method: string }>) {
  return <pre data-testid="seen">{`${data.method}\n${data.headers.join("\n")}`}</pre>;
}

describe("a cached page's loader", () => {
  const { send } = recordedApp([
    page(
      "/seen",
      module({
        default: Seen as RouteModule["default"],
        loader: ({ request }) => ({
          method: request.method,
          headers: [...request.headers].map(([name, value]) => `${name}: ${value}`),
        }),
        cache: { maxAge: 60 },
      }),
    ),
  ]);

  it("sees none of the request's headers, so no visitor's identity, language or address is stored", async () => {
    const first = await send("/seen", { headers: IDENTITY });
    expect(first.response.status).toBe(200);
    const later = await send("/seen", { headers: { [PAGE_DATA_HEADER]: "1", "X-Build": manifest.build } });
    for (const answer of [first, later]) {
      for (const [name, value] of Object.entries(IDENTITY)) {
        expect(answer.body, name).not.toContain(value);
      }
    }
    expect(first.body).toContain("GET");
  });
});

describe("a route's Cache-Control, checked at start", () => {
  const refused = {
    "HTML without private": { html: "max-age=600" },
    "HTML with no-cache only": { html: "no-cache" },
    "public page data": { data: "public, max-age=60" },
    "page data without private": { data: "max-age=60" },
    "page data with s-maxage": { data: "private, s-maxage=60" },
  };
  for (const [what, cacheControl] of Object.entries(refused)) {
    it(`answers 500 to every request and logs why, for ${what}`, async () => {
      const { send } = recordedApp([page("/", module()), page("/shared", module({ cacheControl }))]);
      for (const path of ["/", "/shared"]) {
        const { response, lines } = await send(path);
        expect(response.status).toBe(500);
        expect(lines[0]).toMatchObject({ level: "error", status: 500 });
        expect(lines[0]!.message).toMatch(/\/shared.*(private|no-store)/);
      }
    });
  }

  it("serves private and no-store answers", async () => {
    const { send } = recordedApp([
      page("/", module({ cacheControl: { html: "private, max-age=60", data: "no-store" } })),
      page("/other", module({ cacheControl: { html: "no-store", data: "private, max-age=5" } })),
    ]);
    expect((await send("/")).response.status).toBe(200);
    expect((await send("/other")).response.status).toBe(200);
  });
});
