// What becomes of a request body the app refuses: within the size limit it is read to its end and
// dropped, so no request is answered half-read (README, "Refused bodies"); past the limit it is
// cancelled, so the refusal goes out at once instead of after the rest.

/** Whether `request` declares a body over `limit` bytes (no or a malformed Content-Length: no). */
export function declaresOver(request: Request, limit: number): boolean {
  return Number(request.headers.get("Content-Length")) > limit;
}

/**
 * Reads what is left of `body` and drops it. Past `limit` bytes it is cancelled and false is
 * returned (the caller answers 413). A body that fails midway (its sender left) is done with.
 */
export async function drainBody(body: ReadableStream<Uint8Array>, limit: number): Promise<boolean> {
  const reader = body.getReader();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      bytes += value.byteLength;
      if (bytes > limit) break;
    }
  } catch {
    return true;
  }
  reader.cancel().catch(() => {});
  return false;
}

/**
 * What to throw for a request refused before its body was read, once that body is settled:
 * `refusal`, or `tooLarge()` when the body is over `limit` (declared, or counted while draining).
 */
export async function settleRefusedBody(
  request: Request,
  limit: number,
  refusal: unknown,
  tooLarge: () => Error,
): Promise<unknown> {
  const body = request.body;
  if (body === null || request.bodyUsed || body.locked) return refusal;
  if (declaresOver(request, limit)) {
    await body.cancel().catch(() => {});
    return tooLarge();
  }
  return (await drainBody(body, limit)) ? refusal : tooLarge();
}
