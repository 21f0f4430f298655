/**
 * Closes, in the supervising process, the connections a worker was handed but never took.
 * node:cluster's primary accepts each connection and sends its handle to a worker; it closes its
 * own copy only when the worker answers that it took it. A worker killed in between (SIGKILL,
 * the OOM killer, a crash) never answers, so the primary's copy stayed open for good: the client
 * waited on a connection nobody served, then left it in CLOSE-WAIT. Once the worker has exited
 * and its channel has ended no answer can come: this closes the copy, and the client sees its
 * connection closed, as it does for every connection the worker had taken.
 */

/** node:cluster's own messages (internal, unchanged since Node 0.12): a handoff and its answer. */
const CLUSTER_MESSAGE = 'NODE_CLUSTER';

/**
 * @typedef {{ cmd?: unknown, act?: unknown, seq?: unknown, ack?: unknown }} ClusterMessage
 * @typedef {{ close(): void }} ConnectionHandle
 */

/** @param {import('node:cluster').Worker} worker */
export function closeUntakenOnExit(worker) {
  const child = worker.process;
  /** @type {Map<unknown, ConnectionHandle>} handoffs not answered yet, by their sequence number */
  const untaken = new Map();
  const send = child.send.bind(child);
  /** @type {(message: ClusterMessage, handle?: ConnectionHandle, ...rest: unknown[]) => boolean} */
  const tracked = (message, handle, ...rest) => {
    if (handle && message?.cmd === CLUSTER_MESSAGE && message.act === 'newconn') {
      untaken.set(message.seq, handle);
    }
    return /** @type {(...args: unknown[]) => boolean} */ (send)(message, handle, ...rest);
  };
  child.send = /** @type {typeof child.send} */ (/** @type {unknown} */ (tracked));
  child.on('internalMessage', (/** @type {ClusterMessage} */ message) => {
    if (message?.cmd === CLUSTER_MESSAGE && message.ack !== undefined) untaken.delete(message.ack);
  });
  // 'close': the worker has exited and its channel has ended, so every answer it wrote has been
  // read. Not 'disconnect', which never comes while a handle waits for the worker's receipt.
  child.once('close', () => {
    for (const handle of untaken.values()) handle.close();
    untaken.clear();
  });
}
