// Registered with `node --import ./record-loads.mjs`: records every module the program loads, ES modules through a
// resolve hook (its thread posts them back) and CommonJS ones from require's cache, and prints their paths as JSON
// when the program ends. Used to check what importing each export, and a first mock's answers, load.
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const loaded = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => loaded.add(url));
port1.unref();
const hook = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, import.meta.url, {
  data: { port: port2 },
  transferList: [port2],
});
process.on('beforeExit', () => {
  if (process.env.RECORDED) return;
  process.env.RECORDED = '1';
  for (const path of Object.keys(createRequire(import.meta.url).cache)) loaded.add(path);
  process.stdout.write(`${JSON.stringify([...loaded])}\n`);
});
