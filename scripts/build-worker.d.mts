export declare function buildWorker(options?: {
  entry?: string;
  out?: string;
  production?: boolean;
  minify?: boolean;
}): Promise<string>;
