export interface ClientBuildOptions {
  entry: string;
  routes: string;
  out: string;
  dev?: boolean;
  watch?: boolean;
  /** Fast Refresh (with `dev`): the URL of `npm run dev`'s event channel the page listens to. */
  devEvents?: string;
  /** Under Fast Refresh, what each rebuild means to an open page (scripts/fast-refresh.mjs). */
  onUpdate?: (update: { type: string }) => void;
  log?: (line: string) => void;
}
export declare const PRODUCT: { entry: string; routes: string; out: string };
export declare function buildClient(options: ClientBuildOptions): Promise<any>;
export declare function serverOnlyLeaks(metafile: {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}): string[];
