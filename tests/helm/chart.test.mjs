// The Helm chart packaging/helm/loupe: `helm lint --strict`, then `helm template` in the
// embedded and scale-out modes, every rendered object validated against the Kubernetes (and
// prometheus-operator) schemas, and what the chart promises asserted on the objects: probes,
// drain, Secret, volume, S3 settings, ServiceMonitor, refusals of an incomplete configuration.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { chartDir, missingPrerequisite, render, renderFailure, runHelm, sourceDir } from "./support/helm.mjs";
import { validate } from "./support/schemas.mjs";

const skip = missingPrerequisite();
if (skip) console.log(`# helm chart tests skipped: ${skip}`);

const SIGNING = "3f0c".repeat(16);
const DATABASE = "postgresql://loupe:secret@db.internal:5432/loupe";
const scaleOut = {
  mode: "scale-out",
  replicaCount: 3,
  publicUrl: "https://loupe.example.com",
  "secret.signingSecret": SIGNING,
  "secret.databaseUrl": DATABASE,
  "s3.endpoint": "https://minio.example.com:9000",
  "s3.bucket": "acme-loupe",
  "s3.prefix": "loupe/",
  "s3.region": "eu-west-3",
  "s3.accessKeyId": "AKIAEXAMPLE",
  "s3.secretAccessKey": "s3-secret-value",
};

