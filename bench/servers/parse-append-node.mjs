// The write floor of `npm run bench`: node:http that reads a request's body, parses it as JSON,
// appends it to an array with the next id, and answers it 201 as JSON. No routing, no auth, no
// validation, no limits: what Node itself costs to take a create and answer it.
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const items = [];
const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    // The bench's readiness probe.
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(String(items.length));
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let fields;
    try {
      fields = JSON.parse(chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString());
    } catch {
      res.writeHead(400, { 'content-type': 'application/json', 'content-length': '2' });
      res.end('{}');
      return;
    }
    const item = { id: items.length + 1, ...fields };
    items.push(item);
    const body = JSON.stringify(item);
    res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
