// GET /api/entries?page=N: one page of the guestbook as JSON ({ entries, page, pages }), for other
// clients than the browser pages. The same for everyone: kept in the edge cache for a minute.
import type { EndpointArgs } from "verge";
import { listEntries, pageNumber, pagesOf } from "../db/guestbook.server";

export const cache = { maxAge: 60, staleWhileRevalidate: 60, query: ["page"] };

const refused = (status: number, message: string) => Response.json({ error: { message } }, { status });

export async function GET({ url, env }: EndpointArgs<"/api/entries">) {
  const param = url.searchParams.get("page");
  const page = param === null ? 1 : pageNumber(param);
  if (page === null) return refused(400, "page must be a whole number from 1.");
  const { entries, total } = await listEntries(env.DB, page);
  const pages = pagesOf(total);
  if (page > pages) return refused(404, `Page ${page} is past the last (${pages}).`);
  return Response.json({ entries, page, pages });
}
