// Validation of rendered objects against the Kubernetes API schemas (kubernetes-models) and the
// prometheus-operator CRD schemas (@kubernetes-models/prometheus-operator).
const modules = {
  "v1/Secret": "kubernetes-models/v1/Secret",
  "v1/Service": "kubernetes-models/v1/Service",
  "v1/PersistentVolumeClaim": "kubernetes-models/v1/PersistentVolumeClaim",
  "apps/v1/Deployment": "kubernetes-models/apps/v1/Deployment",
  "networking.k8s.io/v1/Ingress": "kubernetes-models/networking.k8s.io/v1/Ingress",
  "monitoring.coreos.com/v1/ServiceMonitor": "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor",
};

/** Throws when `object` is not a valid object of its apiVersion and kind. */
export async function validate(object) {
  const type = `${object.apiVersion}/${object.kind}`;
  const path = modules[type];
  if (!path) throw new Error(`no schema for ${type} (the chart renders a kind this test does not know)`);
  const module = await import(path);
  const Model = module[object.kind];
  try {
    new Model(object).validate();
  } catch (error) {
    throw new Error(`${type} ${object.metadata?.name}: ${error.message}`);
  }
}
