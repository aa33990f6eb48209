import { buildApp } from './app.js';
import { ensureInitialAdmin, describeDatabase } from './bootstrap.js';
import { listenOrigin, loadConfig } from './config.js';

const startedAt = performance.now();
const config = loadConfig();
const { app, ctx } = await buildApp(config);
await ensureInitialAdmin(ctx);
await app.listen({ port: config.port, host: config.host });
app.log.info(
  `PalaYan Admin ready on ${listenOrigin(config)} (${describeDatabase(config)}) in ${Math.round(performance.now() - startedAt)} ms`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
