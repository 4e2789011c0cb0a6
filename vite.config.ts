// The build and the local servers: verge's own plugin, React's (Fast Refresh, JSX) and
// Cloudflare's (the worker in workerd under `vite dev` and `vite preview`, its bundle for deploys).
import { cloudflare } from "@cloudflare/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { localVars, verge } from "verge/vite";

export default defineConfig({
  plugins: [verge(), react(), cloudflare(localVars())],
});
