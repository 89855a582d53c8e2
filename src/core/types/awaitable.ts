/** A value now, or later: the memory store answers at once; a remote store (shared by replicas) answers later. */
export type Awaitable<T> = T | Promise<T>;
