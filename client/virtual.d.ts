declare module 'virtual:switchyard/routes' {
  /** Route files by path relative to the app directory, each a lazy import. */
  export const modules: Record<string, () => Promise<Record<string, unknown>>>;
  /** The route tree flattened into the order a URL is matched in (shared/route-table.ts). */
  export const routes: readonly import('../shared/route-table.js').RouteTableEntry[];
  /** Whether a route file sits below a `@slot` folder. */
  export const slots: boolean;
  /** Whether a route file sits below a `(.)`, `(..)` or `(...)` folder. */
  export const intercepts: boolean;
}

declare module 'virtual:switchyard/config' {
  /** The app's router settings (shared/router-config.ts), resolved at build time. */
  export const config: import('../shared/router-config.js').RouterConfig;
}

declare module '@vitejs/plugin-react/preamble' {}

declare module 'virtual:switchyard/actions' {
  /** Every server action by id, each loading its module on first use (server build only). */
  export const actions: Record<string, () => Promise<unknown>>;
}

declare module 'virtual:switchyard/instrumentation' {
  /** The app's start-up hook (`instrumentation.server.ts`), awaited before the server listens. */
  export const register: (() => unknown) | undefined;
}
