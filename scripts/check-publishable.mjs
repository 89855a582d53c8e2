// `npm publish` runs this first (the prepublishOnly script). The README and docs/ link to each other with relative
// links, which resolve inside the package (node_modules/petstore-kit) and in any view of the repository; the npm
// registry's page resolves them against package.json's `repository`, and without one every link there is broken.
// The kit has no public repository yet: rather than publish a page of dead links (or make up a URL), publishing
// stops here until `repository` names the public one. `node scripts/check-publishable.mjs [package.json]`.
import { readFileSync } from 'node:fs';

const path = process.argv[2] ?? new URL('../package.json', import.meta.url);
const manifest = JSON.parse(readFileSync(path, 'utf8'));
const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
if (typeof repository !== 'string' || repository.trim() === '') {
  process.stderr.write(
    'not publishing: package.json has no "repository". The registry page resolves the README\'s relative links ' +
      '(docs/, images, LICENSE) against it, so without one each of them would be broken there. Set "repository" ' +
      'to the public repository of the kit first.\n',
  );
  process.exit(1);
}
process.stdout.write(`publishable: the registry page resolves the README's links against ${repository}\n`);
