/**
 * One request with the body as the bytes that came over the wire: supertest would decode a
 * compressed body, and tests of compression need to see it as it was sent.
 */
import http from 'node:http';

export interface RawBody {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function getRaw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawBody> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .once('error', reject)
      .end();
  });
}
