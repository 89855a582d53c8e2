// Type-checked inside the folder where the packed petstore-kit was installed: the published types hold.
import { createMock, type Int64, type Mock, type Pet } from 'petstore-kit';
import { petstoreMiddleware } from 'petstore-kit/express';
import { createMockHandlers, type MockHandlers } from 'petstore-kit/msw';

const mock: Mock = createMock({ scenario: 'empty', keys: ['k'] });
const pets: Pet[] = mock.store.list({ limit: 5 });
const id: Int64 = pets[0]?.id ?? 0n;
const handlers: MockHandlers = createMockHandlers({ baseUrl: '/v1' });
const middleware = petstoreMiddleware({ mock });
export const used = [id, handlers.length, middleware.mock === mock, mock.fetch] as const;
