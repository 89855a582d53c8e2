import { readFileSync } from 'node:fs';
import { createClient } from '@redis/client';
import { engineScript } from './src/redis/engine-script.js';
import { startRedisServer } from './test/support/redis-server.js';
const server = await startRedisServer();
const c = createClient({ url: server.url }); await c.connect();
const cpu = () => { const f = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const tiny = "return redis.call('EXISTS', KEYS[1] .. ':s:' .. ARGV[2])";
const shaTiny = String(await c.sendCommand(['SCRIPT', 'LOAD', tiny]));
await c.sendCommand(['SCRIPT', 'LOAD', engineScript.source]);
const lib = `#!lua name=bench\nlocal P\nlocal function f(keys, args) return redis.call('EXISTS', keys[1] .. ':s:' .. args[2]) end\nredis.register_function('benchf', f)`;
await c.sendCommand(['FUNCTION', 'LOAD', 'REPLACE', lib]);
async function run(label: string, args: string[]) {
  const n = 20000; let next = 0; const c0 = cpu(); const t0 = performance.now();
  await Promise.all(Array.from({ length: 32 }, async () => { while (next++ < n) await c.sendCommand(args); }));
  console.log(label, Math.round(n / ((performance.now() - t0) / 1000)), '/s server µs/call', ((cpu() - c0) * 1000 / n).toFixed(1));
}
for (let i = 0; i < 2; i++) {
await run('tiny evalsha', ['EVALSHA', shaTiny, '1', '{p}', 'drop', 'x']);
await run('engine evalsha drop', ['EVALSHA', engineScript.sha1, '1', '{p}', 'drop', 'x']);
await run('fcall', ['FCALL', 'benchf', '1', '{p}', 'drop', 'x']);
}
c.destroy(); await server.close();
