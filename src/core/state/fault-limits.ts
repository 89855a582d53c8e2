/**
 * The most faults one session holds scheduled at once, in every state store.
 * Every request of the API walks the list, so an unbounded one made every
 * call slower (200,000 faults cost 110 MB and made listPets 14 times
 * slower); a test needs a few.
 */
export const maxScheduledFaults = 100;
