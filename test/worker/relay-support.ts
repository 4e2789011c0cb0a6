// Helpers for the relay tests: the app with captured log lines, envelopes, and the fake ingest.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { productApp } from "./apps";
import type { RecordedEnvelope } from "../support/fake-ingest";

export const ingestURL = inject("ingestURL");
const ingestHost = new URL(ingestURL).host;

/** A DSN naming the fake ingest and `project`. */
export const dsnFor = (project: number | string, host = ingestHost) => `http://publickey@${host}/${project}`;

export function envelope(dsn: string, extraItems = ""): string {
  const eventId = crypto.randomUUID().replaceAll("-", "");
  const event = JSON.stringify({ event_id: eventId, message: "relay test", level: "error" });
  return `${JSON.stringify({ dsn, event_id: eventId })}\n{"type":"event"}\n${event}\n${extraItems}`;
}

/** A random visitor IP, so the per-IP limit of one test does not spill into another. */
export const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250)).join(".")}`;

export interface RelayCall {
  response: Response;
  /** Log lines the app wrote for the request, parsed. */
  lines: Record<string, unknown>[];
}

/** POSTs (by default) to /monitoring through the real app in workerd, with `vars` over the env. */
export async function relay(
  init: Omit<RequestInit, "headers"> & { headers?: Record<string, string>; duplex?: "half" },
  vars: Partial<Env> = {},
): Promise<RelayCall> {
  const lines: string[] = [];
  const app = productApp({ reportError: () => {}, log: (line) => lines.push(line) });
  const ctx = createExecutionContext();
  const request = new Request("http://localhost/monitoring", {
    method: "POST",
    ...init,
    headers: { "CF-Connecting-IP": randomIp(), ...init.headers },
  });
  const response = await app.fetch(request, { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return { response, lines: lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

export async function control(path: string): Promise<unknown> {
  const response = await fetch(`${ingestURL}/__control/${path}`);
  return response.json();
}

export const received = (project: number) =>
  control(`envelopes?project=${project}`) as Promise<RecordedEnvelope[]>;

export const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
