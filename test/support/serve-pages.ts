import { createNodeMock, type NodeMockOptions } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { loadWebPages } from '../../src/node/web-pages.js';
import { startServer, type RunningServer } from './start-server.js';

/** The mock over a socket with its web pages, as the CLI serves it (key `dev-key`, so the reference fills it in). */
export async function startMockWithPages(options: NodeMockOptions = {}): Promise<RunningServer> {
  const keys = options.keys ?? ['dev-key'];
  const defaultKey = keys.length === 1 && keys[0] === 'dev-key' ? 'dev-key' : undefined;
  return startServer(
    createNodeListener(createNodeMock({ ...options, keys, publicFiles: loadWebPages({ defaultKey }) })),
  );
}
