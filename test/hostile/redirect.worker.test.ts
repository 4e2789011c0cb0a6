// redirect() targets: same-site paths and absolute URLs of the page's own origin only. A bad
// target is a programming error: redirect() throws at once, or the answer is a 500 with a digest,
// never a redirect elsewhere. A small app of its own has a page whose loader and action return
// whatever the test sets.
import { afterEach, describe, expect, it } from "vitest";
import { serverLog, visitor } from "verge/test";
import { page, type RouteModule } from "../../src/shared/route-module";
import { redirect, type Redirect } from "../../src/shared/redirect";
import { appWith } from "../worker/apps";
import { ORIGIN } from "../worker/action-helpers";
import { digestIn } from "../worker/html";

const twins = { target: (): unknown => null };
const probe: RouteModule = {
  title: "Twins",
  default: () => null,
  loader: () => twins.target(),
  actions: { go: () => twins.target() },
};
afterEach(() => {
  twins.target = () => null;
});

// Its log lines go to console.log, where verge/test's serverLog finds a request's by its ray.
const app = appWith([page("/twins", async () => probe)], { reportError: () => {} });

/** A visitor's answer, its whole body, and the worker's log lines of it. */
async function send(answer: Promise<Response>) {
  const response = await answer;
  const body = await response.text();
  return { response, body, lines: await serverLog(response) };
}

const twinsVisitor = () => visitor({ worker: app });
const document = () => send(twinsVisitor().get("/twins"));
const pageData = () => send(twinsVisitor().data("/twins"));
const plainPost = () => send(twinsVisitor().form("/twins", { _action: "go" }));
const scriptPost = () => send(twinsVisitor().action("/twins", "go"));

const ELSEWHERE = [
  "//evil.example/x",
  "/\\evil.example",
  "/\t/evil.example",
  "\\\\evil.example",
  "javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "evil.example",
  " /x",
  "",
];

describe("redirect()", () => {
  it.each(ELSEWHERE)("throws for %j, which is not a same-site path or an http(s) URL", (target) => {
    expect(() => redirect(target)).toThrow(/same-site path/);
  });

  it.each(["/", "/guestbook?page=2#entries", "/a//b", "https://verge.example/x", "http://localhost/y"])(
    "takes %j",
    (target) => {
      expect(redirect(target).location).toBe(target);
    },
  );
});

describe("a loader or action redirect to another origin", () => {
  const elsewhere = () => redirect("https://evil.example/phish");

  it.each([
    ["a document", document],
    ["page data", pageData],
    ["a plain form post", plainPost],
    ["a script action", scriptPost],
  ])("answers %s with a 500 and a digest, not a redirect", async (_, request) => {
    twins.target = elsewhere;
    const { response, body, lines } = await request();
    expect(response.status).toBe(500);
    expect(response.headers.get("location")).toBeNull();
    expect(body).not.toContain("evil.example");
    const digest = digestIn(body) ?? (JSON.parse(body) as { error: { digest: string } }).error.digest;
    expect(lines.at(-1)).toMatchObject({ status: 500, digest });
    expect(lines.at(-1)!.message as string).toContain("same-site path");
  });

  it("is refused as well when the Redirect is forged rather than made by redirect()", async () => {
    twins.target = (): Redirect =>
      ({ [Symbol.for("verge.redirect")]: true, location: "javascript:alert(1)" }) as never;
    const { response, body } = await pageData();
    expect(response.status).toBe(500);
    expect(body).not.toContain("javascript");
  });
});

describe("a redirect to an absolute URL of the page's own origin", () => {
  const own = () => redirect(`${ORIGIN}/twins/one?from=twins`);

  it("answers a document with 303 to it", async () => {
    twins.target = own;
    const { response } = await document();
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/twins/one?from=twins`);
  });

  it("answers page data with it as the redirect", async () => {
    twins.target = own;
    const { response, body } = await pageData();
    expect(response.status).toBe(200);
    expect(JSON.parse(body)).toEqual({ redirect: `${ORIGIN}/twins/one?from=twins` });
  });

  it("answers a script action with it as the redirect", async () => {
    twins.target = own;
    const { response, body } = await scriptPost();
    expect(response.status).toBe(200);
    expect(JSON.parse(body)).toEqual({ ok: true, redirect: `${ORIGIN}/twins/one?from=twins` });
  });
});
