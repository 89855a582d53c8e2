/**
 * What the core logs through: pino's shape (an object, then a message), so
 * that a pino logger can be passed as it is, and a browser can pass `console`
 * wrapped in a few lines. The core never imports a logger itself.
 */
export interface MockLogger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
  debug(details: object, message: string): void;
  /** Lets the pipeline skip building a log line nobody reads. Absent: every level is on. */
  isLevelEnabled?(level: 'error' | 'warn' | 'info' | 'debug'): boolean;
}

const ignore = (): void => undefined;

/** Logs nothing: the default of the core and of the in-process adapters. */
export const silentLogger: MockLogger = {
  error: ignore,
  warn: ignore,
  info: ignore,
  debug: ignore,
  isLevelEnabled: () => false,
};
