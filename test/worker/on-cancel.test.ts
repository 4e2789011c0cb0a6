// The HTML stream's cancel watcher: how the renderer knows a visitor left before React reports the abort.
import { describe, expect, it } from "vitest";
import { onCancel } from "../../src/render";

describe("onCancel", () => {
  it("passes the bytes through unchanged", async () => {
    const source = new Response("<p>streamed</p>").body!;
    const text = await new Response(onCancel(source, () => {})).text();
    expect(text).toBe("<p>streamed</p>");
  });

  it("tells the renderer the visitor left before the cancellation reaches the source stream", async () => {
    const order: string[] = [];
    const source = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new TextEncoder().encode("chunk")),
      cancel: () => {
        order.push("source cancelled");
      },
    });
    const reader = onCancel(source, () => order.push("visitor left")).getReader();
    await reader.read();
    await reader.cancel();
    await expect.poll(() => order).toEqual(["visitor left", "source cancelled"]);
  });
});
