// The floor of the proxy's cost in `npm run bench`: a bare node:http pass-through proxy, forwarding each
// request to the upstream over keep-alive connections and passing the answer back as it came. No routing, no
// judging: what Node itself costs per proxied request. Usage: node bare-proxy.mjs PORT UPSTREAM_ORIGIN
import { Agent, createServer, request } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const upstream = new URL(process.argv[3] ?? 'http://127.0.0.1:4010');
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const server = createServer((req, res) => {
  const forwarded = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: upstream.host },
      agent,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forwarded.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  req.pipe(forwarded);
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
