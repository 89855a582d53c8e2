/** One test case of a JUnit report. */
export interface JunitCase {
  name: string;
  /** Default: the suite's name. */
  classname?: string;
  durationMs?: number;
  failure?: { message: string; text: string } | undefined;
  /** The case could not run (the target could not be reached, a check crashed). */
  error?: { message: string; text: string } | undefined;
  /** Why it was skipped. */
  skipped?: string | undefined;
  /** Shown beside the case without failing it: warnings and observations. */
  properties?: ReadonlyArray<{ name: string; value: string }>;
}

export interface JunitSuite {
  name: string;
  cases: readonly JunitCase[];
}

/**
 * Characters XML 1.0 cannot hold at all, even escaped: C0 controls but tab,
 * line feed and carriage return; lone surrogates; U+FFFE and U+FFFF.
 */
const notXml =
  // eslint-disable-next-line no-control-regex -- these control characters are exactly what XML 1.0 cannot hold
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A text as XML character data or an attribute value: escaped, and what XML cannot hold shown as `\uXXXX`. */
export function xmlText(text: string): string {
  return text
    .replace(notXml, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function caseXml(testCase: JunitCase, suite: string): string {
  const time = testCase.durationMs === undefined ? '' : ` time="${(testCase.durationMs / 1000).toFixed(3)}"`;
  const open = `    <testcase classname="${xmlText(testCase.classname ?? suite)}" name="${xmlText(testCase.name)}"${time}`;
  const inner: string[] = [];
  if (testCase.properties && testCase.properties.length > 0) {
    inner.push('      <properties>');
    for (const { name, value } of testCase.properties) {
      inner.push(`        <property name="${xmlText(name)}" value="${xmlText(value)}"/>`);
    }
    inner.push('      </properties>');
  }
  if (testCase.failure) {
    inner.push(
      `      <failure message="${xmlText(testCase.failure.message)}">${xmlText(testCase.failure.text)}</failure>`,
    );
  }
  if (testCase.error) {
    inner.push(`      <error message="${xmlText(testCase.error.message)}">${xmlText(testCase.error.text)}</error>`);
  }
  if (testCase.skipped !== undefined) inner.push(`      <skipped message="${xmlText(testCase.skipped)}"/>`);
  return inner.length === 0 ? `${open}/>` : [`${open}>`, ...inner, '    </testcase>'].join('\n');
}

/**
 * A JUnit XML report, valid XML whatever the texts hold (control characters
 * and lone surrogates from a deployment's bodies included), with the
 * `tests`, `failures`, `errors` and `skipped` counts CI servers read.
 */
export function junitXml(name: string, suites: readonly JunitSuite[]): string {
  const count = (cases: readonly JunitCase[]) => ({
    tests: cases.length,
    failures: cases.filter((c) => c.failure).length,
    errors: cases.filter((c) => c.error).length,
    skipped: cases.filter((c) => c.skipped !== undefined).length,
  });
  const attributes = (counts: ReturnType<typeof count>) =>
    `tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}"`;
  const all = count(suites.flatMap((suite) => suite.cases));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlText(name)}" ${attributes(all)}>`,
    ...suites.flatMap((suite) => [
      `  <testsuite name="${xmlText(suite.name)}" ${attributes(count(suite.cases))}>`,
      ...suite.cases.map((testCase) => caseXml(testCase, `${name}.${suite.name}`)),
      '  </testsuite>',
    ]),
    '</testsuites>',
    '',
  ].join('\n');
}
