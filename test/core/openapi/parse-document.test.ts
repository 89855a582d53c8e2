import { describe, expect, it } from 'vitest';
import { DocumentError } from '../../../src/core/openapi/document-error.js';
import { checkDocument, parseDocument } from '../../../src/core/openapi/parse-document.js';
import { caught } from '../../support/caught.js';

const valid = 'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths: {}\n';

describe('parseDocument', () => {
  it('parses a minimal 3.0 document in YAML or JSON', () => {
    expect(parseDocument(valid, 'doc.yaml').openapi).toBe('3.0.3');
    expect(parseDocument('{"openapi": "3.0.0", "paths": {}}', 'doc.json').openapi).toBe('3.0.0');
  });

  it('keeps integers beyond 2^53 in the document exactly', () => {
    const document = parseDocument(`${valid}x-limit: 9223372036854775807\n`, 'doc.yaml') as unknown as Record<
      string,
      unknown
    >;
    expect(document['x-limit']).toBe(9223372036854775807n);
  });

  it('stops with a one-line DocumentError naming the file, the line and its text for invalid YAML', () => {
    const error = caught(DocumentError, () => parseDocument('openapi: 3.0.3\npaths: {\n', 'doc.yaml'), 'the YAML');
    expect(error.message).toMatch(/^doc\.yaml: not valid YAML or JSON: .* at line \d+, column \d+: ".*"$/);
    expect(error.message).not.toContain('\n');
  });

  it('stops with a DocumentError on a repeated key rather than keeping the last value', () => {
    const error = caught(DocumentError, () => parseDocument(`${valid}paths: {}\n`, 'doc.yaml'), 'the repeated key');
    expect(error.message).toMatch(
      /^doc\.yaml: not valid YAML or JSON: Map keys must be unique at line 4, column 1: "paths: \{\}"$/,
    );
  });

  it('stops with a DocumentError naming an OpenAPI version other than 3.0', () => {
    expect(() => parseDocument(valid.replace('3.0.3', '3.1.0'), 'doc.yaml')).toThrow(
      new DocumentError(`doc.yaml: 'openapi' must be a 3.0.x version, found "3.1.0"`),
    );
    expect(() => parseDocument('swagger: "2.0"\npaths: {}\n', 'doc.yaml')).toThrow(
      new DocumentError(`doc.yaml: 'openapi' must be a 3.0.x version, found null`),
    );
  });

  it('stops with a DocumentError when the document is not an object or has no paths', () => {
    expect(() => parseDocument('- 1\n', 'doc.yaml')).toThrow('doc.yaml: the document must be an object');
    expect(() => parseDocument('openapi: 3.0.3\n', 'doc.yaml')).toThrow("doc.yaml: 'paths' must be an object");
  });
});

describe('checkDocument', () => {
  it('checks a document given as an object the same way', () => {
    expect(() => checkDocument({ openapi: '3.0.1', paths: {} }, 'object')).not.toThrow();
    expect(() => checkDocument(null, 'object')).toThrow(new DocumentError('object: the document must be an object'));
    expect(() => checkDocument({ openapi: 3, paths: {} }, 'object')).toThrow(
      new DocumentError("object: 'openapi' must be a 3.0.x version, found 3"),
    );
  });
});
