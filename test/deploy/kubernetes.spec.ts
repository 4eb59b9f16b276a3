/**
 * The Kubernetes manifests under deploy/kubernetes: every object is validated against the
 * Kubernetes OpenAPI schemas (kubernetes-models), then the operational properties the service
 * depends on are checked (probes, drain timing, security context, selectors, Redis wiring).
 *
 * Manifests are parsed as YAML 1.1, like kubectl does, so an unquoted `no`/`yes`/`on` becomes a
 * boolean here too and fails schema validation where a string is required.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { upstreamBaseUrls } from '../../src/common/upstream/upstream-registry';
import { AppConfig } from '../../src/config/app-config';

const DIR = path.resolve(__dirname, '../../deploy/kubernetes');
const KUSTOMIZATION = 'kustomization.yaml';
const APP_NAME = 'flood-zone-lookup';

type Obj = Record<string, any>;
type ModelClass = new (data: never) => { validate(): void };

/** One model class per apiVersion/kind used in the manifests; an unknown kind fails the suite. */
const MODELS: Record<string, ModelClass> = {
  'v1/Namespace': Namespace as unknown as ModelClass,
  'v1/ConfigMap': ConfigMap as unknown as ModelClass,
  'v1/Service': Service as unknown as ModelClass,
  'apps/v1/Deployment': Deployment as unknown as ModelClass,
  'apps/v1/StatefulSet': StatefulSet as unknown as ModelClass,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler as unknown as ModelClass,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget as unknown as ModelClass,
};

