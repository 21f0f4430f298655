declare module 'virtual:switchyard/routes' {
  /** Route files by path relative to the app directory, each a lazy import. */
  export const modules: Record<string, () => Promise<Record<string, unknown>>>;
}

declare module '@vitejs/plugin-react/preamble' {}
