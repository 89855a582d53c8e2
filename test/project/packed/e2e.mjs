/* global fetch */
// The end-to-end run of docs/proxy.md's CI recipe, as `npm run e2e` in the folder where the packed kit is installed:
// a few requests through the proxy at API_BASE_URL; with E2E_BROKEN=1 also one that breaks the document.
const base = process.env.API_BASE_URL;
const headers = { Authorization: 'Bearer dev-key' };
const paths = ['/pets?limit=2', '/pets/1', ...(process.env.E2E_BROKEN === '1' ? ['/pets?limit=0'] : [])];
for (const path of paths) {
  const response = await fetch(`${base}${path}`, { headers });
  process.stdout.write(`${path} ${response.status}\n`);
}
