// The /items page every peer renders in the side-by-side runs: a 500-row table from a loader, and
// a counter that hydrates. The app serves it as a route, the floor renders the same component
// with the same loader (floor-worker.tsx); `rows` makes the larger pages (items-10x). Under
// /shell/, the same page greets each visitor by name in a hole: a stored shell, resumed per visitor.
import { Suspense, useState } from "react";
// verge's public entry (`verge` to the product; bench/ is a package of its own, which cannot name it).
import {
  Await,
  layout,
  page,
  type CachePolicy,
  type LayoutModule,
  type LayoutProps,
  type LoaderArgs,
  type PageProps,
} from "../../src/shared";
import type { RouteModule } from "../../src/shared/route-module";

export interface Item {
  id: number;
  name: string;
  category: string;
  price: string;
  stock: number;
}

const CATEGORIES = ["tools", "garden", "kitchen", "office", "toys"];

/** The loader's rows: made for each request, not read from D1, so the page costs its render. */
export function items(count: number): Item[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `Item ${i + 1}`,
    category: CATEGORIES[i % CATEGORIES.length]!,
    price: (((i * 37) % 10_000) / 100 + 1).toFixed(2),
    stock: (i * 13) % 250,
  }));
}

function Counter() {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      {`Clicked ${count} times`}
    </button>
  );
}

export function Items({ data }: PageProps<{ items: Item[] }>) {
  return (
    <>
      <h1>Items</h1>
      <Counter />
      <table>
        <thead>
          <tr>
            <th>Id</th>
            <th>Name</th>
            <th>Category</th>
            <th>Price</th>
            <th>Stock</th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((item) => (
            <tr key={item.id}>
              <td>{item.id}</td>
              <td>{item.name}</td>
              <td>{item.category}</td>
              <td>{item.price}</td>
              <td>{item.stock}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The page module of a table of `count` rows, kept in the edge cache when `cache` is given. */
export function itemsModule(count: number, cache?: CachePolicy): RouteModule {
  return {
    default: Items,
    title: "Items",
    loader: () => ({ items: items(count) }),
    ...(cache ? { cache } : {}),
  };
}

/** Kept for ten minutes, as the measurement opted /items in. */
const CACHED: CachePolicy = { maxAge: 600 };

/** The visitor's own part of a /shell/ page: their `name` cookie (each benchmark request its own). */
export function visitorLoader({ request }: LoaderArgs) {
  const name = /(?:^|;\s*)name=([^;]*)/.exec(request.headers.get("Cookie") ?? "")?.[1];
  return { name: name ? decodeURIComponent(name) : "visitor" };
}

type ItemsLoader = () => { items: Item[] };

/**
 * /items with a greeting in a hole. The hole sits beside the table, not in it: resuming replays
 * the components on its way (this one), not Items, whose rows are in the shell.
 */
function ShellItems({
  data,
  params,
  visitor,
}: PageProps<ItemsLoader, string, unknown, typeof visitorLoader>) {
  return (
    <>
      <Suspense fallback={<p>Welcome!</p>}>
        <Await resolve={visitor}>{({ name }) => <p>Hello, {name}</p>}</Await>
      </Suspense>
      <Items data={data} params={params} />
    </>
  );
}

/** /items as a cached page with a per-visitor loader: its shell stored, its hole resumed. */
const shellItems = async (): Promise<RouteModule> => ({
  ...itemsModule(500, CACHED),
  default: ShellItems,
  visitorLoader,
});

/**
 * The benchmark's item pages. `/items`: rendered for every request, as the floor's; `/items-empty`
 * the same with no rows, where the runtime's own cost per render stands out (`npm run bench:loop`).
 * Under `/cached/`, the same pages kept in the edge cache: Miniflare's Cache API, or under
 * `/cached/memory/` a Map in the isolate (app-worker.tsx), which leaves the lookup out as the
 * edge leaves it out of the Worker's CPU. Under `/shell/`, /items with a hole (ShellItems): its
 * shell kept in Miniflare's Cache API, or under `/shell/memory/` in the Map. `/nested/items`: the
 * same page inside two layouts whose loaders load nothing.
 */
/** A layout that adds a frame and loads nothing: what nesting alone costs a page. */
const emptyLayout = async (): Promise<LayoutModule> => ({
  default: ({ children }: LayoutProps) => <div>{children}</div>,
  loader: async () => ({}),
});

export const ITEM_ROUTES = [
  page("/items", async () => itemsModule(500)),
  page("/items-empty", async () => itemsModule(0)),
  page("/cached/items", async () => itemsModule(500, CACHED)),
  page("/cached/memory/items", async () => itemsModule(500, CACHED)),
  page("/cached/memory/items-10x", async () => itemsModule(5000, CACHED)),
  page("/shell/items", shellItems),
  page("/shell/memory/items", shellItems),
  // /items inside two nested layouts with empty loaders, against the flat one.
  ...layout("bench-outer", emptyLayout, [
    ...layout("bench-inner", emptyLayout, [page("/nested/items", async () => itemsModule(500))]),
  ]),
];
