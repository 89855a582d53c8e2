import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentError } from '../../src/core/openapi/document-error.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocument } from '../../src/generated/default-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-document-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadDocument', () => {
  it('loads a document file', () => {
    writeFileSync(join(dir, 'doc.yaml'), 'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths: {}\n');
    expect(loadDocument(join(dir, 'doc.yaml')).openapi).toBe('3.0.3');
  });

  it('reads openapi.yaml into exactly the document embedded in the kit', () => {
    expect(loadDocument(defaultDocumentPath)).toEqual(defaultDocument);
  });

  it('names a file it cannot read', () => {
    expect(() => loadDocument(join(dir, 'missing.yaml'))).toThrow(
      new DocumentError(`${join(dir, 'missing.yaml')}: cannot be read (ENOENT)`),
    );
  });

  it('names the file in the message of a document it cannot parse', () => {
    writeFileSync(join(dir, 'bad.yaml'), 'openapi: [\n');
    expect(() => loadDocument(join(dir, 'bad.yaml'))).toThrow(`${join(dir, 'bad.yaml')}: not valid YAML or JSON: `);
  });
});
