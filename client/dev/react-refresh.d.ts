// The part of react-refresh's runtime that client/dev/refresh.ts calls (the package has no types).
declare module "react-refresh/runtime" {
  const RefreshRuntime: {
    injectIntoGlobalHook(globalObject: Window): void;
    register(type: unknown, id: string): void;
    createSignatureFunctionForTransform(): (type: unknown, key?: string, forceReset?: boolean) => unknown;
    performReactRefresh(): unknown;
    isLikelyComponentType(value: unknown): boolean;
  };
  export default RefreshRuntime;
}
