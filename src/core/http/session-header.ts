/**
 * The header that names a session (`Petstore-Session`), what a name may be,
 * and the name of the session of a request without the header. The pipeline,
 * the sessions, the admin API and the proxy's memory all read them here.
 */
export const sessionHeader = 'petstore-session';
export const sessionNamePattern = '^[A-Za-z0-9._-]{1,64}$';
export const defaultSessionName = 'default';
