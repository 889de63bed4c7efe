// Package scenariotest writes a scenario document as a cluster dump, the
// way kubectl would print the same objects, so that tests can check that
// simulate answers a dump as it answers the scenario. Only tests import it.
package scenariotest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"
)

// kinds maps each scenario list, in the order a dump lists them, to the
// apiVersion and kind of its objects. Bound pods come before pending ones,
// so that both keep their relative order.
var kinds = []struct{ list, apiVersion, kind string }{
	{"namespaces", "v1", "Namespace"},
	{"nodes", "v1", "Node"},
	{"priorityClasses", "scheduling.k8s.io/v1", "PriorityClass"},
	{"pdbs", "policy/v1", "PodDisruptionBudget"},
	{"services", "v1", "Service"},
	{"replicaSets", "apps/v1", "ReplicaSet"},
	{"statefulSets", "apps/v1", "StatefulSet"},
	{"replicationControllers", "v1", "ReplicationController"},
	{"pods", "v1", "Pod"},
	{"pending", "v1", "Pod"},
}

// Options add what a real cluster's dump carries beside the scheduling
// fields.
type Options struct {
	// ClusterFields adds metadata.resourceVersion and managedFields to
	// every object, and conditions, addresses and nodeInfo to nodes.
	ClusterFields bool
	// Other adds objects of kinds the simulation does not read (a
	// ConfigMap, a Deployment and an Event) after the others.
	Other bool
}

// Objects returns the scenario's objects, each with apiVersion and kind.
// It refuses a scenario a dump cannot express: a pending pod with
// spec.nodeName (a dump's pod with a node is bound) or a bound pod without
// one.
func Objects(scenarioJSON []byte, opts Options) ([]map[string]any, error) {
	var s map[string][]map[string]any
	if err := json.Unmarshal(scenarioJSON, &s); err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, k := range kinds {
		for i, obj := range s[k.list] {
			if obj == nil {
				continue
			}
			if k.kind == "Pod" {
				spec, _ := obj["spec"].(map[string]any)
				bound := spec != nil && spec["nodeName"] != nil && spec["nodeName"] != ""
				if bound != (k.list == "pods") {
					return nil, fmt.Errorf("%s[%d]: a dump cannot express this pod (bound %v)", k.list, i, bound)
				}
			}
			o := map[string]any{"apiVersion": k.apiVersion, "kind": k.kind}
			for f, v := range obj {
				o[f] = v
			}
			if opts.ClusterFields {
				addClusterFields(o, i)
			}
			out = append(out, o)
		}
	}
	if opts.Other {
		out = append(out,
			map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "default"}, "data": map[string]any{"a": "b"}},
			map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d", "namespace": "default"}, "spec": map[string]any{"replicas": 2}},
			map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm2", "namespace": "default"}},
			map[string]any{"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": map[string]any{"name": "e", "namespace": "default"}, "reason": "Scheduled"},
		)
	}
	return out, nil
}

func addClusterFields(o map[string]any, i int) {
	meta, _ := o["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		o["metadata"] = meta
	}
	meta["resourceVersion"] = fmt.Sprint(1000 + i)
	meta["generation"] = 1
	meta["managedFields"] = []any{map[string]any{
		"apiVersion": o["apiVersion"], "fieldsType": "FieldsV1", "manager": "kube-controller-manager",
		"operation": "Update", "time": "2025-01-01T00:00:00Z",
		"fieldsV1": map[string]any{"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{}}}},
	}}
	if o["kind"] == "Node" {
		status, _ := o["status"].(map[string]any)
		if status == nil {
			status = map[string]any{}
			o["status"] = status
		}
		status["conditions"] = []any{map[string]any{"type": "Ready", "status": "True", "reason": "KubeletReady",
			"lastHeartbeatTime": "2025-01-01T00:00:00Z", "lastTransitionTime": "2025-01-01T00:00:00Z"}}
		status["addresses"] = []any{map[string]any{"type": "InternalIP", "address": fmt.Sprintf("10.0.0.%d", i%250+1)}}
		status["nodeInfo"] = map[string]any{"kubeletVersion": "v1.36.3", "architecture": "amd64", "operatingSystem": "linux",
			"containerRuntimeVersion": "containerd://2.1.0", "kernelVersion": "6.8.0", "osImage": "Ubuntu 24.04",
			"machineID": "m", "systemUUID": "u", "bootID": "b", "kubeProxyVersion": ""}
		status["daemonEndpoints"] = map[string]any{"kubeletEndpoint": map[string]any{"Port": 10250}}
	}
}

// List returns the objects as one kind List, as kubectl get -o json
// writes it.
func List(scenarioJSON []byte, opts Options) ([]byte, error) {
	objs, err := Objects(scenarioJSON, opts)
	if err != nil {
		return nil, err
	}
	items := make([]any, len(objs))
	for i, o := range objs {
		items[i] = o
	}
	return json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items}, "", "    ")
}

// ListYAML returns the kind List as kubectl get -o yaml writes it.
func ListYAML(scenarioJSON []byte, opts Options) ([]byte, error) {
	j, err := List(scenarioJSON, opts)
	if err != nil {
		return nil, err
	}
	return yaml.JSONToYAML(j)
}

// MultiDocYAML returns the objects as a YAML stream, one document per
// object, each introduced by "---".
func MultiDocYAML(scenarioJSON []byte, opts Options) ([]byte, error) {
	objs, err := Objects(scenarioJSON, opts)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for _, o := range objs {
		y, err := yaml.Marshal(o)
		if err != nil {
			return nil, err
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	return b.Bytes(), nil
}
