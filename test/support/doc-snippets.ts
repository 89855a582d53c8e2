/**
 * The code blocks of the README and docs/, each with what its page says it
 * is. A block of TypeScript or shell carries a marker on a line of its own
 * before it, an HTML comment GitHub does not show:
 *
 *     <!-- snippet: KIND [ARGS] [(a note)] -->
 *
 * The kinds (docs/README.md lists them for writers):
 *
 * - `run` — TypeScript: a whole program, type-checked as a user's module
 *   importing `petstore-kit`, then run with Node. `run browser`: a page's
 *   module, run in headless Chromium with MSW's service worker.
 * - `test [ENV...]` — TypeScript: a vitest file, type-checked, then run by
 *   vitest under each environment named (`node` when none is).
 * - `test-setup` — TypeScript: MSW set up for vitest, type-checked, then run
 *   by vitest with a test that calls the API through it.
 * - `needs-mock [FLAGS]` — shell: run with `sh -e` against a mock started
 *   with these flags on a port of its own, put back to its start before each
 *   block (127.0.0.1:4010 and the docs' staging addresses rewritten to it);
 *   the JSON a `# {...}` comment shows under a command must be in the output.
 * - `compile` — TypeScript: type-checked only (a config, or a module that
 *   defines and exports). Shell: not run (a deployment, a long run, a
 *   process that runs until stopped), but each command is checked: a
 *   script of package.json, a program of the kit with flags and variables
 *   its `--help` names, a file that exists. `your-script=NAME`: `npm run
 *   NAME` is the user's project's own script.
 * - `partial` — a fragment, neither run nor checked.
 *
 * Blocks of data (json, yaml, text) need no marker; JSON and YAML ones must parse.
 */

/** One fenced code block of a page. */
export interface Snippet {
  /** The page, relative to the repository: `README.md`, `docs/in-process.md`. */
  page: string;
  /** The line of its opening fence, counted from 1. */
  line: number;
  /** The first word of its info string: `ts`, `sh`, `json`. */
  lang: string;
  /** What its marker says it is; undefined for a block without one. */
  kind?: string;
  /** The marker's words after the kind: `browser`, `happy-dom`, `--scenario large`. */
  args: string[];
  /** The code, ending with a newline. */
  code: string;
}

/** Languages whose blocks are programs or commands: each needs a marker. */
export const programLanguages: Record<string, 'ts' | 'sh'> = {
  ts: 'ts',
  typescript: 'ts',
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
};

/** The kinds a block of each language may be marked with. */
export const kindsOf: Record<'ts' | 'sh', readonly string[]> = {
  ts: ['run', 'test', 'test-setup', 'compile', 'partial'],
  sh: ['needs-mock', 'compile', 'partial'],
};

const markerPattern = /^<!-- snippet: ([a-z-]+)((?: [^()]*?)?)(?: \(([^)]*)\))? -->$/;

/** `page:line`, as the runner names a block in its reports. */
export const snippetName = (snippet: Pick<Snippet, 'page' | 'line'>): string => `${snippet.page}:${snippet.line}`;

/** A file name for a block: `docs-in-process-md-208`. */
export const snippetStem = (snippet: Pick<Snippet, 'page' | 'line'>): string =>
  `${snippet.page.replace(/[^A-Za-z0-9]+/g, '-')}-${snippet.line}`;

/**
 * The fenced blocks of a page, in order, with the marker on the last
 * non-blank line before each, if any. A marker anywhere else (not followed
 * by a block) is reported as a block of language `marker` so that it cannot
 * go unnoticed.
 */
