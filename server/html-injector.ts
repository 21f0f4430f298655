/**
 * The writable React's stream is piped into: it passes React's bytes to the response and lets
 * the server add HTML of its own (streamed data, meta tags) between React's writes. React writes
 * each batch synchronously and calls `flush()` at its end, so between two batches the document
 * is at a tag boundary; what is added before the shell's batch waits for it.
 */
import { Writable } from 'node:stream';
import type { Response } from 'express';

export class HtmlInjector extends Writable {
  #shellWritten = false;
  #waiting: string[] = [];

  constructor(private readonly res: Response) {
    super();
  }

  /** Adds HTML at the next safe place: now, if React is between batches and the shell is out. */
  inject(html: string): void {
    if (this.res.destroyed || this.writableEnded) return;
    if (this.#shellWritten) this.write(html);
    else this.#waiting.push(html);
  }

  /** Called by React at the end of each batch. */
  flush(): void {
    this.#shellWritten = true;
    for (const html of this.#waiting.splice(0)) this.write(html);
  }

  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    done: (error?: Error | null) => void,
  ): void {
    if (this.res.destroyed) return done();
    if (this.res.write(chunk)) done();
    else this.res.once('drain', () => done());
  }

  override _final(done: (error?: Error | null) => void): void {
    this.res.end(() => done());
  }
}

/** An inline script, with the response's CSP nonce when it has one. */
export function inlineScript(code: string, nonce: string | undefined): string {
  return nonce ? `<script nonce="${nonce}">${code}</script>` : `<script>${code}</script>`;
}
