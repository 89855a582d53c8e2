export const redactedMarker = '[REDACTED]';

/**
 * Returns a function that replaces every occurrence of the secret in a text.
 * Also covers the secret's URL-encoded and base64 forms, in case a deployment
 * echoes it back in another shape.
 */
export function createRedactor(secret: string): (text: string) => string {
  const forms = [...new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')])]
    .filter((form) => form.length > 0)
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let result = text;
    for (const form of forms) result = result.split(form).join(redactedMarker);
    return result;
  };
}
