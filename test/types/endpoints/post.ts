// An endpoint that expects a :slug param (type tests): it does not fit "/users/:id".
import type { EndpointArgs } from "verge";

export const GET = ({ params }: EndpointArgs<"/posts/:slug">) => Response.json({ slug: params.slug });
