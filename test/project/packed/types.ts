// Type-checked inside the folder where the packed petstore-kit was installed: the published types hold.
import { createMock, type ExactPet, type Int64, type Mock, type Pet, type paths } from 'petstore-kit';
import { petstoreMiddleware, type Pet as ExpressPet, type operations } from 'petstore-kit/express';
import { createMockHandlers, type MockHandlers } from 'petstore-kit/msw';

const mock: Mock = createMock({ scenario: 'empty', keys: ['k'] });
// The store API holds ids exactly: a number up to 2^53−1, a bigint beyond.
const stored: ExactPet[] = mock.store.collection<ExactPet>('pets').list({ limit: 5 });
const id: Int64 = stored[0]?.id ?? 0n;
// What an app reads with response.json(): plain numbers, so arithmetic on ids compiles.
const parsed = JSON.parse('[{"id":2,"name":"Rex","categoryId":1}]') as Pet[];
const newest = Math.max(...parsed.map((pet) => pet.id));
const sorted: ExpressPet[] = [...parsed].sort((a, b) => a.id - b.id);
const handlers: MockHandlers = createMockHandlers({ baseUrl: '/v1' });
const middleware = petstoreMiddleware({ mock });
// openapi-typescript's form of the document, from every entry: a client typed by paths reads plain numbers too.
type Listed = paths['/pets']['get']['responses'][200]['content']['application/json'];
const listed: Listed = parsed;
const created: operations['createPet']['responses'][201]['content']['application/json'] = { ...parsed[0]!, id: 5 };
// Per-test control, typed: the fault's fields and the latency.
const fault = mock.scheduleFault({ operationId: 'listPets', status: 500, times: 2 });
mock.session('w2').setLatency({ min: 0, max: 10 });
export const used = [
  id,
  newest,
  sorted,
  handlers.length,
  middleware.mock === mock,
  mock.fetch,
  listed,
  created,
  fault.id,
] as const;