function parseYaml(text: string, source: string): Obj[] {
  const docs = Array.from(parseAllDocuments(text, { version: '1.1', uniqueKeys: true, prettyErrors: true }));
  const objects: Obj[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors.map((e) => e.message).join('; ')}`);
    if (doc.warnings.length > 0) throw new Error(`${source}: ${doc.warnings.map((e) => e.message).join('; ')}`);
    const value = doc.toJS();
    if (value !== null && value !== undefined) objects.push(value as Obj);
  }
  return objects;
}

/** Constructs the kubernetes-models class for the object and validates it; throws on schema violations. */
function validateObject(obj: Obj): void {
  const key = `${obj.apiVersion}/${obj.kind}`;
  const Model = MODELS[key];
  if (!Model) throw new Error(`no schema registered for ${key} (${obj.metadata?.name})`);
  new Model(obj as never).validate();
}

const manifestFiles = fs
  .readdirSync(DIR)
  .filter((f) => /\.ya?ml$/.test(f) && f !== KUSTOMIZATION)
  .sort();
const byFile = new Map<string, Obj[]>(manifestFiles.map((f) => [f, parseYaml(fs.readFileSync(path.join(DIR, f), 'utf8'), f)]));
const objects: Array<{ file: string; obj: Obj }> = [...byFile].flatMap(([file, objs]) => objs.map((obj) => ({ file, obj })));
const kustomization = parseYaml(fs.readFileSync(path.join(DIR, KUSTOMIZATION), 'utf8'), KUSTOMIZATION)[0];

function all(kind: string): Obj[] {
  return objects.filter((o) => o.obj.kind === kind).map((o) => o.obj);
}
function one(kind: string, name: string): Obj {
  const found = all(kind).filter((o) => o.metadata?.name === name);
  if (found.length !== 1) throw new Error(`expected exactly one ${kind} named ${name}, found ${found.length}`);
  return found[0];
}
function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}
/** A probe/Service port given by name or by number, resolved to the container's port number. */
function resolvePort(container: Obj, port: string | number): number | undefined {
  if (typeof port === 'number') return (container.ports ?? []).some((p: Obj) => p.containerPort === port) ? port : undefined;
  return (container.ports ?? []).find((p: Obj) => p.name === port)?.containerPort;
}
function cpuMillis(q: string | number): number {
  const s = String(q);
  return s.endsWith('m') ? Number(s.slice(0, -1)) : Number(s) * 1000;
}
function memoryBytes(q: string | number): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(q));
  if (!m) throw new Error(`unparsable memory quantity ${q}`);
  const unit: Record<string, number> = { '': 1, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Number(m[1]) * unit[m[2] ?? ''];
}
/** Seconds a preStop hook waits before the container gets SIGTERM (exec sleep or the native sleep action). */
function preStopSleepSeconds(container: Obj): number {
  const preStop = container.lifecycle?.preStop;
  if (preStop?.sleep) return Number(preStop.sleep.seconds);
  const cmd: string[] = preStop?.exec?.command ?? [];
  if (cmd.length === 2 && /(^|\/)sleep$/.test(cmd[0])) return Number(cmd[1]);
  throw new Error(`preStop is not a plain sleep: ${JSON.stringify(preStop)}`);
}

const namespace = all('Namespace')[0];
const deployment = one('Deployment', APP_NAME);
const podSpec: Obj = deployment.spec.template.spec;
const podLabels: Record<string, string> = deployment.spec.template.metadata.labels;
const container: Obj = podSpec.containers.find((c: Obj) => c.name === APP_NAME) ?? podSpec.containers[0];
const configMapName: string = (container.envFrom ?? []).find((e: Obj) => e.configMapRef)?.configMapRef?.name;
const configMap = one('ConfigMap', configMapName);
const httpPort = resolvePort(container, 'http') ?? container.ports?.[0]?.containerPort;

/** The value the container sees: an explicit env entry overrides envFrom. */
function effectiveEnv(name: string): string | undefined {
  const explicit = (container.env ?? []).find((e: Obj) => e.name === name);
  if (explicit) return explicit.value;
  return configMap.data?.[name];
}

describe('deploy/kubernetes manifests', () => {
  it('has manifests, each parsing to at least one object', () => {
    expect(manifestFiles.length).toBeGreaterThan(0);
    const empty = [...byFile].filter(([, objs]) => objs.length === 0).map(([file]) => file);
    expect(empty).toEqual([]);
  });

  describe.each(objects.map((o) => [`${o.file}: ${o.obj.kind}/${o.obj.metadata?.name}`, o.obj] as const))('%s', (_label, obj) => {
    it('is valid against the Kubernetes schema', () => {
      expect(() => validateObject(obj)).not.toThrow();
    });

    it('carries the common labels and lives in the namespace', () => {
      expect(obj.metadata.labels?.['app.kubernetes.io/part-of']).toBe(APP_NAME);
      if (obj.kind !== 'Namespace') expect(obj.metadata.namespace).toBe(kustomization.namespace);
    });
  });

  it('has no two objects of the same kind and name', () => {
    const keys = objects.map((o) => `${o.obj.kind}/${o.obj.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  describe('schema validation really rejects broken manifests', () => {
    it('rejects a Deployment whose replicas is a string', () => {
      const broken = structuredClone(deployment);
      broken.spec.replicas = 'two';
      expect(() => validateObject(broken)).toThrow(/replicas/);
    });

    it('rejects an unquoted YAML 1.1 boolean where Kubernetes needs a string', () => {
      const [broken] = parseYaml(
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  selector: {matchLabels: {a: b}}\n' +
          '  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers:\n        - name: redis\n' +
          '          image: redis:7-alpine\n          args: [--appendonly, no]\n',
        'inline',
      );
      expect(() => validateObject(broken)).toThrow(/args/);
    });

    it('rejects an unknown kind instead of skipping it', () => {
      expect(() => validateObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } })).toThrow(/no schema/);
    });
  });

  describe('kustomization.yaml', () => {
    it('lists every manifest file, and only existing ones', () => {
      expect(kustomization.kind).toBe('Kustomization');
      expect([...kustomization.resources].sort()).toEqual(manifestFiles);
    });

    it('targets the namespace the manifests declare', () => {
      expect(namespace?.metadata.name).toBe(kustomization.namespace);
    });
  });

  describe('service Deployment', () => {
    it('runs at least 2 replicas and rolls out without losing capacity', () => {
      expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
      expect(deployment.spec.strategy.type).toBe('RollingUpdate');
      expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    });

    it('selects its own pod template', () => {
      expect(selects(deployment.spec.selector.matchLabels, podLabels)).toBe(true);
      expect(podLabels['app.kubernetes.io/name']).toBe(APP_NAME);
    });

    it('exposes port 3000 and the ConfigMap PORT agrees', () => {
      expect(httpPort).toBe(3000);
      expect(Number(effectiveEnv('PORT') ?? 3000)).toBe(httpPort);
    });

    it('probes liveness on /health and readiness on /health/ready, on the container port', () => {
      const { livenessProbe, readinessProbe, startupProbe } = container;
      expect(livenessProbe.httpGet.path).toBe('/health');
      expect(resolvePort(container, livenessProbe.httpGet.port)).toBe(httpPort);
      expect(readinessProbe.httpGet.path).toBe('/health/ready');
      expect(resolvePort(container, readinessProbe.httpGet.port)).toBe(httpPort);
      if (startupProbe) {
        expect(startupProbe.httpGet.path).toBe('/health');
        expect(resolvePort(container, startupProbe.httpGet.port)).toBe(httpPort);
      }
    });

    it('sets cpu and memory requests and limits, requests within limits', () => {
      const { requests, limits } = container.resources;
      for (const r of ['cpu', 'memory']) {
        expect(requests[r]).toBeDefined();
        expect(limits[r]).toBeDefined();
      }
      expect(cpuMillis(requests.cpu)).toBeLessThanOrEqual(cpuMillis(limits.cpu));
      expect(memoryBytes(requests.memory)).toBeLessThanOrEqual(memoryBytes(limits.memory));
    });

    it('runs as non-root with a read-only root filesystem and no privileges', () => {
      const pod = podSpec.securityContext ?? {};
      const sc = container.securityContext ?? {};
      expect(sc.runAsNonRoot ?? pod.runAsNonRoot).toBe(true);
      expect(sc.runAsUser ?? pod.runAsUser).toBe(1000);
      expect(sc.readOnlyRootFilesystem).toBe(true);
      expect(sc.allowPrivilegeEscalation).toBe(false);
      expect(sc.privileged ?? false).toBe(false);
      expect(sc.capabilities?.drop).toContain('ALL');
      expect(sc.capabilities?.add ?? []).toEqual([]);
      expect((sc.seccompProfile ?? pod.seccompProfile)?.type).toBe('RuntimeDefault');
    });

    it('lets a lookup in flight finish: SHUTDOWN_GRACE_MS above LOOKUP_DEADLINE_MS', () => {
      const graceMs = Number(effectiveEnv('SHUTDOWN_GRACE_MS') ?? 30000);
      const deadlineMs = Number(effectiveEnv('LOOKUP_DEADLINE_MS') ?? 25000);
      expect(graceMs).toBeGreaterThan(deadlineMs);
    });

    it('gives the pod longer than preStop sleep + SHUTDOWN_GRACE_MS to stop', () => {
      const graceMs = Number(effectiveEnv('SHUTDOWN_GRACE_MS') ?? 30000);
      expect(Number.isInteger(graceMs)).toBe(true);
      const sleepSeconds = preStopSleepSeconds(container);
      expect(sleepSeconds).toBeGreaterThan(0);
      expect(podSpec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(graceMs + sleepSeconds * 1000);
    });

    it('spreads replicas across nodes', () => {
      const spread: Obj[] = podSpec.topologySpreadConstraints ?? [];
      const antiAffinity: Obj[] = [
        ...(podSpec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((t: Obj) => t.podAffinityTerm),
        ...(podSpec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
      ];
      const rules = [...spread, ...antiAffinity].filter((r) => selects(r.labelSelector?.matchLabels, podLabels));
      expect(rules.map((r) => r.topologyKey)).toContain('kubernetes.io/hostname');
    });

    it('takes its configuration from the ConfigMap, with every documented variable set to a sane value', () => {
      const data: Record<string, string> = configMap.data;
      const integers = [
        'PORT',
        'UPSTREAM_TIMEOUT_MS',
        'UPSTREAM_RETRIES',
        'LOOKUP_DEADLINE_MS',
        'CACHE_TTL_SECONDS',
        'GEOCODE_CACHE_TTL_SECONDS',
        'CACHE_MAX_ENTRIES',
        'STALE_IF_ERROR_SECONDS',
        'UPSTREAM_MAX_CONCURRENCY',
        'SHUTDOWN_GRACE_MS',
        'RATE_LIMIT_PER_MINUTE',
        'STRUCTURE_SEARCH_M',
        'HELD_POLYGONS_MAX_MB',
      ];
      for (const name of integers) expect({ name, value: data[name] }).toEqual({ name, value: expect.stringMatching(/^\d+$/) });
      for (const name of ['HOST', 'GEOCODER_BENCHMARK', 'GEOCODER_VINTAGE', 'LOG_LEVEL', 'REDIS_URL']) {
        expect({ name, value: data[name] }).toEqual({ name, value: expect.stringMatching(/\S/) });
      }
      expect(['true', 'false']).toContain(data.TRUST_PROXY);
      // Anything set to an empty string would fail the service's start-up validation.
      for (const [name, value] of Object.entries(data)) expect({ name, value }).toEqual({ name, value: expect.stringMatching(/\S/) });
    });

    it('points every upstream of the registry at its real service, and names no other upstream', () => {
      const data: Record<string, string> = configMap.data;
      const baseUrls = Object.fromEntries(Object.entries(data).filter(([name]) => name.endsWith('_BASE_URL') && name !== 'PUBLIC_BASE_URL'));
      expect(baseUrls).toEqual(upstreamBaseUrls(({ baseUrlVariable }) => new AppConfig()[baseUrlVariable]));
    });
  });

  describe('Service', () => {
    const service = one('Service', APP_NAME);

    it('is a ClusterIP on port 80 selecting exactly the service pods', () => {
      expect(service.spec.type ?? 'ClusterIP').toBe('ClusterIP');
      expect(selects(service.spec.selector, podLabels)).toBe(true);
      const otherPods = all('Deployment')
        .filter((d) => d !== deployment)
        .map((d) => d.spec.template.metadata.labels);
      for (const labels of otherPods) expect(selects(service.spec.selector, labels)).toBe(false);
    });

    it('forwards port 80 to the container port', () => {
      const port = service.spec.ports.find((p: Obj) => p.port === 80);
      expect(port).toBeDefined();
      expect(resolvePort(container, port.targetPort ?? port.port)).toBe(httpPort);
    });
  });

  describe('HorizontalPodAutoscaler', () => {
    const hpa = all('HorizontalPodAutoscaler')[0];

    it('scales the Deployment between at least 2 and more replicas on CPU utilisation', () => {
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
      const cpu = hpa.spec.metrics.find((m: Obj) => m.type === 'Resource' && m.resource.name === 'cpu');
      expect(cpu.resource.target.type).toBe('Utilization');
      expect(cpu.resource.target.averageUtilization).toBeGreaterThan(0);
      expect(cpu.resource.target.averageUtilization).toBeLessThanOrEqual(100);
      // Utilisation is relative to the request, so there must be one.
      expect(container.resources.requests.cpu).toBeDefined();
    });
  });

  describe('PodDisruptionBudget', () => {
    const pdb = all('PodDisruptionBudget')[0];

    it('keeps at least one service pod and still allows node drains', () => {
      expect(selects(pdb.spec.selector.matchLabels, podLabels)).toBe(true);
      expect(pdb.spec.minAvailable).toBe(1);
      expect(pdb.spec.minAvailable).toBeLessThan(deployment.spec.replicas);
    });
  });

  describe('Redis', () => {
    const redisUrl = new URL(configMap.data.REDIS_URL);
    const hostname = redisUrl.hostname;
    const serviceName = hostname.split('.')[0];
    const redisService = one('Service', serviceName);
    const redisDeployment = all('Deployment').find((d) => selects(redisService.spec.selector, d.spec.template.metadata.labels));

    it('REDIS_URL points at the in-cluster Redis Service name and port', () => {
      expect(redisUrl.protocol).toBe('redis:');
      // Either the short name or a FQDN in the same namespace.
      expect([
        serviceName,
        `${serviceName}.${kustomization.namespace}`,
        `${serviceName}.${kustomization.namespace}.svc`,
        `${serviceName}.${kustomization.namespace}.svc.cluster.local`,
      ]).toContain(hostname);
      const port = Number(redisUrl.port || 6379);
      expect(redisService.spec.ports.map((p: Obj) => p.port)).toContain(port);
    });

    it('the Redis Service reaches a Redis container port', () => {
      expect(redisDeployment).toBeDefined();
      const redisContainer = redisDeployment!.spec.template.spec.containers[0];
      const port = redisService.spec.ports.find((p: Obj) => p.port === Number(redisUrl.port || 6379));
      expect(resolvePort(redisContainer, port.targetPort ?? port.port)).toBe(6379);
      expect(redisContainer.image).toMatch(/^redis:/);
    });

    it('is a cache without persistence, hardened like the service', () => {
      const spec = redisDeployment!.spec.template.spec;
      const c = spec.containers[0];
      const args: string[] = [...(c.command ?? []), ...(c.args ?? [])];
      expect(args[args.indexOf('--save') + 1]).toBe('');
      expect(args[args.indexOf('--appendonly') + 1]).toBe('no');
      expect(spec.volumes?.some((v: Obj) => v.persistentVolumeClaim)).toBeFalsy();
      expect(c.securityContext.runAsNonRoot ?? spec.securityContext.runAsNonRoot).toBe(true);
      expect(c.securityContext.readOnlyRootFilesystem).toBe(true);
      expect(c.securityContext.allowPrivilegeEscalation).toBe(false);
      expect(c.resources.limits.memory).toBeDefined();
    });
  });
});
