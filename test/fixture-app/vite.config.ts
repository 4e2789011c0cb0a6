// The tests' own app, built and served as the product is, from this folder (its own wrangler.toml
// and deploy redirect), into dist/fixture/, with one plugin a React team would add (Tailwind CSS).
import { cloudflare } from "@cloudflare/vite-plugin";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { localVars, verge } from "verge/vite";

export default defineConfig({
  root: import.meta.dirname,
  build: { outDir: "../../dist/fixture", emptyOutDir: true },
  plugins: [
    verge({ entry: "client.tsx", routes: "routes.ts" }),
    react(),
    tailwindcss(),
    cloudflare(localVars()),
  ],
});