export function extractSnippets(page: string, markdown: string): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  let pending: { kind: string; args: string[]; line: number } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index] as string;
    const marker = markerPattern.exec(text.trim());
    if (text.trim().startsWith('<!-- snippet:')) {
      if (pending) snippets.push({ page, line: pending.line, lang: 'marker', args: [], code: '' });
      pending = marker
        ? { kind: marker[1] as string, args: (marker[2] ?? '').trim().split(/\s+/).filter(Boolean), line: index + 1 }
        : { kind: 'unreadable', args: [], line: index + 1 };
      continue;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(text);
    if (!fence) {
      if (text.trim() !== '' && pending) {
        snippets.push({ page, line: pending.line, lang: 'marker', args: [], code: '' });
        pending = undefined;
      }
      continue;
    }
    const [, indent = '', ticks = '', lang = ''] = fence;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !(lines[end] as string).trim().startsWith(ticks)) {
      body.push((lines[end] as string).slice(indent.length));
      end++;
    }
    snippets.push({
      page,
      line: index + 1,
      lang: lang.toLowerCase(),
      ...(pending ? { kind: pending.kind } : {}),
      args: pending?.args ?? [],
      code: body.length === 0 ? '' : `${body.join('\n')}\n`,
    });
    pending = undefined;
    index = end;
  }
  if (pending) snippets.push({ page, line: pending.line, lang: 'marker', args: [], code: '' });
  return snippets;
}

/** What is wrong with a block's marker, or undefined when it has the one its language needs. */
export function markerProblem(snippet: Snippet): string | undefined {
  if (snippet.lang === 'marker') return 'a snippet marker with no code block after it';
  const language = programLanguages[snippet.lang];
  if (!language) {
    return snippet.kind === undefined ? undefined : `a ${snippet.lang} block is data, and takes no snippet marker`;
  }
  if (snippet.kind === undefined) {
    return `a ${snippet.lang} block without a marker: <!-- snippet: ${kindsOf[language].join(' | ')} --> before it`;
  }
  if (!kindsOf[language].includes(snippet.kind)) {
    return `'${snippet.kind}' is not a kind of ${snippet.lang} block (${kindsOf[language].join(', ')})`;
  }
  return undefined;
}

/** One command of a shell block: the words before it set variables, then the program and its arguments. */
export interface ShellCommand {
  /** `NAME` of each `NAME=value` before the program. */
  variables: string[];
  /** The words, variables and redirections left out, quotes kept. */
  words: string[];
  /** The command as written (continuations joined, comment dropped). */
  text: string;
}

/** The shell block's lines, continuations joined and comments dropped, each split at `&&`, `||`, `;` and a final `&`. */
export function shellCommands(code: string): ShellCommand[] {
  const joined = code.replace(/\\\n\s*/g, ' ');
  const commands: ShellCommand[] = [];
  for (const rawLine of joined.split('\n')) {
    const line = rawLine.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    for (const part of line.split(/\s*(?:&&|\|\||;)\s+|\s&$|;$/)) {
      const text = part.trim();
      if (text === '') continue;
      const words = text.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
      const variables: string[] = [];
      while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] as string)) {
        variables.push((words.shift() as string).split('=')[0] as string);
      }
      commands.push({ variables, words: words.filter((word) => !/^\d?>/.test(word)), text });
    }
  }
  return commands;
}

/** The flags a piece of a command line names, `[--read-only]` and `--port=8080` included. */
export const flagsIn = (text: string): string[] => [
  ...new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((match) => `--${match[1]}`)),
];

/** What the shell checker needs to know of the kit. */
export interface KitFacts {
  /** package.json's scripts. */
  scripts: Record<string, string>;
  /** The `--help` text of a program of the kit, by name (`mock`, `proxy`, `contract`, `precompile`, `dredd`, `fuzz`, `soak`). */
  help(program: string): string;
  /** Whether a file exists in the checkout. */
  exists(path: string): boolean;
}

/** npm's own commands the docs use, which take no flags of the kit's. */
const npmCommands = new Set(['install', 'i', 'ci', 'test', 'pack', 'exec', 'init']);
/** The kit's programs and subcommands, by how a command names them, to the help that documents their flags. */
const kitPrograms: Record<string, string> = {
  'petstore-mock': 'mock',
  'petstore-mock proxy': 'proxy',
  'petstore-contract': 'contract',
  'petstore-kit mock': 'mock',
  'petstore-kit proxy': 'proxy',
  'petstore-kit contract': 'contract',
  'petstore-kit precompile': 'precompile',
  'petstore-kit': 'kit',
};
/** npm scripts whose program takes flags after `--`, to that program. */
const scriptPrograms: Record<string, string> = {
  start: 'mock',
  contract: 'contract',
  'contract:dredd': 'dredd',
  fuzz: 'fuzz',
  soak: 'soak',
};

