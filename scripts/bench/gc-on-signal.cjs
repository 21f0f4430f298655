/* global process */
// Loaded with `node --expose-gc --require` into a server whose instructions the bench counts:
// on SIGUSR2 a full collection, then a line on stdout saying it is done. The count then starts
// from an empty young generation and a fresh old one, so that which requests a collection falls
// on does not depend on how the warm-up ended.
const { gc } = globalThis;
if (!gc) throw new Error('gc-on-signal.cjs needs node --expose-gc');
process.on('SIGUSR2', () => {
  gc();
  process.stdout.write('switchyard-bench: collected\n');
});
