package placement_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/hostile"
	"github.com/schedkit/schedkit/placement"
)

// askPlacement puts pod to every entry point of placement that takes a
// pod, against snap (which has nodes a and b).
func askPlacement(t *testing.T, snap *placement.Snapshot, pod *corev1.Pod) {
	opts := placement.Options{}
	require.NotPanics(t, func() { _, _ = placement.Evaluate(snap, pod, opts) }, "Evaluate")
	require.NotPanics(t, func() {
		c, err := placement.Compile(snap, pod, opts)
		if err != nil {
			return
		}
		c.Evaluate()
		c.Schedule()
		for _, n := range snap.Nodes() {
			c.Filter(n)
			c.FilterEach(n)
			c.Fits(n)
		}
		if v, err := snap.WithoutPods("default/bound"); err == nil {
			_, _ = c.On(v)
		}
	}, "Compile")
	require.NotPanics(t, func() {
		p := placement.Prepare(pod, opts)
		if c, err := p.Compile(snap); err == nil {
			c.Schedule()
		}
	}, "Prepare+Compile")
	require.NotPanics(t, func() { _, _ = placement.FilterNode(snap, pod, "a", opts) }, "FilterNode")
	require.NotPanics(t, func() { _, _ = placement.FilterNode(snap, pod, "no-such-node", opts) }, "FilterNode on an unknown node")
	require.NotPanics(t, func() { placement.StoredPod(pod) }, "StoredPod")
	require.NotPanics(t, func() {
		bound := pod.DeepCopy()
		bound.Spec.NodeName = "a"
		_, _ = placement.AdmitToNode(snap, bound)
		if v, err := snap.WithPod(bound); err == nil {
			_, _ = placement.Evaluate(v, hostile.Pod("next", ""), opts)
		}
	}, "Admit, WithPod")
}

func oddSnapshot(t *testing.T, in placement.SnapshotInput) *placement.Snapshot {
	var snap *placement.Snapshot
	require.NotPanics(t, func() {
		var err error
		if snap, _, err = placement.NewSnapshot(in); err != nil {
			snap = nil
		}
	}, "NewSnapshot")
	return snap
}

func ordinaryInput() placement.SnapshotInput {
	return placement.SnapshotInput{Nodes: []*corev1.Node{hostile.Node("a"), hostile.Node("b")}, Pods: []*corev1.Pod{hostile.Pod("bound", "a")}}
}

// Issue 21, no panics on caller input: structurally odd objects give an
// error or an answer from every entry point, never a panic.
func TestOddInputNeverPanics(t *testing.T) {
	for _, tc := range hostile.OddPods("") {
		t.Run("pending pod: "+tc.Name, func(t *testing.T) {
			snap := oddSnapshot(t, ordinaryInput())
			require.NotNil(t, snap)
			askPlacement(t, snap, tc.Obj)
		})
	}
	for _, tc := range hostile.OddPods("a") {
		t.Run("bound pod: "+tc.Name, func(t *testing.T) {
			in := ordinaryInput()
			in.Pods = append(in.Pods, tc.Obj)
			if snap := oddSnapshot(t, in); snap != nil {
				askPlacement(t, snap, hostile.Pod("pending", ""))
			}
			snap := oddSnapshot(t, ordinaryInput())
			require.NotPanics(t, func() { _, _ = snap.WithPod(tc.Obj) }, "WithPod")
		})
	}
	for _, tc := range hostile.OddNodes("a") {
		t.Run("node: "+tc.Name, func(t *testing.T) {
			in := ordinaryInput()
			in.Nodes[0] = tc.Obj
			if snap := oddSnapshot(t, in); snap != nil {
				askPlacement(t, snap, hostile.Pod("pending", ""))
			}
			snap := oddSnapshot(t, ordinaryInput())
			require.NotPanics(t, func() {
				placement.StoredNode(tc.Obj)
				for _, ask := range []func() (*placement.Snapshot, error){
					func() (*placement.Snapshot, error) { return snap.WithNode(tc.Obj) },
					func() (*placement.Snapshot, error) { return snap.WithNodes(tc.Obj) },
					func() (*placement.Snapshot, error) { return snap.WithoutNodes(tc.Obj.Name) },
				} {
					if v, err := ask(); err == nil {
						_, _ = placement.Evaluate(v, hostile.Pod("pending", ""), placement.Options{})
					}
				}
			}, "snapshot node views")
		})
	}
	for _, tc := range hostile.OddPDBs() {
		t.Run("budget: "+tc.Name, func(t *testing.T) {
			in := ordinaryInput()
			in.PDBs = append(in.PDBs, tc.Obj)
			if snap := oddSnapshot(t, in); snap != nil {
				askPlacement(t, snap, hostile.Pod("pending", ""))
			}
		})
	}
	nils := []struct {
		name string
		ask  func()
	}{
		{"nil node in the input", func() {
			in := ordinaryInput()
			in.Nodes = append(in.Nodes, nil)
			_, _, _ = placement.NewSnapshot(in)
		}},
		{"nil pod in the input", func() {
			in := ordinaryInput()
			in.Pods = append(in.Pods, nil)
			_, _, _ = placement.NewSnapshot(in)
		}},
		{"nil budget and namespace in the input", func() {
			in := ordinaryInput()
			in.PDBs, in.Namespaces = append(in.PDBs, nil), append(in.Namespaces, nil)
			_, _, _ = placement.NewSnapshot(in)
		}},
		{"two nodes of one name", func() {
			in := ordinaryInput()
			in.Nodes = append(in.Nodes, hostile.Node("a"))
			_, _, _ = placement.NewSnapshot(in)
		}},
		{"two pods of one name", func() {
			in := ordinaryInput()
			in.Pods = append(in.Pods, hostile.Pod("bound", "b"))
			_, _, _ = placement.NewSnapshot(in)
		}},
		{"a pod bound to an unknown node", func() {
			in := ordinaryInput()
			in.Pods = append(in.Pods, hostile.Pod("lost", "no-such-node"))
			_, _, _ = placement.NewSnapshot(in)
		}},
		{"nil pod", func() {
			snap, _, _ := placement.NewSnapshot(ordinaryInput())
			_, _ = placement.Evaluate(snap, nil, placement.Options{})
			_, _ = placement.Compile(snap, nil, placement.Options{})
			_, _ = placement.Prepare(nil, placement.Options{}).Compile(snap)
			_, _ = placement.FilterNode(snap, nil, "a", placement.Options{})
			_, _ = placement.AdmitToNode(snap, nil)
			_, _ = snap.WithPod(nil)
			placement.StoredPod(nil)
			placement.StoredNode(nil)
		}},
		{"nil snapshot", func() {
			pod := hostile.Pod("p", "")
			_, _ = placement.Evaluate(nil, pod, placement.Options{})
			_, _ = placement.Compile(nil, pod, placement.Options{})
			_, _ = placement.Prepare(pod, placement.Options{}).Compile(nil)
			_, _ = placement.FilterNode(nil, pod, "a", placement.Options{})
		}},
		{"nil node views", func() {
			snap, _, _ := placement.NewSnapshot(ordinaryInput())
			_, _ = snap.WithNode(nil)
			_, _ = snap.WithNodes(nil)
			_, _ = snap.WithoutNodes("", "no-such-node")
			snap.WithoutPods("", "x/y")
		}},
	}
	for _, tc := range nils {
		t.Run(tc.name, func(t *testing.T) {
			require.NotPanics(t, tc.ask)
		})
	}
}
