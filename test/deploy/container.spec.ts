/**
 * The container build and the local compose stack: Dockerfile (parsed into instructions and
 * stages), .dockerignore and docker-compose.yml. No Docker engine is needed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseDocument } from 'yaml';
import { upstreamBaseUrls } from '../../src/common/upstream/upstream-registry';
import { AppConfig } from '../../src/config/app-config';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

type Obj = Record<string, any>;

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}
interface Stage {
  image: string;
  name?: string;
  instructions: Instruction[];
}

/** Splits a Dockerfile into instructions: joins `\` continuations, drops comments and blank lines. */
function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let buffer = '';
  let start = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && buffer === '')) return;
    if (buffer === '') start = index + 1;
    if (line.endsWith('\\')) {
      buffer += line.slice(0, -1).trimEnd() + ' ';
      return;
    }
    buffer += line;
    const match = /^(\S+)\s*(.*)$/s.exec(buffer.trim());
    if (match) instructions.push({ keyword: match[1].toUpperCase(), args: match[2].trim(), line: start });
    buffer = '';
  });
  return instructions;
}

function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const parts = ins.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      stages.push({ image: parts[0], name: /^as$/i.test(parts[1] ?? '') ? parts[2] : undefined, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(ins);
    }
  }
  return stages;
}

