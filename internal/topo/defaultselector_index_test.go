package topo

import (
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/cluster"
)

// scanDefaultSelector is DefaultSelector as a scan of every object in input
// order (helper.DefaultSelector's loops over the listers, with the
// documented input-order rules): the reference for the indexed lookup.
func scanDefaultSelector(pod *corev1.Pod, in *SnapshotInput) labels.Selector {
	nsOf := func(ns string) string {
		if ns == "" {
			return metav1.NamespaceDefault
		}
		return ns
	}
	set := labels.Set{}
	for _, svc := range in.Services {
		if svc != nil && svc.Spec.Selector != nil && nsOf(svc.Namespace) == pod.Namespace &&
			labels.SelectorFromValidatedSet(svc.Spec.Selector).Matches(labels.Set(pod.Labels)) {
			set = labels.Merge(set, svc.Spec.Selector)
		}
	}
	sel := set.AsSelector()
	owner := metav1.GetControllerOfNoCopy(pod)
	if owner == nil {
		return sel
	}
	gv, err := schema.ParseGroupVersion(owner.APIVersion)
	if err != nil {
		return sel
	}
	switch gv.WithKind(owner.Kind) {
	case kindReplicationController:
		for _, rc := range in.ReplicationControllers {
			if rc != nil && rc.Name == owner.Name && nsOf(rc.Namespace) == pod.Namespace {
				return labels.Merge(set, rc.Spec.Selector).AsSelector()
			}
		}
	case kindReplicaSet:
		for _, rs := range in.ReplicaSets {
			if rs != nil && rs.Name == owner.Name && nsOf(rs.Namespace) == pod.Namespace {
				return addSelectorRequirements(sel, rs.Spec.Selector)
			}
		}
	case kindStatefulSet:
		for _, ss := range in.StatefulSets {
			if ss != nil && ss.Name == owner.Name && nsOf(ss.Namespace) == pod.Namespace {
				return addSelectorRequirements(sel, ss.Spec.Selector)
			}
		}
	}
	return sel
}

// addSelectorRequirements adds the requirements of a workload's label
// selector as helper.DefaultSelector does (metav1.LabelSelectorAsSelector;
// an invalid or nil selector adds nothing).
func addSelectorRequirements(sel labels.Selector, ls *metav1.LabelSelector) labels.Selector {
	other, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		return sel
	}
	if reqs, ok := other.Requirements(); ok {
		sel = sel.Add(reqs...)
	}
	return sel
}

