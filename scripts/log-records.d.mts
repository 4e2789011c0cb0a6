export declare function jsonValues(onValue: (value: unknown) => void): (text: string) => void;
export declare function requestLines(value: unknown): Record<string, unknown>[];
export declare function lineFilter(options: {
  digest?: string;
  ray?: string;
  status?: string;
  kind?: string;
  path?: string;
}): (line: Record<string, unknown>) => boolean;
export declare function phasesOf(line: unknown): { name: string; start: number; ms: number }[];
export declare function percentile(sorted: number[], q: number): number | undefined;
export interface PercentileRow {
  phase: string;
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}
export declare function percentileTable(
  lines: Record<string, unknown>[],
): { route: string; requests: number; rows: PercentileRow[] }[];
export declare function percentileText(table: ReturnType<typeof percentileTable>): string;
export declare function waterfall(line: Record<string, unknown>, width?: number): string;
type VitalsRow = { name: string; views: number; p75: Record<string, number | null>; failing: string[] };
export declare function vitalsTable(lines: Record<string, unknown>[]): {
  routes: VitalsRow[];
  builds: VitalsRow[];
};
export declare function vitalsText(table: ReturnType<typeof vitalsTable>): string;
