import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's headers, worked out once at start: they depend only on the options (no nonces), so no
 * request builds Helmet's middleware again. Set on the raw response, as Helmet sets them, so a
 * route can still remove one.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.set(name, String(value));
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  const list = [...headers];
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of list) reply.raw.setHeader(name, value);
    done();
  });
}
