// Fields beyond text on the tests' own app (/choices): a select, a radio group, checkboxes and a
// hidden input render as HTML forms do, and a form refused without JavaScript (422) comes back
// with each as it was sent: the option chosen, the radio and the boxes as they were, the hidden
// value.
import { describe, expect, it } from "vitest";
import { fixtureRequest } from "./apps";

const ORIGIN = "http://localhost";

/** A plain HTML form post (no JavaScript), as a browser sends it. */
function postForm(fields: Record<string, string>) {
  return fixtureRequest("/choices", {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
    body: new URLSearchParams(fields).toString(),
  });
}

interface Control {
  tag: string;
  attributes: Record<string, string>;
}

/** The form's inputs, options (each with its select's name) and fieldsets, in document order. */
async function controlsOf(html: string): Promise<Control[]> {
  const found: Control[] = [];
  let select = "";
  const attributesOf = (element: { attributes: unknown }) =>
    Object.fromEntries(element.attributes as Iterable<[string, string]>);
  await new HTMLRewriter()
    .on("input, fieldset", {
      element(element) {
        found.push({ tag: element.tagName, attributes: attributesOf(element) });
      },
    })
    .on("select", {
      element(element) {
        select = element.getAttribute("name") ?? "";
      },
    })
    .on("option", {
      element(element) {
        found.push({ tag: "option", attributes: { ...attributesOf(element), select } });
      },
    })
    .transform(new Response(html))
    .text();
  return found;
}

const named = (controls: Control[], name: string) =>
  controls.filter((c) => c.attributes.name === name || c.attributes.select === name);
/** The values of the inputs (or options) of `name` that are checked (or selected). */
const chosen = (controls: Control[], name: string) =>
  named(controls, name)
    .filter((c) => "checked" in c.attributes || "selected" in c.attributes)
    .map((c) => c.attributes.value ?? "on"); // a checkbox without a value sends "on"

describe("fields beyond text, first shown", () => {
  it("render a select with its default, radios none chosen, boxes as declared and the hidden value", async () => {
    const response = await fixtureRequest("/choices");
    expect(response.status).toBe(200);
    const controls = await controlsOf(await response.text());
    expect(named(controls, "tone").map((c) => c.attributes.value)).toEqual(["warm", "dry", "loud"]);
    expect(chosen(controls, "tone")).toEqual(["dry"]);
    expect(named(controls, "size").map((c) => c.attributes.type)).toEqual(["radio", "radio", "radio"]);
    expect(chosen(controls, "size")).toEqual([]);
    expect(chosen(controls, "gift")).toEqual([]);
    expect(named(controls, "gift")[0]!.attributes.value).toBe("yes");
    expect(chosen(controls, "news")).toEqual(["on"]);
    expect(named(controls, "source")).toEqual([
      { tag: "input", attributes: { type: "hidden", name: "source", value: "choices-page" } },
    ]);
  });

  it("give the submit button the attributes the page gave it (an accessible name, a class)", async () => {
    const html = await (await fixtureRequest("/choices")).text();
    expect(html).toMatch(
      /<button aria-label="Place the order" class="order-button" type="submit">Order<\/button>/,
    );
  });
});

describe("fields beyond text, after a refusal without JavaScript", () => {
  it("come back with the option, the radio and the boxes as sent, and the hidden value", async () => {
    // The name is missing: 422. The news box, checked by default, was unchecked (so not sent).
    const response = await postForm({
      _action: "order",
      name: "",
      tone: "loud",
      size: "m",
      gift: "yes",
      source: "choices-page",
    });
    expect(response.status).toBe(422);
    const controls = await controlsOf(await response.text());
    expect(chosen(controls, "tone")).toEqual(["loud"]);
    expect(chosen(controls, "size")).toEqual(["m"]);
    expect(chosen(controls, "gift")).toEqual(["yes"]);
    expect(chosen(controls, "news")).toEqual([]);
    expect(named(controls, "source")[0]!.attributes.value).toBe("choices-page");
  });

  it("mark a radio group left unchosen invalid, described by its error, as one group", async () => {
    const response = await postForm({ _action: "order", name: "Ann", tone: "warm", source: "choices-page" });
    expect(response.status).toBe(422);
    const html = await response.text();
    const group = (await controlsOf(html)).find((c) => c.tag === "fieldset")!;
    expect(group.attributes).toMatchObject({ role: "radiogroup", "aria-invalid": "true" });
    const errorId = group.attributes["aria-describedby"]!;
    expect(new RegExp(`id="${errorId}"[^>]*>([^<]*)<`).exec(html)?.[1]).toBe("Pick a size.");
    expect(chosen(await controlsOf(html), "tone")).toEqual(["warm"]);
  });

  it("take the order once every field is valid: 303 back to the page", async () => {
    const response = await postForm({ _action: "order", name: "Ann", tone: "dry", size: "l", source: "x" });
    expect(response.status).toBe(303);
  });
});
