// What the nested layouts' loaders share (server only): a delay, a failure and a notFound() the URL
// asks for, and how often each loader ran in this isolate, so tests see whether a loader ran again.
import { createContext, notFound, redirect, type Middleware } from "verge";

const loads = new Map<string, number>();

/** A layout's (or page's) data: its id and how many times its loader has run. */
export async function nestLoad(id: string, url: URL): Promise<{ id: string; loads: number }> {
  const delay = Number(url.searchParams.get("delay") ?? 0);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(delay, 1000)));
  if (url.searchParams.get("fail") === id) throw new Error(`${id} failed on purpose`);
  if (url.searchParams.get("missing") === id) throw notFound();
  const count = (loads.get(id) ?? 0) + 1;
  loads.set(id, count);
  return { id, loads: count };
}

/** What the outer layout's middleware found out, for the loaders and actions below. */
export const visitKey = createContext<{ via: string }>("visit");

/**
 * The outer layout's middleware: `?guard=1` sends the visitor to /nest (as a sign-in wall would),
 * `?guard=missing` answers notFound(), and every answer below carries `X-Nest` and a cookie it set.
 */
export const nestGuard: Middleware = async function nestGuard({ url, context, headers }, next) {
  headers.set("X-Nest", "outer");
  if (url.searchParams.get("guard") === "1") {
    return redirect("/nest", { headers: [["Set-Cookie", "nest-guard=1; Path=/; HttpOnly"]] });
  }
  if (url.searchParams.get("guard") === "missing") return notFound();
  context.set(visitKey, { via: "nestGuard" });
  return next();
};

/** Page b's own middleware: `?gone=1` says notFound(), thrown, below every layout's middleware. */
export const nestGone: Middleware = function nestGone({ url }, next) {
  if (url.searchParams.get("gone") === "1") throw notFound();
  return next();
};
