import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nothingToRun, testsFor, type Subject, type Target } from '../../support/behaviour-subject.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';

type Item = Record<string, unknown>;
interface ErrorBody {
  code: string;
  message: string;
  status: number;
  details?: Array<{ field: string; location: string }>;
}

/** The body of a create as text: `fields` in order, then `literal` written as it is under `name`. */
function withLiteral(fields: Item, name: string, literal: string): string {
  const { [name]: _left, ...rest } = fields;
  const written = JSON.stringify(rest);
  return `${written.slice(0, -1)}${written.length > 2 ? ',' : ''}${JSON.stringify(name)}:${literal}}`;
}

/** Another value of the same type. */
function other(value: unknown): unknown {
  if (typeof value === 'string') return `${value} the second`;
  if (typeof value === 'number') return value + 1;
  return [value];
}

/**
 * A create operation (POST on a collection): what it stores and answers,
 * and each way a body is refused. Fields are named by what the model says
 * they are: the resource's required text, its int64 integer, its state.
 */
export function createItemSuite(subject: Subject): void {
  const r = subject.resource;
  if (!r.create) return nothingToRun(`the document has no create of ${r.name}`);
  const { text, integer, state } = r;
  const optional = r.writable.find((field) => !r.required.some((required) => required.name === field.name));
  const scenario = subject.scenario('one-of-each-status');
  const nextId = scenario.nextId;
  const collection = (target: Target) => `${target.baseUrl}${r.collectionPath}`;
  const sizeOf = async (target: Target) =>
    (
      await request<Item[]>(`${collection(target)}${r.page ? `?${r.page.name}=${r.page.maximum}` : ''}`, {
        headers: auth,
      })
    ).body.length;
  /** A new item with every writable field set: a text, an integer, a state other than the first. */
  const full = r.newItem({
    ...(integer ? { [integer.name]: 7 } : {}),
    ...(state ? { [state.name]: state.values[1] ?? state.values[0] } : {}),
  });

  describe(`POST /v1${r.collectionPath}`, () => {
    let target: Target;
    beforeEach(async () => {
      target = await subject.start({ scenario: 'one-of-each-status' });
    });
    afterEach(() => target.close());

    const post = (body: string, headers: Record<string, string> = jsonAuth) =>
      request<Item & ErrorBody>(collection(target), { method: 'POST', headers, body });

    it(`answers 201 with the stored ${r.itemName} and the next ${r.idField}`, async () => {
      const response = await post(JSON.stringify(full));
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ [r.idField]: nextId, ...full });
    });

    if (r.read && r.list) {
      const read = r.read;
      const list = r.list;
      it(`makes the new ${r.itemName} visible to ${read.operationId} and to ${list.operationId} at once`, async () => {
        const created = await post(JSON.stringify(full));
        const fetched = await request<Item>(`${target.baseUrl}${r.itemPath(String(created.body[r.idField]))}`, {
          headers: auth,
        });
        expect(fetched.body).toEqual(created.body);
        const query = state ? `?${state.name}=${String(full[state.name])}` : '';
        const listed = await request<Item[]>(`${collection(target)}${query}`, { headers: auth });
        expect(listed.body).toContainEqual(created.body);
      });

      it(`ignores a client-sent ${r.idField} and assigns its own`, async () => {
        const first = scenario.items[0] as Item;
        const response = await post(JSON.stringify({ [r.idField]: first[r.idField], ...r.newItem() }));
        expect(response.status).toBe(201);
        expect(response.body[r.idField]).toBe(nextId);
        const kept = await request<Item>(`${target.baseUrl}${r.itemPath(String(first[r.idField]))}`, {
          headers: auth,
        });
        expect(kept.body).toEqual(first);
      });
    }

    const unknown = ['colour', 'owner'].filter((name) => !r.resource.fields.includes(name));
    it('neither stores nor echoes fields the schema does not define', async () => {
      const response = await post(
        JSON.stringify({ ...r.newItem(), [unknown[0] as string]: 'brown', [unknown[1] as string]: { id: 1 } }),
      );
      expect(response.status).toBe(201);
      expect(Object.keys(response.body).sort()).toEqual([r.idField, ...r.required.map((field) => field.name)].sort());
      const listed = await request(collection(target), { headers: auth });
      for (const name of unknown) expect(listed.text).not.toContain(name);
    });

    if (optional) {
      it(`leaves an omitted ${optional.name} omitted`, async () => {
        const response = await post(JSON.stringify(r.newItem()));
        expect(response.status).toBe(201);
        expect(response.body).not.toHaveProperty(optional.name);
        const listed = await request<Item[]>(collection(target), { headers: auth });
        const stored = listed.body.find((item) => item[r.idField] === response.body[r.idField]);
        expect(stored).toEqual(response.body);
        expect(stored).not.toHaveProperty(optional.name);
      });
    }

    if (text) {
      it(`keeps ${text.name}s exactly as sent, unicode and spaces included`, async () => {
        const value = '  Zoë 🐶 "quoted" \\ 小白\n ';
        const response = await post(JSON.stringify(r.newItem({ [text.name]: value })));
        expect(response.body[text.name]).toBe(value);
      });
    }

    const refusals: Array<[string, Item, string]> = [
      ...r.required.map((field): [string, Item, string] => {
        const { [field.name]: _left, ...rest } = r.newItem();
        return [`a missing ${field.name}`, rest, field.name];
      }),
      ...(text ? [[`a numeric ${text.name}`, r.newItem({ [text.name]: 5 }), text.name] as [string, Item, string]] : []),
      ...(integer
        ? ([
            [`a string ${integer.name}`, r.newItem({ [integer.name]: '1' }), integer.name],
            [`a fractional ${integer.name}`, r.newItem({ [integer.name]: 1.5 }), integer.name],
            [`a null ${integer.name}`, r.newItem({ [integer.name]: null }), integer.name],
          ] as Array<[string, Item, string]>)
        : []),
      ...(state
        ? [[`an unknown ${state.name}`, r.newItem({ [state.name]: 'lost' }), state.name] as [string, Item, string]]
        : []),
    ];
    it.each(refusals)('answers 400 naming the field for %s', async (_case, body, field) => {
      const response = await post(JSON.stringify(body));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_body', status: 400 });
      expect(response.body.message).toContain(`'${field}'`);
      expect(response.body.details?.map((detail) => detail.field)).toContain(field);
    });

    if (text && integer && state) {
      it('lists every problem in details when several fields are wrong', async () => {
        const response = await post(JSON.stringify({ [text.name]: 5, [state.name]: 'lost' }));
        expect(response.status).toBe(400);
        expect(response.body.details?.map((detail) => detail.field).sort()).toEqual(
          [integer.name, text.name, state.name].sort(),
        );
      });
    }

    it.each([
      ['an array', '[]'],
      ['a string', '"Rex"'],
      ['null', 'null'],
    ])('answers 400 when the body is %s', async (_case, body) => {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_body');
    });

    if (integer?.format === 'int64') {
      it.each([
        '0',
        '-1',
        '2147483647',
        '2147483648',
        '4294967296',
        '9007199254740991',
        '9007199254740993',
        '-9007199254740993',
        '9223372036854775807',
        '-9223372036854775808',
      ])(`keeps ${integer.name} %s exactly, stores it and reads it back`, async (literal) => {
        const body = withLiteral(r.newItem(), integer.name, literal);
        const response = await post(body);
        expect(response.status).toBe(201);
        expect(response.text).toBe(`{${JSON.stringify(r.idField)}:${String(nextId)},${body.slice(1)}`);
        // Read back through every operation of the document that shows it: the item's read, and the list.
        const readers = [
          ...(r.read ? [r.itemPath(String(nextId))] : []),
          `${r.collectionPath}${r.page ? `?${r.page.name}=${r.page.maximum}` : ''}`,
        ];
        for (const path of readers) {
          const shown = await request(`${target.baseUrl}${path}`, { headers: auth });
          expect(shown.text, path).toContain(response.text);
        }
      });

      it.each([
        ['2^63, just beyond int64', '9223372036854775808', 'must be an int64'],
        ['-2^63-1, just below int64', '-9223372036854775809', 'must be an int64'],
        ['a decimal literal', '1.0', 'must be integer (1.0 is written as a decimal)'],
        ['an exponent', '1e3', 'must be integer (1e3 is written as a decimal)'],
        ['a number too large for a double', '1e400', 'must be integer (1e400 is written as a decimal)'],
        [
          'a decimal with many digits',
          '1.00000000000000001',
          'must be integer (1.00000000000000001 is written as a decimal)',
        ],
      ])(
        `refuses ${integer.name} %s with 400 naming the field, and stores nothing`,
        async (_case, literal, problem) => {
          const response = await post(withLiteral(r.newItem(), integer.name, literal));
          expect(response.status).toBe(400);
          expect(response.body).toMatchObject({ code: 'invalid_body', status: 400 });
          expect(response.body.message).toContain(`body field '${integer.name}' ${problem}`);
          expect(await sizeOf(target)).toBe(scenario.size);
        },
      );

      it(`accepts the largest safe integer as ${integer.name} and returns it unchanged`, async () => {
        const response = await post(withLiteral(r.newItem(), integer.name, '9007199254740991'));
        expect(response.status).toBe(201);
        expect(response.text).toContain(`"${integer.name}":9007199254740991`);
      });
    }

    const first = Object.keys(r.newItem())[0] as string;
    it.each([
      ['a syntax error', `{${JSON.stringify(first)}: "Rex",`],
      // The same key twice, with two values (which one would win is not JSON's to say).
      [
        'a duplicate key',
        `{${JSON.stringify(first)}:${JSON.stringify(other(r.newItem()[first]))},${JSON.stringify(r.newItem()).slice(1)}`,
      ],
      ['a bare word', 'hello'],
    ])('answers 400 invalid_json for %s', async (_case, body) => {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_json', status: 400 });
    });

    it('answers 400 body_required for an empty body', async () => {
      const response = await post('');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'body_required', status: 400 });
    });

    it.each([
      ['text/plain', 'text/plain'],
      ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
      ['application/json with a UTF-16 charset', 'application/json; charset=utf-16'],
    ])('answers 415 for a %s body', async (_case, contentType) => {
      const response = await post(JSON.stringify(r.newItem()), { ...auth, 'Content-Type': contentType });
      expect(response.status).toBe(415);
      expect(response.body).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    });

    it('accepts application/json with a UTF-8 charset', async () => {
      const response = await post(JSON.stringify(r.newItem()), {
        ...auth,
        'Content-Type': 'application/json; charset=UTF-8',
      });
      expect(response.status).toBe(201);
    });

    it('answers 415 when a body comes without a Content-Type', async () => {
      const response = await request(collection(target), {
        method: 'POST',
        headers: auth,
        body: new Uint8Array(Buffer.from(JSON.stringify(r.newItem()))),
      });
      expect(response.status).toBe(415);
    });

    if (text) {
      testsFor(subject, { bodyOverLimit: true })(
        'answers 413 for a body over the size limit, and stores nothing',
        async () => {
          const big = JSON.stringify(r.newItem({ [text.name]: 'x'.repeat(2 * 1024 * 1024) }));
          const response = await post(big);
          expect(response.status).toBe(413);
          expect(response.body).toMatchObject({ code: 'payload_too_large', status: 413 });
          expect(await sizeOf(target)).toBe(scenario.size);
        },
      );
    }

    it('keeps a __proto__ key from polluting anything and does not store it', async () => {
      const polluting = JSON.stringify({ ...(state ? { [state.name]: state.values.at(-1) } : {}), polluted: true });
      const response = await post(`${JSON.stringify(r.newItem()).slice(0, -1)},"__proto__":${polluting}}`);
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ [r.idField]: nextId, ...r.newItem() });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe(`POST /v1${r.collectionPath} with hostile JSON`, () => {
    it('answers 400 invalid_json, not a crash, for a body nested a hundred thousand levels deep', async () => {
      const target = await subject.start();
      try {
        const depth = 100_000;
        const body = `${JSON.stringify(r.newItem()).slice(0, -1)},"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
        const response = await request<{ code: string; message: string }>(collection(target), {
          method: 'POST',
          headers: jsonAuth,
          body,
        });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('invalid_json');
        expect(response.body.message).toContain('too deeply');
        expect((await request(collection(target), { headers: auth })).status).toBe(200);
      } finally {
        await target.close();
      }
    });
  });

  describe(`POST /v1${r.collectionPath} with a Content-Encoding`, () => {
    it('inflates a gzip body', async () => {
      const target = await subject.start();
      try {
        const body = r.newItem(text ? { [text.name]: 'Zipped' } : {});
        const response = await request(collection(target), {
          method: 'POST',
          headers: { ...jsonAuth, 'Content-Encoding': 'gzip' },
          body: new Uint8Array(gzipSync(JSON.stringify(body))),
        });
        expect(response.status).toBe(201);
        expect(response.body).toMatchObject(body);
      } finally {
        await target.close();
      }
    });

    // The universal mock (MSW's) inflates with the Web streams, which know no brotli.
    const encodings = subject.transport.universal ? ['gzip', 'deflate'] : ['gzip', 'deflate', 'br'];
    it.each(encodings)('answers 400 invalid_encoding, not 500, when a %s body is not compressed', async (encoding) => {
      const target = await subject.start();
      try {
        const response = await request<{ code: string; status: number }>(collection(target), {
          method: 'POST',
          headers: { ...jsonAuth, 'Content-Encoding': encoding },
          body: JSON.stringify(r.newItem()),
        });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'invalid_encoding', status: 400 });
      } finally {
        await target.close();
      }
    });
  });
}
