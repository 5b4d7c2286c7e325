/**
 * The lean path of a public page that is the same for everyone (issue 24): once Fastify has
 * rendered and cached such a page (`reply.page({ everyone: true })`, src/plugins/app/render.ts),
 * a later GET of exactly its address is answered here, from the HTTP server's own request
 * listener, with the bytes, headers and access line Fastify's answer would have had: the
 * security headers, the request id, the page's ETag (a 304 when it matches), the best encoding
 * the client accepts, a form page's cookie made for this answer, and one access line per request.
 * What is not such a page (another method, a query string, a page with state or a form's answer)
 * goes to Fastify as before, and so does every
 * request once the app is closing (Fastify's 503). This path skips Fastify's routing, hooks and
 * per-request logger, which cost a cached page more than half its throughput.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The request's id: the client's X-Request-Id when it is well formed, else a new one. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export type Encoding = 'br' | 'gzip';

/** Answers for the Accept-Encoding headers seen lately: browsers send a handful of different ones. */
const knownEncodings = new Map<string, Encoding | undefined>();
const KNOWN_ENCODINGS_MAX = 64;

/** The best encoding the client accepts (a q=0 refuses one), brotli first. */
export function preferredEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  if (knownEncodings.has(header)) return knownEncodings.get(header);
  const encoding = parsedEncoding(header);
  if (knownEncodings.size >= KNOWN_ENCODINGS_MAX) knownEncodings.clear();
  knownEncodings.set(header, encoding);
  return encoding;
}

function parsedEncoding(header: string): Encoding | undefined {
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

/** A cached page as this path sends it. */
export interface DirectPage {
  etag: string;
  /** Every header of a 200 but the request id, the encoding and the length. */
  headers: Record<string, string>;
  body(encoding: Encoding | undefined): Buffer | string;
  /** A Set-Cookie header made for each answer (a form page's bot-guard cookie), 304s included. */
  setCookie?: () => string | undefined;
  /** False once the page is no longer the one to send: the address then goes back to Fastify. */
  current?: () => boolean;
}

interface Options {
  /** The headers every answer carries (src/security-headers.ts). */
  securityHeaders: Record<string, string>;
}

/** A page as stored: its headers also as the flat name, value list `writeHead` takes as it is. */
interface StoredPage extends Omit<DirectPage, 'headers'> {
  headerList: readonly string[];
}

export class DirectPages {
  readonly #pages = new Map<string, StoredPage>();
  readonly #securityHeaders: Record<string, string>;
  #log: FastifyBaseLogger | undefined;
  #closing = false;

  constructor({ securityHeaders }: Options) {
    this.#securityHeaders = securityHeaders;
  }

  /** Access lines are written from here, to the app's logger, when `log` is given. */
  logTo(log: FastifyBaseLogger | undefined): void {
    this.#log = log;
  }

  /** From now on, GET `path` (exactly) is answered with `page`. */
  add(path: string, { headers, ...page }: DirectPage): void {
    this.#pages.set(path, { ...page, headerList: Object.entries({ ...this.#securityHeaders, ...headers }).flat() });
  }

  has(path: string): boolean {
    return this.#pages.has(path);
  }

  /** Every request after this goes to Fastify (its 503 while closing). */
  close(): void {
    this.#closing = true;
  }

  /** Answers the request when it is a GET of a direct page's exact address; false otherwise. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.#closing || request.method !== 'GET') return false;
    const page = this.#pages.get(request.url!);
    if (!page) return false;
    if (page.current && !page.current()) {
      this.#pages.delete(request.url!);
      return false;
    }
    const started = performance.now();
    const id = requestIdOf(request);
    // Every header in one list given to writeHead: Node then writes them as they are, instead of
    // storing each through setHeader first.
    const headers = [...page.headerList, 'x-request-id', id];
    const cookie = page.setCookie?.();
    if (cookie) headers.push('set-cookie', cookie);
    let status = 200;
    if (request.headers['if-none-match'] === page.etag) {
      status = 304;
      response.writeHead(304, headers);
      response.end();
    } else {
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      const body = page.body(encoding);
      if (encoding) headers.push('content-encoding', encoding);
      headers.push('content-length', String(Buffer.byteLength(body)));
      response.writeHead(200, headers);
      response.end(body);
    }
    this.#log?.info({ reqId: id, method: 'GET', path: request.url, status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
    return true;
  }

  /**
   * Fastify's serverFactory: the HTTP server Fastify would make (its timeouts and limits), whose
   * listener tries this path first.
   */
  serverFactory(): (handler: RequestListener, options: Record<string, unknown>) => Server {
    return (handler, options) => {
      const server = createServer((options.http ?? {}) as ServerOptions, (request, response) => {
        if (!this.answer(request, response)) handler(request, response);
      });
      server.keepAliveTimeout = options.keepAliveTimeout as number;
      server.requestTimeout = options.requestTimeout as number;
      server.setTimeout(options.connectionTimeout as number);
      if ((options.maxRequestsPerSocket as number) > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket as number;
      return server;
    };
  }
}
