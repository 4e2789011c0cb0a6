export declare function jsonValues(onValue: (value: unknown) => void): (text: string) => void;
export declare function requestLines(value: unknown): Record<string, unknown>[];
export declare function lineFilter(options: {
  digest?: string;
  ray?: string;
  status?: string;
  kind?: string;
  path?: string;
}): (line: Record<string, unknown>) => boolean;
