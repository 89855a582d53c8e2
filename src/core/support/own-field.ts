/**
 * Gives `target` an own, enumerable field of that name, whatever the name: a
 * body parsed from JSON may hold `__proto__` as a plain key, which an
 * assignment would take as the object's prototype (and lose the value).
 */
export function setOwnField(target: Record<string, unknown>, field: string, value: unknown): void {
  if (field === '__proto__') {
    Object.defineProperty(target, field, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[field] = value;
  }
}
