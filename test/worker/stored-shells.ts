// Stored shells as the edge cache holds them, changed as a fault or an attacker could change them.

/** `stored` with React's postponed state replaced by what `edit` makes of it (its id kept). */
export async function withPostponed(stored: Response, edit: (state: Record<string, unknown>) => unknown) {
  const bytes = new Uint8Array(await stored.arrayBuffer());
  const at = Number(stored.headers.get("X-Verge-Prelude-Length"));
  const end = at + Number(stored.headers.get("X-Verge-Postponed-Length"));
  const state = JSON.parse(new TextDecoder().decode(bytes.subarray(at, end))) as Record<string, unknown>;
  const postponed = new TextEncoder().encode(JSON.stringify(edit(state)));
  const body = new Uint8Array(
    await new Blob([bytes.subarray(0, at), postponed, bytes.subarray(end)]).arrayBuffer(),
  );
  const headers = new Headers(stored.headers);
  headers.set("X-Verge-Postponed-Length", String(postponed.byteLength));
  headers.set("X-Verge-Length", String(body.byteLength));
  return new Response(body, { headers });
}
