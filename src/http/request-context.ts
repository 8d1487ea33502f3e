/** Per-request values derived from configuration and headers, shared by routes and handlers. */
import type { FastifyRequest } from 'fastify';

// A Host header is client-supplied: only a plain host[:port] may reach absolute links.
const SAFE_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** The base of absolute URLs: PUBLIC_BASE_URL, else the request's protocol and host. */
export function baseUrlOf(request: FastifyRequest, publicBaseUrl: string | null): string {
  if (publicBaseUrl !== null) return publicBaseUrl;
  const host = (request.host ?? '').toLowerCase();
  return `${request.protocol}://${SAFE_HOST.test(host) && host.length <= 255 ? host : 'localhost'}`;
}
