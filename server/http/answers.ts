/**
 * The answers the framework writes itself, in one place: refusals, "try again later", the
 * refused redirect and the error pages. None of them may be kept by a cache (a 4xx or a 503 is
 * about this request, now), so every one is `Cache-Control: no-store`; text answers start with
 * their status's name so that a log or a terminal shows what happened without the status line.
 * An app's own answers (pages, page data, route handlers) set their own headers.
 */
import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';
import type { PageDataError } from '../../shared/page-data.js';
import { REFUSED_REDIRECT_MESSAGE } from '../../shared/redirect-target.js';
import { errorDocument, refusedDocument } from '../render/error-document.js';
import type { RetryLater } from './retry-later.js';

/** Marks an answer as never to be stored by a browser or a proxy (app code may say otherwise). */
export function noStore(res: Response): Response {
  return res.setHeader('cache-control', 'no-store');
}

/** Answers whose status the framework chose: see `neverStore`. */
const ownAnswers = new WeakSet<Response>();

/**
 * Marks an answer the framework made on its own (an error, a refusal, a redirect, a page that is
 * not there) as never to be stored, whatever app code asked for: a `cache-control` a layout's
 * loader set for its pages must not keep a failure in a shared cache after it has passed.
 */
export function neverStore(res: Response): Response {
  ownAnswers.add(res);
  return noStore(res);
}

/**
 * The caching of a page's answer, the document and the page data alike, by the status the page
 * resolved to (before a loader's `setStatus`): a page that renders (200) is the app's answer,
 * `no-store` unless app code sets its own `cache-control`; a page that is not there (404) or
 * failed (500) is the framework's, and keeps `no-store` whatever its loaders set.
 */
export function cachePage(res: Response, status: number): Response {
  return status === 200 ? noStore(res) : neverStore(res);
}

/** Whether the answer is one of the framework's own, which keeps its `no-store`. */
export function isNeverStored(res: Response): boolean {
  return ownAnswers.has(res);
}

/**
 * Adds `fields` to the answer's `Vary`, the list of what it depends on: whoever set the fields
 * already there (compression, a CORS layer in front, the app) keeps them. Mostly there are
 * none, and the header is set as it is: Express's `res.vary()` parses and rewrites it, about
 * 8 µs of a document in profiles.
 */
export function addVary(res: Response, fields: string): void {
  if (res.hasHeader('vary')) res.vary(fields);
  else res.setHeader('vary', fields);
}

/**
 * A plain-text answer: `Bad Request: the URL path has a malformed percent-encoding.` The message
 * is the server's own text, never the app's data, and is sent as it is (text, not HTML).
 */
export function sendText(res: Response, status: number, message: string): void {
  neverStore(res)
    .status(status)
    .type('text/plain')
    .send(`${STATUS_CODES[status] ?? 'Error'}: ${message}`);
}

/** 405, with the methods this URL answers in `Allow`. */
export function sendMethodNotAllowed(res: Response, allow: readonly string[], message: string): void {
  res.setHeader('allow', allow.join(', '));
  sendText(res, 405, message);
}

/** A `RetryLater` from app code (or the server's own), as 429 or 503 with `Retry-After`. */
export function sendRetryLater(res: Response, error: RetryLater): void {
  res.setHeader('retry-after', String(error.retryAfterSeconds));
  sendText(res, error.status, error.message);
}

/** A redirect whose target is not this site's (or an allowed origin's): a 400 page that says so. */
export function sendRefusedRedirect(res: Response): void {
  neverStore(res).status(400).type('html').send(refusedDocument('Bad request', REFUSED_REDIRECT_MESSAGE));
}

/** A request the page refuses (search params its schema rejects): a 4xx page with the reason. */
export function sendRefusedPage(res: Response, status: number, message: string): void {
  neverStore(res).status(status).type('html').send(refusedDocument('Bad request', message));
}

/**
 * The server's own error page, with the digest that finds the error in the logs. `shown` is the
 * error itself, given in development only.
 */
export function sendErrorPage(res: Response, digest: string, shown?: unknown): void {
  neverStore(res).status(500).type('html').send(errorDocument(digest, shown));
}

/**
 * A failure answered to a script (page data, an action called by the router, a route handler):
 * `{ error: 'server', digest }`, the digest finding the error in the logs. The client router
 * loads a page that answers so as a document, where its error page renders.
 */
export function sendServerError(res: Response, digest: string): void {
  neverStore(res)
    .status(500)
    .json({ error: 'server', digest } satisfies PageDataError);
}

/**
 * A redirect a browser follows itself (a document's, or after a form's post): the status, the
 * `Location` and a line of text for whoever reads the body. The target must have passed
 * `checkRedirectTarget` already.
 */
export function sendRedirectTo(res: Response, status: number, location: string): void {
  neverStore(res).status(status).location(location).type('text/plain').send(`Redirecting to ${location}`);
}
