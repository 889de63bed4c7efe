package safety_test

import (
	"fmt"
	"time"

	"github.com/schedkit/schedkit/lifecycle/safety"
)

func run(title string, events ...safety.Event) {
	c, err := safety.New(safety.Config{
		Nodes:      []string{"node-a", "node-b"},
		Identities: []string{"db-0"},
		Volumes:    true,
		Start:      time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("==", title)
	for _, e := range events {
		if _, err := c.Apply(e); err != nil {
			fmt.Println(err)
			return
		}
	}
	for _, i := range c.Instances() {
		state := "stopped"
		if i.Running {
			state = "may be running"
		}
		fmt.Printf("%s on %s: %s\n", i.UID, i.Node, state)
	}
	if v := c.Check(); v.AtMostOne {
		fmt.Println("at most one instance of each identity")
	} else {
		for _, viol := range v.Violations {
			fmt.Println(c.Explain(viol))
		}
	}
}

// Example contrasts two ways out of a network partition of the node running
// db-0 (with its ReadWriteOnce volume): fencing the machine and marking it
// out of service lets the replacement start safely; force-deleting the pod
// of a machine that is still alive lets a second instance start once the
// volume is force-detached.
func Example() {
	run("fenced",
		safety.PartitionNode("node-a"),
		safety.DeletePod("db-0"),
		safety.AdvanceBy(10*time.Minute),
		safety.FenceNode("node-a"),
		safety.MarkNodeOutOfService("node-a"),
	)
	run("force-deleted",
		safety.PartitionNode("node-a"),
		safety.DeletePod("db-0"),
		safety.AdvanceBy(10*time.Minute),
		safety.ForceDeletePod("db-0"),
		safety.AdvanceBy(6*time.Minute),
	)
	// Output:
	// == fenced
	// db-0-1 on node-a: stopped
	// db-0-2 on node-b: may be running
	// at most one instance of each identity
	// == force-deleted
	// db-0-1 on node-a: may be running
	// db-0-2 on node-b: may be running
	// 2 instances of db-0 may be running: db-0-1 on node-a; db-0-2 on node-b; allowed by event #3 ForceDelete(db-0)
}

// ExampleCluster_Apply prints what the controllers and kubelets do after a
// graceful deletion on a healthy node.
func ExampleCluster_Apply() {
	c, _ := safety.New(safety.Config{Nodes: []string{"node-a"}, Identities: []string{"web-0"}, Start: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)})
	for _, e := range []safety.Event{safety.DeletePod("web-0"), safety.AdvanceBy(30 * time.Second)} {
		lines, _ := c.Apply(e)
		for _, l := range lines {
			fmt.Println(l)
		}
	}
	// Output:
	// 0s event GracefulDelete(web-0)
	// 0s user: web-0 marked for deletion, grace 30s
	// 0s kubelet node-a: stopping web-0, kill at +30s
	// 0s event Advance(30s)
	// 30s kubelet node-a: web-0 (web-0-1) stopped
	// 30s kubelet node-a confirms: web-0 (web-0-1) removed from the API
	// 30s statefulset: created web-0 (web-0-2)
	// 30s scheduler: bound web-0 to node-a
	// 30s kubelet node-a: started web-0 (web-0-2)
}

// ExampleParseEvents drives the model from a script: the kubelet of node-a
// crashes while web-0 is being deleted gracefully, so the deletion waits
// for its confirmation; the pod's replacement starts only after the
// kubelet comes back and confirms. Incidents stays empty.
func ExampleParseEvents() {
	events, err := safety.ParseEvents(`
# a kubelet crash never lets two instances run
CrashKubelet(node-a); GracefulDelete(web-0, 10s)
Advance(10m)
RestartKubelet(node-a); Advance(30s)`)
	if err != nil {
		panic(err)
	}
	c, _ := safety.New(safety.Config{Nodes: []string{"node-a", "node-b"}, Identities: []string{"web-0"}, Start: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)})
	for _, e := range events {
		if _, err := c.Apply(e); err != nil {
			panic(err)
		}
		var where []string
		for _, i := range c.Running("web-0") {
			where = append(where, string(i.UID)+"@"+i.Node)
		}
		fmt.Printf("%-26s running: %v\n", e, where)
	}
	fmt.Println("incidents:", len(c.Incidents()))
	_, err = safety.ParseEvents("Partition(node-a); Advance(soon)")
	fmt.Println(err)
	// Output:
	// CrashKubelet(node-a)       running: [web-0-1@node-a]
	// GracefulDelete(web-0, 10s) running: [web-0-1@node-a]
	// Advance(10m0s)             running: [web-0-1@node-a]
	// RestartKubelet(node-a)     running: [web-0-1@node-a]
	// Advance(30s)               running: [web-0-2@node-a]
	// incidents: 0
	// event 2: safety: invalid event: "Advance(soon)": "soon" is not a non-negative duration
}
