import GithubSlugger, { slug } from 'github-slugger';
import { posix } from 'node:path';

/** What the link checker may look at: files by repository-relative POSIX path. */
export interface MarkdownFiles {
  /** Whether a file or folder exists at the path. */
  exists(path: string): boolean;
  /** The text of a file, or undefined when there is none. */
  read(path: string): string | undefined;
}

/** A link that points nowhere, with where it was written. */
export interface LinkProblem {
  file: string;
  line: number;
  target: string;
  problem: string;
}

/** The text with fenced code blocks and HTML comments blanked out, line breaks kept. */
function proseOnly(text: string): string {
  const lines = text.split('\n');
  let fence: string | undefined;
  const kept = lines.map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) {
      fence = marker;
      return '';
    }
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    return line;
  });
  return kept.join('\n').replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ' '));
}

/** Inline code spans replaced by as many `x`, so that nothing in them reads as a link but offsets stay. */
function withoutCodeSpans(text: string): string {
  return text.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (span) => 'x'.repeat(span.length));
}

/** A heading's text as GitHub renders it: code, links and HTML reduced to their text. */
function headingText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .trim();
}

/** GitHub's anchor for a heading (github-slugger, on the heading's rendered text). */
export function githubSlug(heading: string): string {
  return slug(headingText(heading));
}

/** Every anchor a Markdown file offers: one per heading (ATX or setext), `-1`, `-2`… for repeats. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const slugger = new GithubSlugger();
  const add = (heading: string): void => void anchors.add(slugger.slug(headingText(heading)));
  const lines = proseOnly(markdown).split('\n');
  lines.forEach((line, index) => {
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) {
      add(atx[1] ?? '');
      return;
    }
    const previous = lines[index - 1];
    if (
      /^ {0,3}(?:=+|-+)[ \t]*$/.test(line) &&
      previous !== undefined &&
      previous.trim() !== '' &&
      !/^ {0,3}(?:[-*+>|#]|\d+[.)])/.test(previous)
    ) {
      add(previous.trim());
    }
  });
  for (const match of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] as string);
  return anchors;
}

/** A link's target with its angle brackets, if any, removed. */
function unwrap(target: string): string {
  return target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
}

/**
 * Every link target written in the Markdown, with its line: inline links,
 * images, reference definitions, and `src`/`href` of HTML images and links.
 */
export function linkTargets(markdown: string): Array<{ target: string; line: number }> {
  const text = withoutCodeSpans(proseOnly(markdown));
  const lineAt = (offset: number): number => text.slice(0, offset).split('\n').length;
  const found: Array<{ target: string; line: number }> = [];
  const inline =
    /!?\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*(<[^>\n]*>|(?:[^()\s]|\([^()\s]*\))+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
  for (const match of text.matchAll(inline)) {
    found.push({ target: unwrap(match[1] as string), line: lineAt(match.index ?? 0) });
  }
  for (const match of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)/gm)) {
    found.push({ target: unwrap(match[1] as string), line: lineAt(match.index ?? 0) });
  }
  // HTML in the Markdown: <img src="…">, <a href="…">.
  for (const match of text.matchAll(/<(?:img|a|source)\b[^>]*?\s(?:src|href|srcset)="([^"]+)"/gi)) {
    found.push({ target: match[1] as string, line: lineAt(match.index ?? 0) });
  }
  return found.sort((a, b) => a.line - b.line);
}

/**
 * Checks every relative link of one Markdown file: the file or folder it
 * names must exist (relative to the file, or to the repository root for a
 * path starting with `/`), and an `#anchor` into a Markdown file must name
 * one of its headings. Links with a scheme (`https:`, `mailto:`) are not
 * followed. Returns every broken link; none when all hold.
 */
export function checkMarkdownLinks(file: string, markdown: string, files: MarkdownFiles): LinkProblem[] {
  const problems: LinkProblem[] = [];
  for (const { target, line } of linkTargets(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
    const hash = target.indexOf('#');
    const pathPart = hash === -1 ? target : target.slice(0, hash);
    const anchor = hash === -1 ? undefined : target.slice(hash + 1);
    let path: string;
    try {
      const decoded = decodeURIComponent(pathPart.split('?')[0] ?? '');
      path =
        decoded === ''
          ? file
          : decoded.startsWith('/')
            ? posix.normalize(decoded.slice(1))
            : posix.join(posix.dirname(file), decoded);
    } catch {
      problems.push({ file, line, target, problem: 'is not a valid link (bad percent-encoding)' });
      continue;
    }
    if (path === '..' || path.startsWith('../')) {
      problems.push({ file, line, target, problem: 'points outside the repository' });
      continue;
    }
    if (path !== file && !files.exists(path)) {
      problems.push({ file, line, target, problem: `points at ${path}, which does not exist` });
      continue;
    }
    if (anchor === undefined || anchor === '' || !path.endsWith('.md')) continue;
    const text = path === file ? markdown : files.read(path);
    if (text === undefined || !headingAnchors(text).has(decodeURIComponent(anchor))) {
      problems.push({ file, line, target, problem: `has no heading #${anchor} in ${path}` });
    }
  }
  return problems;
}

/** Lines longer than `max` characters, except table rows and lines that are only a URL. */
export function longLines(
  markdown: string,
  max: number,
  options: { ignoreBetween?: [string, string] } = {},
): Array<{ line: number; length: number }> {
  const long: Array<{ line: number; length: number }> = [];
  let ignoring = false;
  markdown.split('\n').forEach((text, index) => {
    const [start, end] = options.ignoreBetween ?? [];
    if (start !== undefined && text.trim() === start) ignoring = true;
    if (end !== undefined && text.trim() === end) ignoring = false;
    const length = [...text].length;
    if (ignoring || length <= max) return;
    const trimmed = text.trim();
    if (trimmed.startsWith('|') || /^<?[a-z][a-z0-9+.-]*:\/\/\S+>?$/i.test(trimmed)) return;
    long.push({ line: index + 1, length });
  });
  return long;
}
