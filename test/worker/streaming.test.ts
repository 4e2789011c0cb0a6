import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

describe("/slow", () => {
  it("flushes the shell before the slow section and sends the slow section later in the same response", async () => {
    const response = await exports.default.fetch("http://localhost/slow");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const first = decoder.decode((await reader.read()).value);
    expect(first).toContain("<h1>Slow</h1>");
    expect(first).toContain("Loading the slow part");
    expect(first).not.toContain("Arrived after");
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
    }
    expect(rest).toContain("Arrived after");
  });
});