// TestDefaultSelectorIndexMatchesScan: over inputs drawn from small pools
// (same names in several namespaces and kinds, duplicates, empty namespaces,
// nil objects, conflicting service selectors), DefaultSelector through the
// snapshot's Workloads index equals the scan in input order, for the
// caller's Input and for the snapshot's.
func TestDefaultSelectorIndexMatchesScan(t *testing.T) {
	namespaces := []string{"", "default", "x"}
	names := []string{"a", "b"}
	keys, values := []string{"app", "tier"}, []string{"1", "2"}
	rapid.Check(t, func(t *rapid.T) {
		genLabels := func(label string) map[string]string {
			m := map[string]string{}
			for range rapid.IntRange(0, 2).Draw(t, label) {
				m[rapid.SampledFrom(keys).Draw(t, label+"k")] = rapid.SampledFrom(values).Draw(t, label+"v")
			}
			return m
		}
		meta := func(label string) metav1.ObjectMeta {
			return metav1.ObjectMeta{Namespace: rapid.SampledFrom(namespaces).Draw(t, label+"ns"), Name: rapid.SampledFrom(names).Draw(t, label+"name")}
		}
		// A controller's selector: labels, expressions (one with an
		// operator the parser refuses), empty (everything) or nil.
		genSelector := func(label string) *metav1.LabelSelector {
			switch rapid.IntRange(0, 5).Draw(t, label+"form") {
			case 0:
				return nil
			case 1:
				return &metav1.LabelSelector{}
			case 2:
				op := rapid.SampledFrom([]metav1.LabelSelectorOperator{metav1.LabelSelectorOpIn, metav1.LabelSelectorOpNotIn,
					metav1.LabelSelectorOpExists, metav1.LabelSelectorOpDoesNotExist, "Bogus"}).Draw(t, label+"op")
				req := metav1.LabelSelectorRequirement{Key: rapid.SampledFrom(keys).Draw(t, label+"k"), Operator: op}
				if op == metav1.LabelSelectorOpIn || op == metav1.LabelSelectorOpNotIn {
					req.Values = []string{rapid.SampledFrom(values).Draw(t, label+"v")}
				}
				return &metav1.LabelSelector{MatchLabels: genLabels(label), MatchExpressions: []metav1.LabelSelectorRequirement{req}}
			default:
				return &metav1.LabelSelector{MatchLabels: genLabels(label)}
			}
		}
		in := cluster.Input{}
		for range rapid.IntRange(0, 4).Draw(t, "services") {
			if rapid.IntRange(0, 6).Draw(t, "nilsvc") == 0 {
				in.Services = append(in.Services, nil)
				continue
			}
			svc := &corev1.Service{ObjectMeta: meta("svc")}
			if rapid.IntRange(0, 4).Draw(t, "svcsel") > 0 {
				svc.Spec.Selector = genLabels("svcsel")
			}
			in.Services = append(in.Services, svc)
		}
		for range rapid.IntRange(0, 3).Draw(t, "rcs") {
			in.ReplicationControllers = append(in.ReplicationControllers, &corev1.ReplicationController{ObjectMeta: meta("rc"),
				Spec: corev1.ReplicationControllerSpec{Selector: genLabels("rcsel")}})
		}
		for range rapid.IntRange(0, 3).Draw(t, "rss") {
			in.ReplicaSets = append(in.ReplicaSets, &appsv1.ReplicaSet{ObjectMeta: meta("rs"),
				Spec: appsv1.ReplicaSetSpec{Selector: genSelector("rssel")}})
		}
		for range rapid.IntRange(0, 3).Draw(t, "sss") {
			in.StatefulSets = append(in.StatefulSets, &appsv1.StatefulSet{ObjectMeta: meta("ss"),
				Spec: appsv1.StatefulSetSpec{Selector: genSelector("sssel")}})
		}
		snap, _, err := cluster.New(in)
		require.NoError(t, err)
		var prev *corev1.Pod
		for range rapid.IntRange(1, 8).Draw(t, "pods") {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: rapid.SampledFrom(namespaces).Draw(t, "podns"), Labels: genLabels("pod")}}
			if rapid.IntRange(0, 4).Draw(t, "owned") > 0 {
				kind := rapid.SampledFrom([]schema.GroupVersionKind{kindReplicationController, kindReplicaSet, kindStatefulSet}).Draw(t, "kind")
				yes := true
				pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: kind.GroupVersion().String(), Kind: kind.Kind,
					Name: rapid.SampledFrom(names).Draw(t, "owner"), Controller: &yes}}
			}
			if prev != nil && rapid.Bool().Draw(t, "likePrev") {
				// The previous pod with one of the parts the selector reads
				// changed.
				pod = prev.DeepCopy()
				switch rapid.IntRange(0, 4).Draw(t, "change") {
				case 0:
					pod.Namespace = rapid.SampledFrom(namespaces).Draw(t, "podns2")
				case 1:
					pod.Labels = genLabels("pod2")
				case 2, 3, 4:
					yes := true
					if len(pod.OwnerReferences) == 0 {
						pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ReplicationController", Controller: &yes}}
					}
					o := &pod.OwnerReferences[0]
					switch rapid.IntRange(0, 2).Draw(t, "ownerPart") {
					case 0:
						o.Name = rapid.SampledFrom(names).Draw(t, "owner2")
					case 1:
						o.Kind = rapid.SampledFrom([]string{"ReplicationController", "ReplicaSet", "StatefulSet"}).Draw(t, "kind2")
					default:
						o.APIVersion = rapid.SampledFrom([]string{"v1", "apps/v1", "extensions/v1beta1", "a/b/c"}).Draw(t, "apiVersion2")
					}
				}
			}
			prev = pod
			want := scanDefaultSelector(pod, &in).String()
			require.Equal(t, want, DefaultSelector(pod, &in).String(), "caller's input")
			require.Equal(t, want, DefaultSelector(pod, snap.Input()).String(), "snapshot's input")
		}
	})
}
