/**
 * Reads what an envelope receiver got as Sentry would: the error events and spans in
 * each envelope, with who sent it. An event's payload is JSON; only the fields tests read are typed.
 */
import type { EnvelopeReceiver, ReceivedRequest } from './envelope-receiver';

export interface SentryEvent {
  platform?: string;
  message?: string;
  release?: string;
  environment?: string;
  transaction?: string;
  tags?: Record<string, string>;
  exception?: { values?: { type?: string; value?: string; mechanism?: { type?: string } }[] };
  request?: { url?: string; method?: string; query_string?: unknown; headers?: Record<string, string> };
  breadcrumbs?: { message?: string }[];
  contexts?: { trace?: { trace_id?: string } };
}

export interface Received<T> {
  payload: T;
  /** The SDK that made the envelope, from its header (`sentry.javascript.react`). */
  sdk: string | undefined;
  request: ReceivedRequest;
}

/** The payloads of every item of `type` (`event`, `span`, `transaction`…), in arrival order. */
export function itemsOf<T = unknown>(receiver: EnvelopeReceiver, type: string): Received<T>[] {
  return receiver.requests.flatMap((request) =>
    (request.envelope?.items ?? [])
      .filter((item) => item.header.type === type)
      .map((item) => ({
        payload: JSON.parse(item.payload.toString('utf8')) as T,
        sdk: (request.envelope!.header.sdk as { name?: string } | undefined)?.name,
        request,
      })),
  );
}

export function eventsOf(receiver: EnvelopeReceiver): Received<SentryEvent>[] {
  return itemsOf<SentryEvent>(receiver, 'event');
}

/** The first exception's message, or the event's message: what names an event in assertions. */
export function titleOf(event: SentryEvent): string | undefined {
  return event.exception?.values?.at(-1)?.value ?? event.message;
}
