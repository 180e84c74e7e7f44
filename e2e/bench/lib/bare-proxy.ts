// The floor of one more HTTP hop on this machine, for `npm run bench:proxy`: a Fastify server that
// passes a send-input on to the service with undici and the service's token, and its answer back,
// with nothing else (no session, no guard, no store, no hooks). Run as its own process:
// `node --import tsx e2e/bench/lib/bare-proxy.ts <port> <service URL> <token>`.
import Fastify from 'fastify';
import { Agent, request } from 'undici';

const [port, upstream, token] = process.argv.slice(2);
const dispatcher = new Agent({ keepAliveTimeout: 60_000 });
const app = Fastify({ logger: false });
app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
app.post<{ Params: { identity: string } }>('/p/:identity', async (req, reply) => {
  const res = await request(`${upstream}/v2/identities/${req.params.identity}/send-input`, {
    method: 'POST',
    dispatcher,
    headers: {
      'content-type': req.headers['content-type'] ?? '',
      'content-length': req.headers['content-length'] ?? '',
      authorization: `Bearer ${token}`,
    },
    body: req.raw,
  });
  void reply.code(res.statusCode).header('content-type', res.headers['content-type']);
  return Buffer.from(await res.body.arrayBuffer());
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
