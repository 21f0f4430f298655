/** How many times this server process has loaded the page: each refresh adds one. */
let loads = 0;

export function load() {
  loads += 1;
  return { loads, loadedAt: new Date().toISOString() };
}
