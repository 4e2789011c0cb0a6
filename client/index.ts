// verge/client: what a browser entry needs to hydrate a product (client/entry.tsx, test/fixture-app).
export { hydrate } from "./hydrate";
