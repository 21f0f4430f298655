/**
 * Marks every client chunk for eager compilation: V8 then compiles all of a chunk's functions
 * while it streams the file in, off the main thread, instead of compiling each on the main
 * thread the first time it runs. A client chunk is code the page runs, at load or at the first
 * click (the router's navigation code, React's commit of a new page), and that first click is
 * where lazy compilation costs the user. Browsers that do not know the comment ignore it.
 */
import type { Plugin } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

export function compileHintsPlugin(): Plugin {
  return {
    name: 'switchyard:compile-hints',
    apply: 'build',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    generateBundle: {
      // After Vite's own additions to the chunks' first line: the hint covers all that follows it.
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk') continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          // One more line at the top: every mapping moves down by one.
          if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
        }
      },
    },
  };
}
