import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors/http-error.js';
import { selectMount, type Mount } from '../../../src/core/pipeline/select-mount.js';
import { caught } from '../../support/caught.js';

const mount = (basePath: string, admin: boolean): Mount => ({ basePath, admin }) as Mount;
const api = mount('/v1', false);
const admin = mount('/__admin', true);
const mounts = [api, admin];

describe('selectMount', () => {
  it.each([
    ['/v1/pets', api, '/pets'],
    ['/v1/pets/1', api, '/pets/1'],
    ['/v1', api, '/'],
    ['/v1/', api, '/'],
    ['/__admin/reset', admin, '/reset'],
    ['/__admin', admin, '/'],
  ])('serves %s from the mount at its base path, with the path below it', (path, expected, below) => {
    const selected = selectMount(mounts, 'GET', path);
    expect(selected.mount).toBe(expected);
    expect(selected.path).toBe(below);
  });

  it.each(['/', '/pets', '/v1x', '/v1x/pets', '/V1/pets', '/__adminx', '/v2/pets'])(
    'answers 404 route_not_found for %s, outside every mount, naming where the API is',
    (path) => {
      const error = caught(HttpError, () => selectMount(mounts, 'DELETE', path), path);
      expect(error.status).toBe(404);
      expect(error.code).toBe('route_not_found');
      expect(error.message).toBe(`nothing is served at DELETE ${path}; the API is under /v1`);
    },
  );

  it('answers a path asked again the same way, and the same path under other mounts by those mounts', () => {
    expect(selectMount(mounts, 'GET', '/v1/pets').path).toBe('/pets');
    expect(selectMount(mounts, 'GET', '/v1/pets').mount).toBe(api);
    const other = mount('/v1/pets', false);
    const under = selectMount([other], 'GET', '/v1/pets');
    expect(under.mount).toBe(other);
    expect(under.path).toBe('/');
    expect(selectMount(mounts, 'GET', '/v1/pets').mount).toBe(api);
    expect(() => selectMount([admin], 'GET', '/v1/pets')).toThrow(HttpError);
  });

  it('names the API mount in the 404 even when the admin mount comes first', () => {
    const error = caught(HttpError, () => selectMount([admin, mount('/api', false)], 'GET', '/x'), '/x');
    expect(error.message).toBe('nothing is served at GET /x; the API is under /api');
  });
});
