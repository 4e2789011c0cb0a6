export interface ClientBuildOptions {
  entry: string;
  routes: string;
  out: string;
  dev?: boolean;
  watch?: boolean;
  log?: (line: string) => void;
}
export declare const PRODUCT: { entry: string; routes: string; out: string };
export declare function buildClient(options: ClientBuildOptions): Promise<any>;
export declare function serverOnlyLeaks(metafile: {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}): string[];
