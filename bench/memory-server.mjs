// The production bundle (build/server/main.js) with an IPC line to the benchmark that started
// it: 'memory' answers process.memoryUsage(), 'gc' runs a full collection when V8 allows it
// (--expose-gc), 'stop' closes it as SIGTERM would.
process.on('message', (msg) => {
  if (msg === 'memory') process.send(process.memoryUsage());
  if (msg === 'gc') {
    globalThis.gc?.();
    process.send('collected');
  }
  if (msg === 'stop') process.kill(process.pid, 'SIGTERM');
});
await import('../build/server/main.js');
process.send('ready');
