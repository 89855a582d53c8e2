// The baseline of `npm run bench`: bare Express 5 answering GET /v1/pets with a precomputed
// 20-pet array through res.json, behind a trivial bearer check. No validation, no state.
import express from 'express';

const port = Number(process.argv[2] ?? 0);
const pets = Array.from({ length: 20 }, (_, index) => ({
  id: index + 1,
  name: `Pet ${index + 1}`,
  categoryId: (index % 5) + 1,
  status: ['available', 'pending', 'sold'][index % 3],
}));

const app = express();
app.use((req, res, next) => {
  if (req.headers.authorization !== 'Bearer dev-key') {
    res.status(401).json({ code: 'unauthorized', message: 'a valid key is required', status: 401 });
    return;
  }
  next();
});
app.get('/v1/pets', (_req, res) => {
  res.json(pets);
});
app.get('/v1/pets/:id', (_req, res) => {
  res.json(pets[0]);
});
app.post('/v1/pets', express.json(), (req, res) => {
  res.status(201).json({ id: 21, ...req.body });
});
const server = app.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