/** Every key of etc/loupe.properties as the LOUPE_* variable Loupe reads for it. */
// Keys set in the file, and keys shown commented out because their default is computed
// (`# plugins.deployments.port = 8081`: http.port + 1).
const knownVariables = new Set(
  readFileSync(join(sourceDir, "etc/loupe.properties"), "utf8")
    .split("\n")
    .map((line) => /^(?:#\s*)?([a-z0-9_.-]+)\s*=/.exec(line)?.[1])
    .filter(Boolean)
    .map((key) => `LOUPE_${key.toUpperCase().replace(/[.-]/g, "_")}`),
);

const byKind = (objects, kind) => objects.filter((object) => object.kind === kind);
const one = (objects, kind) => {
  const found = byKind(objects, kind);
  assert.equal(found.length, 1, `one ${kind}: ${objects.map((o) => o.kind).join(", ")}`);
  return found[0];
};
const container = (objects) => one(objects, "Deployment").spec.template.spec.containers[0];
const env = (objects) => Object.fromEntries(container(objects).env.map((entry) => [entry.name, entry]));
const secretRef = (entry) => entry?.valueFrom?.secretKeyRef;

async function validateAll(objects) {
  assert.ok(objects.length > 0, "helm rendered objects");
  for (const object of objects) await validate(object);
}

describe("helm chart packaging/helm/loupe", { skip: skip ?? false }, () => {
  test("helm lint --strict passes in both modes", () => {
    for (const args of [[], ["--set", "mode=scale-out", "--set", "s3.bucket=acme-loupe", "--set", `secret.databaseUrl=${DATABASE}`,
      "--set", `secret.signingSecret=${SIGNING}`]]) {
      const run = runHelm(["lint", "--strict", chartDir, ...args]);
      assert.equal(run.code, 0, `helm lint ${args.join(" ")}:\n${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
    }
  });

  test("embedded mode: one pod on a persistent volume, probes, drain, non-root", async () => {
    const objects = render();
    await validateAll(objects);
    assert.deepEqual(objects.map((o) => o.kind).sort(), ["Deployment", "PersistentVolumeClaim", "Service"],
      "no Secret without secrets, no ServiceMonitor unless asked");
    const deployment = one(objects, "Deployment");
    assert.equal(deployment.spec.replicas, 1);
    assert.equal(deployment.spec.strategy.type, "Recreate", "never two pods on the SQLite file");
    const pod = deployment.spec.template.spec;
    const loupe = container(objects);
    assert.equal(loupe.image, "localhost/loupe:0.1.0", "the chart's appVersion by default");
    assert.deepEqual(loupe.args, ["serve"]);
    assert.deepEqual(loupe.readinessProbe.httpGet, { path: "/readyz", port: "http" });
    assert.deepEqual(loupe.livenessProbe.httpGet, { path: "/healthz", port: "http" });
    assert.deepEqual(loupe.startupProbe.httpGet, { path: "/healthz", port: "http" });
    assert.equal(loupe.ports[0].containerPort, 8080);
    // 5 s preStop + the longer drain (jobs, 30 s) + 5 s margin.
    assert.equal(pod.terminationGracePeriodSeconds, 40);
    assert.deepEqual(loupe.lifecycle.preStop.exec.command, ["sleep", "5"]);
    assert.equal(env(objects).LOUPE_HTTP_DRAIN_TIMEOUT_MS.value, "10000");
    assert.equal(env(objects).LOUPE_JOBS_DRAIN_TIMEOUT_MS.value, "30000");
    assert.equal(pod.securityContext.runAsNonRoot, true);
    assert.equal(pod.securityContext.runAsUser, 999, "the image's loupe user");
    assert.equal(pod.securityContext.fsGroup, 999, "the volume is writable by it");
    assert.equal(loupe.securityContext.readOnlyRootFilesystem, true);
    assert.deepEqual(loupe.securityContext.capabilities.drop, ["ALL"]);
    assert.equal(pod.automountServiceAccountToken, false);

    const claim = one(objects, "PersistentVolumeClaim");
    assert.equal(claim.spec.resources.requests.storage, "10Gi");
    assert.equal(claim.metadata.annotations["helm.sh/resource-policy"], "keep", "uninstall keeps the data");
    const data = pod.volumes.find((volume) => volume.name === "data");
    assert.equal(data.persistentVolumeClaim.claimName, claim.metadata.name);
    assert.equal(loupe.volumeMounts.find((mount) => mount.name === "data").mountPath, "/var/lib/loupe");
    assert.ok(!("LOUPE_BLOBS_BACKEND" in env(objects)), "the local blob folder on the volume");
    assert.ok(!("LOUPE_DB_URL" in env(objects)), "SQLite on the volume");

    const service = one(objects, "Service");
    assert.deepEqual(service.spec.selector, deployment.spec.selector.matchLabels);
    assert.deepEqual(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels);

    // Deployed sites on a listener of their own, exposed next to the API, never on its origin.
    assert.deepEqual(loupe.ports.find((port) => port.name === "sites"), { name: "sites", containerPort: 8081, protocol: "TCP" });
    assert.equal(env(objects).LOUPE_PLUGINS_DEPLOYMENTS_PORT.value, "8081");
    assert.deepEqual(service.spec.ports.map((port) => [port.name, port.port, port.targetPort]),
      [["http", 8080, "http"], ["sites", 8081, "sites"]]);
    assert.ok(!("LOUPE_PLUGINS_DEPLOYMENTS_PUBLIC_URL" in env(objects)));
    assert.ok(!("LOUPE_PLUGINS_DEPLOYMENTS_DOMAIN" in env(objects)));
  });

  test("sites: their own port, public address or domain become the deployments plugin's settings", async () => {
    const objects = render({ "sites.port": 9090, "sites.publicUrl": "https://loupe-sites.example.net",
      "sites.domain": "example-sites.com", "service.sitesPort": 443 });
    await validateAll(objects);
    const loupe = container(objects);
    assert.equal(loupe.ports.find((port) => port.name === "sites").containerPort, 9090);
    assert.equal(env(objects).LOUPE_PLUGINS_DEPLOYMENTS_PORT.value, "9090");
    assert.equal(env(objects).LOUPE_PLUGINS_DEPLOYMENTS_PUBLIC_URL.value, "https://loupe-sites.example.net");
    assert.equal(env(objects).LOUPE_PLUGINS_DEPLOYMENTS_DOMAIN.value, "example-sites.com");
    const sites = one(objects, "Service").spec.ports.find((port) => port.name === "sites");
    assert.equal(sites.port, 443);
    assert.equal(sites.targetPort, "sites");
  });

  test("the drain settings become terminationGracePeriodSeconds", async () => {
    const objects = render({ "drain.httpTimeoutMs": 45500, "drain.jobsTimeoutMs": 20000, "drain.preStopSeconds": 0,
      "drain.marginSeconds": 2 });
    await validateAll(objects);
    // ceil(45.5 s) + 2 s, no preStop hook.
    assert.equal(one(objects, "Deployment").spec.template.spec.terminationGracePeriodSeconds, 48);
    assert.equal(container(objects).lifecycle, undefined);
    assert.equal(env(objects).LOUPE_HTTP_DRAIN_TIMEOUT_MS.value, "45500");
  });

  test("scale-out mode: replicas, PostgreSQL and the bucket, secrets from the Secret", async () => {
    const objects = render(scaleOut);
    await validateAll(objects);
    assert.ok(!byKind(objects, "PersistentVolumeClaim").length, "no volume: the state is in PostgreSQL and the bucket");
    const deployment = one(objects, "Deployment");
    assert.equal(deployment.spec.replicas, 3);
    assert.equal(deployment.spec.strategy.type, "RollingUpdate");
    assert.deepEqual(deployment.spec.template.spec.volumes.find((v) => v.name === "data"), { name: "data", emptyDir: {} });

    const secret = one(objects, "Secret");
    assert.deepEqual(secret.stringData, {
      "signing-secret": SIGNING,
      "database-url": DATABASE,
      "s3-access-key-id": "AKIAEXAMPLE",
      "s3-secret-access-key": "s3-secret-value",
    });
    const variables = env(objects);
    const fromSecret = (name, key) => {
      assert.deepEqual(secretRef(variables[name]), { name: secret.metadata.name, key, optional: false }, name);
      assert.equal(variables[name].value, undefined, `${name} is not written into the Deployment`);
    };
    fromSecret("LOUPE_BLOBS_SIGNING_SECRET", "signing-secret");
    fromSecret("LOUPE_DB_URL", "database-url");
    fromSecret("LOUPE_BLOBS_S3_ACCESS_KEY_ID", "s3-access-key-id");
    fromSecret("LOUPE_BLOBS_S3_SECRET_ACCESS_KEY", "s3-secret-access-key");
    const plain = Object.fromEntries(Object.entries(variables).filter(([, entry]) => "value" in entry).map(([name, entry]) => [name, entry.value]));
    assert.equal(plain.LOUPE_BLOBS_BACKEND, "s3");
    assert.equal(plain.LOUPE_BLOBS_S3_ENDPOINT, "https://minio.example.com:9000");
    assert.equal(plain.LOUPE_BLOBS_S3_BUCKET, "acme-loupe");
    assert.equal(plain.LOUPE_BLOBS_S3_PREFIX, "loupe/");
    assert.equal(plain.LOUPE_BLOBS_S3_REGION, "eu-west-3");
    assert.equal(plain.LOUPE_HTTP_PUBLIC_URL, "https://loupe.example.com");
    assert.equal(plain.LOUPE_HTTP_MAX_CONNECTIONS_PER_CLIENT, "0", "behind a Service");
    const serialized = JSON.stringify(deployment);
    for (const secretValue of [SIGNING, "s3-secret-value", "secret@db.internal"]) {
      assert.ok(!serialized.includes(secretValue), `the Deployment does not hold ${secretValue}`);
    }
    assert.match(deployment.spec.template.metadata.annotations["checksum/secret"], /^[0-9a-f]{64}$/,
      "a changed Secret rolls the pods");
  });

  test("every variable the chart sets is a configuration key Loupe reads", () => {
    for (const values of [{}, scaleOut, { ...scaleOut, "secret.metricsToken": "t" }]) {
      for (const name of Object.keys(env(render(values)))) {
        assert.ok(knownVariables.has(name), `${name} names no key of etc/loupe.properties`);
      }
    }
    const objects = render({ config: { "log.level": "debug", "plugins.builds.retention_days": 90 } });
    assert.equal(env(objects).LOUPE_LOG_LEVEL.value, "debug");
    assert.equal(env(objects).LOUPE_PLUGINS_BUILDS_RETENTION_DAYS.value, "90");
  });

  test("ServiceMonitor scrapes /metrics of every pod, with the metrics token when there is one", async () => {
    const objects = render({ ...scaleOut, "metrics.serviceMonitor.enabled": true, "secret.metricsToken": "scrape-token",
      "metrics.serviceMonitor.labels": { release: "prometheus" } });
    await validateAll(objects);
    const monitor = one(objects, "ServiceMonitor");
    const service = one(objects, "Service");
    assert.deepEqual(monitor.spec.selector.matchLabels, service.spec.selector, "selects the Service's endpoints");
    assert.equal(monitor.metadata.labels.release, "prometheus");
    assert.deepEqual(monitor.spec.namespaceSelector.matchNames, ["tools"]);
    const [endpoint] = monitor.spec.endpoints;
    assert.equal(endpoint.port, service.spec.ports[0].name);
    assert.equal(endpoint.path, "/metrics");
    assert.deepEqual(endpoint.authorization, {
      type: "Bearer",
      credentials: { name: one(objects, "Secret").metadata.name, key: "metrics-token" },
    });
    assert.equal(one(objects, "Secret").stringData["metrics-token"], "scrape-token");
    assert.equal(secretRef(env(objects).LOUPE_METRICS_TOKEN).key, "metrics-token");

    assert.ok(!byKind(render({ "metrics.serviceMonitor.enabled": true, "metrics.enabled": false }), "ServiceMonitor").length,
      "no ServiceMonitor when /metrics is off");
  });

  test("an existing Secret replaces the chart's", async () => {
    const objects = render({ mode: "scale-out", "s3.bucket": "acme-loupe", "secret.existingSecret": "loupe-credentials",
      "metrics.serviceMonitor.enabled": true });
    await validateAll(objects);
    assert.ok(!byKind(objects, "Secret").length, "the chart creates none");
    const variables = env(objects);
    assert.deepEqual(secretRef(variables.LOUPE_DB_URL), { name: "loupe-credentials", key: "database-url", optional: false });
    assert.deepEqual(secretRef(variables.LOUPE_BLOBS_SIGNING_SECRET),
      { name: "loupe-credentials", key: "signing-secret", optional: false });
    assert.equal(secretRef(variables.LOUPE_BLOBS_S3_ACCESS_KEY_ID).optional, true, "may come from a role instead");
    assert.equal(one(objects, "ServiceMonitor").spec.endpoints[0].authorization.credentials.name, "loupe-credentials");
  });

  test("ingress and an existing claim", async () => {
    const objects = render({ "ingress.enabled": true, "ingress.className": "nginx",
      "ingress.hosts": [{ host: "loupe.example.com" }], "ingress.tls": [{ secretName: "tls", hosts: ["loupe.example.com"] }],
      "persistence.existingClaim": "loupe-data-old" });
    await validateAll(objects);
    const ingress = one(objects, "Ingress");
    assert.equal(ingress.spec.rules[0].host, "loupe.example.com");
    assert.equal(ingress.spec.rules[0].http.paths[0].backend.service.name, one(objects, "Service").metadata.name);
    assert.ok(!byKind(objects, "PersistentVolumeClaim").length);
    const data = one(objects, "Deployment").spec.template.spec.volumes.find((volume) => volume.name === "data");
    assert.equal(data.persistentVolumeClaim.claimName, "loupe-data-old");
  });

  test("an incomplete or wrong configuration is refused with a message", () => {
    const { "s3.bucket": _bucket, ...noBucket } = scaleOut;
    assert.match(renderFailure(noBucket), /scale-out mode needs s3.bucket/);
    const { "secret.databaseUrl": _database, ...noDatabase } = scaleOut;
    assert.match(renderFailure(noDatabase), /scale-out mode needs secret.databaseUrl/);
    assert.match(renderFailure({ ...scaleOut, "secret.databaseUrl": "sqlite:/var/lib/loupe/loupe.db" }),
      /needs a PostgreSQL secret.databaseUrl/);
    const { "secret.signingSecret": _signing, ...noSigning } = scaleOut;
    assert.match(renderFailure(noSigning), /scale-out mode needs secret.signingSecret/);
    assert.match(renderFailure({ mode: "cluster" }), /mode/);
    assert.match(renderFailure({ "s3.downloads": "direct" }), /downloads/);
    assert.match(renderFailure({ "drain.jobsTimeoutMs": -1 }), /jobsTimeoutMs/);
  });
});
