export declare function symbolicator(options: {
  appDir: string;
  onMissing?: (build: string) => void;
}): (stack: unknown, build: unknown) => string;
export declare function symbolicateLine<T extends Record<string, unknown>>(
  line: T,
  symbolicate: (stack: unknown, build: unknown) => string,
): T;
