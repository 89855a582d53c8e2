import { describe, expect, it } from 'vitest';
import { shortKeyWarning } from '../../src/contract/run-secrets.js';

describe('the warning a contract run gives about its key', () => {
  it('is given for a key shorter than 8 characters, saying where output still hides it', () => {
    expect(shortKeyWarning('pets')).toMatch(/^warning: the API key is shorter than 8 characters, .*after Bearer/);
  });

  it('is not given for the mock’s public dev-key, nor for a key of 8 characters or more', () => {
    expect(shortKeyWarning('dev-key')).toBeUndefined();
    expect(shortKeyWarning('dev-key2')).toBeUndefined();
    expect(shortKeyWarning('dev-ke')).toBeDefined();
  });
});
