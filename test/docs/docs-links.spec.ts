/**
 * The README is the front door and docs/ holds the rest: every link between them leads somewhere, every npm command
 * the README gives exists, the README stays short, and the folder tree in docs/architecture.md is the one in src/.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ERROR_CODES } from '../../src/common/api-error';

const ROOT = join(__dirname, '..', '..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'deploy/README.md',
  'bench/README.md',
  'test/emulators/README.md',
];

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The text outside fenced code blocks (links inside code are code, not links). */
function prose(text: string): string {
  return text
    .split(/^```.*$/m)
    .filter((_, i) => i % 2 === 0)
    .join('\n');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsIn(file: string): Set<string> {
  return new Set(
    prose(read(file))
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => anchorOf(line.replace(/^#+ /, ''))),
  );
}

describe('docs: the front door and the rooms behind it', () => {
  it.each(DOCS)('%s: every relative link names a file of this repository, and every #anchor a heading there', (file) => {
    const links = [...prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^(https?:|mailto:)/.test(target));
    for (const target of links) {
      const [pathPart, anchor] = target.split('#');
      const resolved = pathPart === '' ? file : relative(ROOT, join(ROOT, dirname(file), pathPart));
      expect({ file, target, exists: existsSync(join(ROOT, resolved)) }).toEqual({ file, target, exists: true });
      if (anchor !== undefined && resolved.endsWith('.md')) {
        expect({ file, target, anchorFound: anchorsIn(resolved).has(anchor) }).toEqual({ file, target, anchorFound: true });
      }
    }
  });

  it('README.md is a front door of at most about 200 lines from which every room of docs/ is reached by links', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(200);
    const reached = new Set<string>();
    const follow = (file: string) => {
      if (reached.has(file) || !file.endsWith('.md') || !existsSync(join(ROOT, file))) return;
      reached.add(file);
      for (const [, target] of prose(read(file)).matchAll(/\]\(([^)#\s]+)(?:#[^)\s]*)?\)/g)) {
        if (!/^(https?:|mailto:)/.test(target)) follow(relative(ROOT, join(ROOT, dirname(file), target)));
      }
    };
    follow('README.md');
    for (const room of DOCS) expect({ room, reached: reached.has(room) }).toEqual({ room, reached: true });
  });

  it('every npm command the README gives is a script of package.json', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const named = [...read('README.md').matchAll(/npm (?:run ([\w:-]+)|(start|test)\b)/g)].map((m) => m[1] ?? m[2]);
    expect(named.length).toBeGreaterThanOrEqual(4);
    for (const script of named) expect({ script, known: scripts.includes(script) }).toEqual({ script, known: true });
  });

  it('every BENCH_ONLY the documents give names a scenario of bench/run.ts', () => {
    const scenarios = new Set([...read('bench/run.ts').matchAll(/\{ name: '(\w+)', run:/g)].map(([, name]) => name));
    expect(scenarios.size).toBeGreaterThan(10);
    const named = DOCS.flatMap((file) =>
      [...read(file).matchAll(/BENCH_ONLY=([\w,]+)/g)].flatMap(([, names]) => names.split(',').map((name) => ({ file, name }))),
    );
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter(({ name }) => !scenarios.has(name))).toEqual([]);
  });

  it("docs/architecture.md's folder tree is src/'s: every folder of src/ is listed, and every folder listed exists", () => {
    const text = read('docs/architecture.md');
    const tree = text.slice(text.indexOf('```\nsrc/') + 4, text.indexOf('```', text.indexOf('```\nsrc/') + 4));
    const listed: string[] = [];
    const stack: string[] = [];
    for (const line of tree.split('\n').slice(1)) {
      const m = /^( +)([\w-]+)\/ /.exec(line);
      if (!m) continue;
      const depth = m[1].length / 2 - 1;
      stack.length = depth;
      stack.push(m[2]);
      listed.push(stack.join('/'));
    }
    const topLevel = readdirSync(join(ROOT, 'src')).filter((f) => statSync(join(ROOT, 'src', f)).isDirectory());
    expect(listed.filter((f) => !f.includes('/')).sort()).toEqual(topLevel.sort());
    for (const folder of listed) expect({ folder, exists: existsSync(join(ROOT, 'src', folder)) }).toEqual({ folder, exists: true });
  });

  it('docs/answer.md names every error code the envelope can carry', () => {
    const answer = read('docs/answer.md');
    for (const code of ERROR_CODES) expect({ code, named: answer.includes(`${code}`) }).toEqual({ code, named: true });
  });
});
