package scenario_test

import (
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
