package scenario_test

import (
	"bytes"
	"fmt"

	"github.com/schedkit/schedkit/internal/scenario"
)

// Decode a YAML scenario and normalize it as the API server would store it:
// requests from limits, allocatable from capacity, priority from the class,
// matchLabelKeys merged into the selector.
func ExampleNormalize() {
	doc := []byte(`
nodes:
- metadata: {name: n1}
  status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
priorityClasses:
- metadata: {name: high}
  value: 1000
pending:
- metadata: {name: web-1, labels: {app: web, version: v2}}
  spec:
    priorityClassName: high
    containers:
    - name: c
      resources: {limits: {cpu: 500m}}
    topologySpreadConstraints:
    - maxSkew: 1
      topologyKey: zone
      whenUnsatisfiable: DoNotSchedule
      labelSelector: {matchLabels: {app: web}}
      matchLabelKeys: [version]
`)
	s, warnings, err := scenario.Decode(doc)
	if err != nil {
		fmt.Println(err)
		return
	}
	n, more, err := scenario.Normalize(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := n.Pending[0]
	fmt.Println("warnings:", len(warnings)+len(more))
	fmt.Println("pod:", scenario.PodKey(&p), "uid:", p.UID)
	fmt.Println("cpu request:", p.Spec.Containers[0].Resources.Requests.Cpu())
	fmt.Println("priority:", *p.Spec.Priority, *p.Spec.PreemptionPolicy)
	fmt.Println("spread selector:", p.Spec.TopologySpreadConstraints[0].LabelSelector.MatchExpressions)
	fmt.Println("node allocatable cpu:", n.Nodes[0].Status.Allocatable.Cpu())
	fmt.Println("input untouched:", s.Pending[0].Spec.Priority == nil)
	// Output:
	// warnings: 0
	// pod: default/web-1 uid: uid-default-web-1
	// cpu request: 500m
	// priority: 1000 PreemptLowerPriority
	// spread selector: [{version In [v2]}]
	// node allocatable cpu: 4
	// input untouched: true
}

// Malformed input is refused with every problem named by object and field.
func ExampleDecode_errors() {
	doc := []byte(`{
	  "nodes": [{"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "four"}}}],
	  "pending": [{"metadata": {"name": "web-1", "namespace": "shop"},
	               "spec": {"containers": [{"name": "c", "resources": {"requests": {"memory": "1GB!"}}}]}}]}`)
	_, _, err := scenario.Decode(doc)
	fmt.Println(err)
	// Output:
	// nodes[0] (n1): status.allocatable.cpu: invalid quantity "four"
	// pending[0] (shop/web-1): spec.containers[0].resources.requests.memory: invalid quantity "1GB!"
}

// Read a cluster's dump as kubectl writes it, plus a file of new pods:
// objects are sorted by kind, bound pods into the cluster and unbound ones
// into the queue; other kinds are counted in one warning.
func ExampleDecodeSources() {
	dump := []byte(`apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1, resourceVersion: "42"}
  status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: web-1, namespace: shop}
  spec: {nodeName: n1, containers: [{name: c}]}
  status: {phase: Running}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop}
`)
	newPods := []byte(`apiVersion: v1
kind: Pod
metadata: {name: web-2, namespace: shop}
spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web-3, namespace: shop}
spec: {containers: [{name: c, resources: {requests: {cpu: lots}}}]}
`)
	_, _, err := scenario.DecodeSources(scenario.Source{Name: "cluster.yaml", Data: dump}, scenario.Source{Name: "new.yaml", Data: newPods})
	fmt.Println(err)

	s, warnings, err := scenario.DecodeSources(scenario.Source{Name: "cluster.yaml", Data: dump}, scenario.Source{Name: "new.yaml", Data: newPods[:bytes.Index(newPods, []byte("---"))]})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("nodes:", len(s.Nodes), "bound:", scenario.PodKey(&s.Pods[0]), "pending:", scenario.PodKey(&s.Pending[0]))
	fmt.Println(warnings)
	// Output:
	// new.yaml: document 2 at line 6 (Pod shop/web-3): spec.containers[0].resources.requests.cpu: invalid quantity "lots"
	// nodes: 1 bound: shop/web-1 pending: shop/web-2
	// [1 object(s) of kinds the simulation does not read ignored: apps/v1 Deployment (1)]
}
