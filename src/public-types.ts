// The API's types as an app's JSON parser gives them, and the exact forms of the kit's own store API.
export type { Pet, NewPet, Pets, PetStatus, ErrorBody, ExactPet, ExactNewPet } from './core/types/api-types.js';
// The whole API as openapi-typescript writes it (numbers for int64, as `response.json()` gives them), for clients
// typed by `paths`: openapi-fetch's `createClient<paths>()`, openapi-msw's `createOpenApiHttp<paths>()`, orval.
export type { paths, operations, components } from './generated/openapi-parsed-types.js';
export type { Int64 } from './core/json/exact-json.js';
export type { PlainRequest, PlainResponse, NetworkFault } from './core/http/plain-http.js';
export type { ScenarioSource } from './core/create-mock-core.js';
export type { SessionApi } from './core/session-api.js';
export type { Fixture } from './core/scenarios/fixture.js';
export type { ScenarioInfo } from './core/scenarios/scenario-catalogue.js';
export type { StoreState } from './core/state/state-store.js';
export type { JournalEntry } from './core/journal/request-journal.js';
export type { MockLogger } from './core/support/mock-logger.js';
export type { FaultRequest, Latency, ScheduledFault } from './core/state/state-store.js';
