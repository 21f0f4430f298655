/**
 * The bare server the bench measures Switchyard against: Express 5 and `renderToPipeableStream`,
 * nothing else. It renders the bench page from the same data, serves its hashed client bundle
 * under /assets/ and, like Switchyard, compresses per `Accept-Encoding` with the same compressor.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import { renderToPipeableStream } from 'react-dom/server';
import { createCompressor, negotiateEncoding } from '../../../server/http/compression';
import { cheapItemsFor, itemCountOf, itemsFor, type ItemsData } from '../items';
import { Document } from './document';

const outDir = process.argv[2] ?? '.switchyard/bench/bare';
const manifest = JSON.parse(readFileSync(join(outDir, 'client/.vite/manifest.json'), 'utf8')) as Record<
  string,
  { file: string; isEntry?: boolean }
>;
const entry = Object.values(manifest).find((chunk) => chunk.isEntry)!.file;

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use('/assets', express.static(join(outDir, 'client/assets'), { immutable: true, maxAge: '1y' }));
app.get('/items/:id', (req, res) => renderItems(itemsFor(req.params.id), req, res));
app.get('/cheap/:id', (req, res) => renderItems(cheapItemsFor(req.params.id), req, res));
app.get('/many/:count', (req, res) => {
  const count = itemCountOf(req.params.count);
  if (count === null) res.status(404).send('no such page');
  else renderItems(cheapItemsFor('1', count), req, res);
});

function renderItems(data: ItemsData, req: express.Request, res: express.Response) {
  const accepted = req.headers['accept-encoding'];
  const stream = renderToPipeableStream(<Document data={data} />, {
    bootstrapScriptContent: `self.__BARE__=${JSON.stringify(data).replace(/</g, '\\u003c')}`,
    bootstrapModules: [`/${entry}`],
    onShellReady() {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      // Switchyard's own compressor and choice of encoding: the CPU ratio compares like with like.
      const encoding = negotiateEncoding(accepted);
      if (encoding) {
        res.setHeader('content-encoding', encoding);
        const compressor = createCompressor(encoding);
        compressor.pipe(res);
        stream.pipe(compressor);
      } else stream.pipe(res);
    },
    onShellError() {
      res.status(500).send('error');
    },
  });
}

const server = app.listen(Number(process.env.PORT ?? 0), () => {
  const address = server.address();
  console.log(`bare serving http://localhost:${typeof address === 'object' && address ? address.port : ''}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
