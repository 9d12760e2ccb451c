/**
 * One server of the adapter benchmark (adapter-bench.js): GET /api/ping and
 * GET /api/jobs (20 rows of one user through pg), answered by a plain
 * node:http server or by a bare Nest 11 application on the Express or the
 * Fastify adapter, bare or with the edge the service puts in front of every
 * route (helmet, cookie parsing, compression; for the plain server helmet's
 * headers only, what sending them costs without any framework).
 *
 *   node adapter-server.js <plain|express|fastify> <bare|edge> <table>   (PG in the environment; tells its parent the port it got)
 */
require('reflect-metadata');
const http = require('node:http');
const { Pool } = require('pg');

const [kind, edge, table] = [process.argv[2], process.argv[3] === 'edge', process.argv[4]];
const pool = new Pool({ connectionString: process.env.PG, max: 10 });
const listJobs = async () => (await pool.query(`SELECT * FROM ${table} WHERE user_id = $1 ORDER BY created_at LIMIT 20`, [1])).rows;
const ready = (server) => process.send?.({ port: server.address().port });

function plain() {
  const send = (res, status, value) => {
    const body = JSON.stringify(value);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const answer = (req, res) => {
    if (req.url === '/api/ping') return send(res, 200, { status: 'ok' });
    listJobs().then((jobs) => send(res, 200, { jobs }), (error) => send(res, 500, { detail: String(error) }));
  };
  const headers = edge ? require('helmet')() : null;
  const server = http.createServer(headers ? (req, res) => headers(req, res, () => answer(req, res)) : answer);
  server.listen(0, '127.0.0.1', () => ready(server));
}

async function nest() {
  const { NestFactory } = require('@nestjs/core');
  const { Module, Controller, Get } = require('@nestjs/common');
  // Decorators applied by hand: this file runs as plain JavaScript.
  class Api {
    ping() {
      return { status: 'ok' };
    }
    async jobs() {
      return { jobs: await listJobs() };
    }
  }
  for (const [path, method] of [['ping', 'ping'], ['jobs', 'jobs']]) Get(path)(Api.prototype, method, Object.getOwnPropertyDescriptor(Api.prototype, method));
  Controller('api')(Api);
  class AppModule {}
  Module({ controllers: [Api] })(AppModule);

  let app;
  if (kind === 'fastify') {
    const { FastifyAdapter } = require('@nestjs/platform-fastify');
    app = await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false });
    if (edge) {
      await app.register(require('@fastify/helmet'));
      await app.register(require('@fastify/cookie'));
      await app.register(require('@fastify/compress'), { threshold: 1024 });
    }
  } else {
    app = await NestFactory.create(AppModule, { logger: false });
    if (edge) {
      app.use(require('helmet')());
      app.use(require('cookie-parser')());
      app.use(require('compression')({ threshold: 1024 }));
    }
  }
  await app.listen(0, '127.0.0.1');
  ready(app.getHttpServer());
}

if (kind === 'plain') plain();
else nest().catch((error) => {
  console.error(error);
  process.exit(1);
});
