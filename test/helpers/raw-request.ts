/**
 * One HTTP/1.1 request over a bare socket, for tests that must control exactly how much of a
 * body is sent and when. It resolves once the server closes the connection (ask for that with
 * `Connection: close`), with whatever answer arrived; a reset after it is the server refusing
 * the rest of the body.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
  /** Body bytes the client had handed to the socket when the server closed it. */
  bodyBytesWritten: number;
}

/**
 * `nextChunk` is asked for body bytes again each time the socket drains, until it returns
 * `undefined` or the answer starts to arrive: the request body is never sent beyond that.
 */
export function rawRequest(
  port: number,
  head: string,
  nextChunk: () => Uint8Array | string | undefined,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let written = 0;
    const pump = () => {
      while (received.length === 0) {
        const chunk = nextChunk();
        if (chunk === undefined) return;
        written += Buffer.byteLength(chunk);
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      // A head that names its own Host (or several) is sent as it is.
      const host = /^host:/im.test(head) ? '' : `\r\nHost: 127.0.0.1:${port}`;
      socket.write(`${head.trimEnd()}${host}\r\n\r\n`);
      pump();
    });
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', (error) => {
      if (received.length === 0) reject(error);
    });
    socket.on('close', () => {
      if (received.length === 0)
        return reject(new Error('the server closed the connection without an answer'));
      resolve({ ...parseAnswer(Buffer.concat(received).toString('utf8')), bodyBytesWritten: written });
    });
  });
}

function parseAnswer(text: string): Omit<RawAnswer, 'bodyBytesWritten'> {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
}
