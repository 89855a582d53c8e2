// The floor of `npm run bench`: raw node:http answering every request with one precomputed
// 20-pet body. No routing, no auth, no validation: what Node itself costs per request.
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const body = Buffer.from(
  JSON.stringify(
    Array.from({ length: 20 }, (_, index) => ({
      id: index + 1,
      name: `Pet ${index + 1}`,
      categoryId: (index % 5) + 1,
      status: ['available', 'pending', 'sold'][index % 3],
    })),
  ),
);
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