/**
 * What is wrong with the commands of a shell block: an npm script that
 * package.json does not have (but those `userScripts` names, a user's
 * project's own), a flag or an environment variable the program's `--help`
 * does not name, a file `npx tsx` would run that does not exist. Commands
 * of other programs (curl, kill, cd…) are left alone.
 */
export function shellProblems(code: string, facts: KitFacts, userScripts: readonly string[] = []): string[] {
  const problems: string[] = [];
  const checkFlags = (program: string, args: string, command: ShellCommand) => {
    const help = facts.help(program);
    for (const flag of flagsIn(args)) {
      if (!help.includes(flag)) problems.push(`${flag} is not a flag of ${program} (${command.text})`);
    }
    for (const variable of command.variables) {
      if (/^(PETSTORE|CONTRACT)_/.test(variable) && !help.includes(variable)) {
        problems.push(`${variable} is not a variable ${program} reads (${command.text})`);
      }
    }
  };
  for (const command of shellCommands(code)) {
    const words = [...command.words];
    const rest = (from: number) => words.slice(from).join(' ');
    if (words[0] === 'npm') {
      const sub = words[1] ?? '';
      if (sub === 'start' || sub === 'run') {
        const script = sub === 'start' ? 'start' : (words[2] ?? '');
        if (userScripts.includes(script)) continue;
        if (!(script in facts.scripts)) {
          problems.push(`npm run ${script}: package.json has no script '${script}' (${command.text})`);
          continue;
        }
        const dashes = words.indexOf('--');
        const program = scriptPrograms[script];
        if (dashes >= 0 && program) checkFlags(program, rest(dashes + 1), command);
        else if (dashes >= 0) problems.push(`npm run ${script} takes no flags the docs can check (${command.text})`);
      } else if (!npmCommands.has(sub)) {
        problems.push(`npm ${sub} is not a command the docs' checker knows (${command.text})`);
      }
      continue;
    }
    if (words[0] === 'npx') {
      words.shift();
      while (words[0]?.startsWith('-')) {
        const option = words.shift() as string;
        if (option === '--package' || option === '-p') words.shift();
      }
      const [program, file = ''] = words as Array<string | undefined>;
      if (program === 'tsx') {
        if (!facts.exists(file)) problems.push(`npx tsx ${file}: no such file (${command.text})`);
        continue;
      }
    }
    const two = `${words[0]} ${words[1]}`;
    const name = two in kitPrograms ? two : (words[0] ?? '');
    const program = kitPrograms[name];
    if (program) checkFlags(program, rest(name.split(' ').length), command);
  }
  return problems;
}

/**
 * The outputs a shell block shows: JSON in comments straight under a
 * command (`# {"scenario":"edge-cases","pets":12}`, continued on lines
 * that start `#  `), joined as the mock writes JSON.
 */
export function expectedOutputs(code: string): string[] {
  const outputs: string[] = [];
  let current: string | undefined;
  for (const line of code.split('\n')) {
    if (/^# [[{]/.test(line)) {
      if (current !== undefined) outputs.push(current);
      current = line.slice(2).trim();
    } else if (current !== undefined && /^# {2}\S/.test(line)) {
      current += line.slice(2).trim();
    } else if (current !== undefined) {
      outputs.push(current);
      current = undefined;
    }
  }
  if (current !== undefined) outputs.push(current);
  return outputs;
}

/** The addresses the docs use for the mock and for a deployment, which a run against a test's mock rewrites. */
export const documentedAddresses = [
  'http://127.0.0.1:4010',
  'http://localhost:4010',
  'https://staging.petstore.example',
  'https://staging.example',
];

/** A shell block as it runs against the mock at `origin`: every documented address of the mock or a deployment is it. */
export function againstMock(code: string, origin: string): string {
  let text = code;
  for (const address of documentedAddresses) text = text.split(address).join(origin);
  return text;
}

/** The user's own npm scripts a block's marker names (`your-script=e2e`). */
export const userScriptsOf = (snippet: Snippet): string[] =>
  snippet.args.filter((arg) => arg.startsWith('your-script=')).map((arg) => arg.slice('your-script='.length));
