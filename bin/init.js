/** Placeholder until `switchyard init` lands: see the init helper's commit. */
export function initApp() {
  throw new Error('switchyard init is not built yet.');
}