/** `CMD ["a", "b"]` → ['a', 'b']; shell form → undefined. */
function execForm(args: string): string[] | undefined {
  try {
    const parsed = JSON.parse(args);
    return Array.isArray(parsed) && parsed.every((p) => typeof p === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A minimal .dockerignore matcher (`*`, `**`, `?`, leading `/`, `!` exceptions), enough for these files. */
function isIgnored(patterns: string[], file: string): boolean {
  let ignored = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const pattern = (negate ? raw.slice(1) : raw).replace(/^\/+/, '').replace(/\/+$/, '');
    const regex = new RegExp(
      '^' +
        pattern
          .split('**')
          .map((part) =>
            part
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
          )
          .join('.*') +
        '(/.*)?$',
    );
    if (regex.test(file)) ignored = !negate;
  }
  return ignored;
}

const dockerfileText = read('Dockerfile');
const instructions = parseDockerfile(dockerfileText);
const stages = stagesOf(instructions);
const finalStage = stages[stages.length - 1];
const finalOf = (keyword: string): Instruction[] => finalStage.instructions.filter((i) => i.keyword === keyword);
const dockerignore = read('.dockerignore')
  .split(/\r?\n/)
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

describe('Dockerfile', () => {
  it('is multi-stage', () => {
    expect(instructions.filter((i) => i.keyword === 'FROM').length).toBeGreaterThanOrEqual(2);
    expect(stages.length).toBeGreaterThanOrEqual(2);
  });

  it('builds every stage on a pinned Node LTS (even major) slim image', () => {
    for (const stage of stages) {
      const match = /^node:(\d+)(\.\d+)*-[a-z]+-slim(@sha256:[0-9a-f]{64})?$/.exec(stage.image);
      expect({ image: stage.image, ok: !!match }).toEqual({ image: stage.image, ok: true });
      const major = Number(match![1]);
      expect(major % 2).toBe(0);
      expect(major).toBeGreaterThanOrEqual(22);
    }
  });

  it('compiles in a build stage with npm ci and npm run build', () => {
    const build = stages
      .slice(0, -1)
      .flatMap((s) => s.instructions)
      .filter((i) => i.keyword === 'RUN');
    expect(build.some((i) => /\bnpm ci\b/.test(i.args))).toBe(true);
    expect(build.some((i) => /\bnpm run build\b/.test(i.args))).toBe(true);
  });

  it('installs production dependencies only in the final stage, without lifecycle scripts', () => {
    const installs = finalOf('RUN').filter((i) => /\bnpm (ci|install|i)\b/.test(i.args));
    expect(installs.length).toBeGreaterThan(0);
    for (const i of installs) {
      expect(i.args).toMatch(/\bnpm ci\b/);
      expect(i.args).toMatch(/--omit=dev\b/);
      expect(i.args).toMatch(/--ignore-scripts\b/);
    }
    expect(finalOf('RUN').some((i) => /npm run build|nest build/.test(i.args))).toBe(false);
  });

  it('has no `# syntax=` parser directive, so building fetches no frontend image (offline builds work)', () => {
    expect(dockerfileText.split(/\r?\n/).filter((line) => /^\s*#\s*syntax\s*=/i.test(line))).toEqual([]);
  });

  it('runs no install scripts in any stage', () => {
    const installs = instructions.filter((i) => i.keyword === 'RUN' && /\bnpm (ci|install|i)\b/.test(i.args));
    expect(installs.length).toBeGreaterThanOrEqual(2);
    for (const install of installs)
      expect({ line: install.line, ignoresScripts: /--ignore-scripts\b/.test(install.args) }).toEqual({ line: install.line, ignoresScripts: true });
  });

  it('needs no install script: the lockfile has none but those the build and the service can do without', () => {
    // A new dependency with an install script fails here: check whether the build or the service needs it.
    const notNeeded: Record<string, string> = {
      'node_modules/@parcel/watcher': 'file watcher of jest/spectral; its script only builds from source when no prebuilt binary fits',
      'node_modules/@scarf/scarf': "swagger-ui-dist's install telemetry",
      'node_modules/msgpackr/node_modules/msgpackr-extract': "BullMQ's msgpackr speed-up; msgpackr falls back to its JavaScript decoder without it",
    };
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, meta]) => meta.hasInstallScript)
      .map(([name]) => name);
    expect(withScripts.filter((name) => !(name in notNeeded))).toEqual([]);
  });

  it('leaves no npm cache or npm logs in the runtime image: cleaned in the layer that installs', () => {
    const installs = finalOf('RUN').filter((i) => /\bnpm ci\b/.test(i.args));
    expect(installs.length).toBe(1);
    const steps = installs[0].args.split(/\s*&&\s*/);
    const install = steps.findIndex((step) => /\bnpm ci\b/.test(step));
    const clean = steps.findIndex((step) => /^npm cache clean --force$/.test(step));
    // npm keeps both its cache (_cacache) and its logs (_logs) under the home directory's .npm.
    const removeNpmDir = steps.findIndex((step) => /^rm -rf\b/.test(step) && /(\/root|~)\/\.npm\b/.test(step));
    expect({ install, clean, removeNpmDir }).toEqual({ install: 0, clean: 1, removeNpmDir: 2 });
  });

  it('leaves no .tsbuildinfo in the runtime image: dropped from dist/ right after the build', () => {
    const build = stages
      .slice(0, -1)
      .flatMap((s) => s.instructions)
      .find((i) => i.keyword === 'RUN' && /\bnpm run build\b/.test(i.args));
    const steps = build!.args.split(/\s*&&\s*/);
    expect(steps[0]).toBe('npm run build');
    expect(steps.slice(1)).toContain("find dist -name '*.tsbuildinfo' -delete");
    const afterBuild = stages[stages.length - 2].instructions.slice(stages[stages.length - 2].instructions.indexOf(build!) + 1);
    expect(afterBuild.filter((i) => i.keyword === 'RUN' || i.keyword === 'COPY')).toEqual([]);
    expect(isIgnored(dockerignore, 'dist/.tsbuildinfo')).toBe(true);
    expect(isIgnored(dockerignore, 'tsconfig.tsbuildinfo')).toBe(true);
  });

  it('copies the compiled dist/ from the build stage, not the sources', () => {
    const copies = finalOf('COPY');
    const buildNames = stages.slice(0, -1).map((s, index) => s.name ?? String(index));
    expect(copies.some((c) => buildNames.some((n) => c.args.includes(`--from=${n}`)) && /\bdist\b/.test(c.args))).toBe(true);
    expect(copies.some((c) => /(^|\s)(\.\/)?src\b/.test(c.args))).toBe(false);
  });

  it('copies only files that exist and are not excluded by .dockerignore', () => {
    const localCopies = instructions.filter((i) => (i.keyword === 'COPY' || i.keyword === 'ADD') && !/--from=/.test(i.args));
    expect(localCopies.length).toBeGreaterThan(0);
    for (const copy of localCopies) {
      const parts = (execForm(copy.args) ?? copy.args.split(/\s+/)).filter((p) => !p.startsWith('--'));
      for (const source of parts.slice(0, -1)) {
        const file = source.replace(/^\.\//, '');
        expect({ file, exists: fs.existsSync(path.join(ROOT, file)) }).toEqual({ file, exists: true });
        expect({ file, ignored: isIgnored(dockerignore, file) }).toEqual({ file, ignored: false });
      }
    }
  });

  it('runs as a non-root user in production mode', () => {
    const users = finalOf('USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users[users.length - 1].args.split(':')[0];
    expect(['root', '0']).not.toContain(user);
    expect(finalOf('ENV').some((i) => /(^|\s)NODE_ENV[= ]production(\s|$)/.test(i.args))).toBe(true);
  });

  it('exposes 3000, health-checks /health with node and stops with SIGTERM', () => {
    expect(finalOf('EXPOSE').map((i) => i.args)).toContain('3000');
    const [healthcheck] = finalOf('HEALTHCHECK');
    expect(healthcheck).toBeDefined();
    expect(healthcheck.args).toMatch(/\bCMD\b/);
    expect(healthcheck.args).toMatch(/\/health\b(?!\/)/);
    expect(healthcheck.args).toMatch(/\bnode\b/);
    expect(healthcheck.args).not.toMatch(/\b(curl|wget)\b/);
    expect(finalOf('STOPSIGNAL').map((i) => i.args)).toEqual(['SIGTERM']);
  });

  it('starts with the exec-form CMD node dist/main.js', () => {
    const cmds = finalOf('CMD');
    expect(execForm(cmds[cmds.length - 1].args)).toEqual(['node', 'dist/main.js']);
    // The node image's entrypoint execs the command; nothing may replace it with a shell wrapper.
    expect(finalOf('ENTRYPOINT')).toEqual([]);
  });

  it('parses continuations and comments (parser self-check)', () => {
    const parsed = parseDockerfile('# c\nFROM a AS b\nRUN x \\\n  # inner comment\n  && y\n\nCMD ["z"]\n');
    expect(parsed.map((i) => [i.keyword, i.args])).toEqual([
      ['FROM', 'a AS b'],
      ['RUN', 'x && y'],
      ['CMD', '["z"]'],
    ]);
  });
});

describe('.dockerignore', () => {
  it('keeps host dependencies, build output and VCS data out of the build context', () => {
    for (const entry of ['node_modules', 'dist', 'coverage', '.git', 'test/artifacts', 'bench/results.json', '.env']) {
      expect({ entry, ignored: isIgnored(dockerignore, entry) }).toEqual({ entry, ignored: true });
    }
    expect(isIgnored(dockerignore, 'src/main.ts')).toBe(false);
    expect(isIgnored(dockerignore, 'package-lock.json')).toBe(false);
  });
});

describe('docker-compose.yml', () => {
  const doc = parseDocument(read('docker-compose.yml'), { uniqueKeys: true, prettyErrors: true });
  const compose = doc.toJS() as Obj;
  const services: Obj = compose.services ?? {};
  const app: Obj = services['flood-zone'];
  const redis: Obj = services.redis;

  const envOf = (service: Obj): Record<string, string> => {
    const env = service.environment ?? {};
    if (!Array.isArray(env)) return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
    return Object.fromEntries(env.map((e: string) => [e.split('=')[0], e.split('=').slice(1).join('=')]));
  };
  const healthcheckText = (service: Obj): string => {
    const test = service.healthcheck?.test;
    return Array.isArray(test) ? test.join(' ') : String(test ?? '');
  };
  const seconds = (duration: string): number => {
    const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
    let total = 0;
    for (const [, n, u] of String(duration).matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) total += Number(n) * units[u];
    return total;
  };

  it('is valid YAML with the service and redis', () => {
    expect(doc.errors).toEqual([]);
    expect(app).toBeDefined();
    expect(redis).toBeDefined();
  });

  it('builds the service from the Dockerfile and publishes port 3000', () => {
    const build = typeof app.build === 'string' ? { context: app.build } : app.build;
    expect(path.resolve(ROOT, build.context)).toBe(ROOT);
    expect(build.dockerfile ?? 'Dockerfile').toBe('Dockerfile');
    expect(app.ports.map(String)).toEqual(expect.arrayContaining([expect.stringMatching(/(^|:)3000:3000$/)]));
  });

  it('wires REDIS_URL to the redis service', () => {
    const url = new URL(envOf(app).REDIS_URL);
    expect(url.protocol).toBe('redis:');
    expect(url.hostname).toBe('redis');
    expect(Number(url.port || 6379)).toBe(6379);
  });

  it('health-checks both services, the service on /health with node', () => {
    expect(healthcheckText(app)).toMatch(/\/health\b(?!\/)/);
    expect(healthcheckText(app)).toMatch(/\bnode\b/);
    expect(healthcheckText(app)).not.toMatch(/\b(curl|wget)\b/);
    expect(healthcheckText(redis)).toMatch(/redis-cli.*ping/);
  });

  it('starts the service once redis is healthy', () => {
    expect(app.depends_on.redis.condition).toBe('service_healthy');
  });

  it('runs the service read-only with a restart policy and a stop timeout longer than the drain', () => {
    expect(app.read_only).toBe(true);
    expect(app.restart).toMatch(/^(always|unless-stopped|on-failure)/);
    const graceMs = Number(envOf(app).SHUTDOWN_GRACE_MS ?? 10000);
    expect(seconds(app.stop_grace_period ?? '10s') * 1000).toBeGreaterThan(graceMs);
  });

  it('leaves every upstream at its real service: sets no base-URL variable but those of the registry, each to its default', () => {
    const defaults: Record<string, string> = upstreamBaseUrls(({ baseUrlVariable }) => new AppConfig()[baseUrlVariable]);
    const baseUrls = Object.values(services).flatMap((service: Obj) =>
      Object.entries(envOf(service)).filter(([name]) => name.endsWith('_BASE_URL') && name !== 'PUBLIC_BASE_URL'),
    );
    for (const [name, value] of baseUrls) expect({ name, value }).toEqual({ name, value: defaults[name] });
  });

  it('uses the official redis 7 image as a cache without persistence', () => {
    expect(redis.image).toMatch(/^redis:7(\.\d+)*-alpine$/);
    const command: string[] = Array.isArray(redis.command) ? redis.command.map(String) : [];
    expect(command[command.indexOf('--save') + 1]).toBe('');
    expect(command[command.indexOf('--appendonly') + 1]).toBe('no');
    expect(redis.volumes ?? []).toEqual([]);
  });
});
