import type { ErrorObject } from 'ajv';
import type { ErrorDetail } from './http-error.js';

/** `/pets/2/status` -> `pets[2].status`; the empty pointer stays empty. */
export function pointerToField(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((field, segment) => {
      if (/^\d+$/.test(segment)) return `${field}[${segment}]`;
      return field === '' ? segment : `${field}.${segment}`;
    }, '');
}

function joinField(parent: string, child: string): string {
  if (parent === '') return child;
  return /^\d+$/.test(child) ? `${parent}[${child}]` : `${parent}.${child}`;
}

/**
 * Converts Ajv's errors into Error-body details that name the field. `required`
 * and `additionalProperties` errors name the missing or extra property rather
 * than its parent object; `enum` errors list the allowed values.
 */
export function fromAjvErrors(errors: readonly ErrorObject[], location: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    let field = pointerToField(error.instancePath);
    let message = error.message ?? 'is invalid';
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      field = joinField(field, params.missingProperty);
      message = 'is required';
    } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      field = joinField(field, params.additionalProperty);
      message = 'is not allowed here';
    } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      message = `must be one of: ${params.allowedValues.map(String).join(', ')}`;
    }
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ location, field, message, keyword: error.keyword });
  }
  return details;
}

const locationNames: Record<string, string> = {
  body: 'body field',
  query: 'query parameter',
  path: 'path parameter',
  header: 'header',
  response: 'response field',
  fixture: 'fixture field',
  field: 'field',
};

/** One sentence naming the first problem, e.g. "body field 'categoryId' is required". */
export function describeDetail(detail: ErrorDetail): string {
  if (detail.field === '') return `${detail.location === 'body' ? 'the body' : detail.location} ${detail.message}`;
  const noun = locationNames[detail.location] ?? detail.location;
  return `${noun} '${detail.field}' ${detail.message}`;
}

/** Up to `most` problems as sentences, then how many more there are: for start-up messages. */
export function listDetails(details: readonly ErrorDetail[], most = 5): string {
  const shown = details.slice(0, most).map((detail) => describeDetail(detail));
  if (details.length > shown.length) shown.push(`and ${details.length - shown.length} more problems`);
  return shown.join('; ');
}

/** The message of an Error body that lists `details`: the first problem, and how many more. */
export function summariseDetails(details: readonly ErrorDetail[]): string {
  const [first] = details;
  if (!first) return 'the request is invalid';
  const more = details.length - 1;
  return more > 0
    ? `${describeDetail(first)} (and ${more} more problem${more === 1 ? '' : 's'})`
    : describeDetail(first);
}
