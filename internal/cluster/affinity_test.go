package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
)

// TestCompileAffinity mirrors framework.NewPodInfo's term compilation
// (getNamespacesFromPodAffinityTerm, newAffinityTerm, GetWeightedAffinityTerms
// in kube-scheduler v1.36's types.go).
func TestCompileAffinity(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}}
	pod := func(a *corev1.Affinity) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns0"}, Spec: corev1.PodSpec{Affinity: a}}
	}
	tests := []struct {
		name       string
		term       corev1.PodAffinityTerm
		wantNS     sets.Set[string]
		wantNSSel  string // String() of the namespace selector; "<nothing>" for labels.Nothing
		nsSelEmpty bool
	}{
		{name: "no namespaces and no selector: the pod's own namespace", term: corev1.PodAffinityTerm{LabelSelector: sel},
			wantNS: sets.New("ns0"), wantNSSel: "<nothing>"},
		{name: "explicit namespaces replace the pod's", term: corev1.PodAffinityTerm{LabelSelector: sel, Namespaces: []string{"x", "y"}},
			wantNS: sets.New("x", "y"), wantNSSel: "<nothing>"},
		{name: "an empty namespace selector means all namespaces", term: corev1.PodAffinityTerm{LabelSelector: sel, NamespaceSelector: &metav1.LabelSelector{}},
			wantNS: sets.New[string](), wantNSSel: "", nsSelEmpty: true},
		{name: "a namespace selector with no names keeps the names empty",
			term:   corev1.PodAffinityTerm{LabelSelector: sel, NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}},
			wantNS: sets.New[string](), wantNSSel: "team=a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.term.TopologyKey = "zone"
			p := pod(&corev1.Affinity{
				PodAffinity: &corev1.PodAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution:  []corev1.PodAffinityTerm{tt.term},
					PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 5, PodAffinityTerm: tt.term}},
				},
				PodAntiAffinity: &corev1.PodAntiAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution:  []corev1.PodAffinityTerm{tt.term},
					PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 7, PodAffinityTerm: tt.term}},
				},
			})
			before := p.DeepCopy()
			var pi PodInfo
			require.NoError(t, compileAffinity(&pi, p))
			assert.Equal(t, before, p, "the pod is not modified")
			terms := []AffinityTerm{pi.RequiredAffinityTerms()[0], pi.RequiredAntiAffinityTerms()[0],
				pi.PreferredAffinityTerms()[0].AffinityTerm, pi.PreferredAntiAffinityTerms()[0].AffinityTerm}
			for _, got := range terms {
				assert.Equal(t, tt.wantNS, got.Namespaces)
				assert.Equal(t, "zone", got.TopologyKey)
				assert.Equal(t, "app=a", got.Selector.String())
				if tt.wantNSSel == "<nothing>" {
					assert.True(t, labels.MatchesNothing(got.NamespaceSelector))
				} else {
					assert.Equal(t, tt.wantNSSel, got.NamespaceSelector.String())
				}
				assert.Equal(t, tt.nsSelEmpty, got.NamespaceSelector.Empty())
			}
			assert.Equal(t, int32(5), pi.PreferredAffinityTerms()[0].Weight)
			assert.Equal(t, int32(7), pi.PreferredAntiAffinityTerms()[0].Weight)
		})
	}
}

// TestCompileAffinityErrors checks that every invalid selector is reported
// with its API path, that the list holding it is left nil as upstream's
// GetAffinityTerms does, and that the other lists are still compiled.
func TestCompileAffinityErrors(t *testing.T) {
	bad := &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Bogus"}}}
	good := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}}
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns0"}, Spec: corev1.PodSpec{Affinity: &corev1.Affinity{
		PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
			{TopologyKey: "zone", LabelSelector: good},
			{TopologyKey: "zone", LabelSelector: bad},
		}},
		PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{TopologyKey: "zone", LabelSelector: good}},
			PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: corev1.PodAffinityTerm{
				TopologyKey: "zone", LabelSelector: good, NamespaceSelector: bad}}},
		},
	}}}
	var pi PodInfo
	err := compileAffinity(&pi, p)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector")
	assert.Contains(t, err.Error(), "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaceSelector")
	assert.Nil(t, pi.RequiredAffinityTerms())
	assert.Nil(t, pi.PreferredAntiAffinityTerms())
	assert.Len(t, pi.RequiredAntiAffinityTerms(), 1)
}

// TestLabelIndex checks the interning: equal (namespace, labels) pairs and
// equal terms share IDs, terminating pods are marked, and a view re-indexes
// only what changed while sharing the rest.
func TestLabelIndex(t *testing.T) {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	node2 := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n2"}}
	anti := &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
		{TopologyKey: "zone", LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}}},
	}}}
	mk := func(name, nodeName string, l map[string]string, aff *corev1.Affinity) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: l},
			Spec: corev1.PodSpec{NodeName: nodeName, Affinity: aff, Containers: []corev1.Container{{Name: "c", Image: "i"}}}}
	}
	now := metav1.Now()
	deleting := mk("p3", "n1", map[string]string{"app": "a"}, nil)
	deleting.DeletionTimestamp = &now
	snap, _, err := New(Input{Nodes: []*corev1.Node{node, node2}, Pods: []*corev1.Pod{
		mk("p1", "n1", map[string]string{"app": "a"}, anti),
		mk("p2", "n1", map[string]string{"app": "a"}, anti),
		deleting,
		mk("p4", "n2", map[string]string{"app": "b"}, nil),
	}})
	require.NoError(t, err)
	v := snap.Labels()
	require.Len(t, v.Sets, 2)
	require.Len(t, v.Terms, 1)
	assert.Equal(t, []int32{0, 0, -1}, v.Node(0).Sets)
	assert.Equal(t, []TermRef{{Term: 0}, {Term: 0}}, v.Node(0).RequiredAntiAffinity)
	assert.Equal(t, []int32{1}, v.Node(1).Sets)

	view, err := snap.WithPod(mk("p5", "n2", map[string]string{"app": "a"}, nil))
	require.NoError(t, err)
	vv := view.Labels()
	assert.Same(t, v.Node(0), vv.Node(0), "unchanged nodes share their index")
	assert.Equal(t, []int32{1, 0}, vv.Node(1).Sets)
	pv := snap.Labels()
	assert.Equal(t, []int32{1}, pv.Node(1).Sets, "the parent is unchanged")
}

// TestColumn checks a label key's column: dense value IDs in node order,
// -1 for nodes without the key, shared (the same object) by views.
func TestColumn(t *testing.T) {
	mk := func(name string, l map[string]string) *corev1.Node {
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: l}}
	}
	snap, _, err := New(Input{Nodes: []*corev1.Node{
		mk("a", map[string]string{"zone": "z2"}), mk("b", nil), mk("c", map[string]string{"zone": "z1"}), mk("d", map[string]string{"zone": "z2"}),
	}})
	require.NoError(t, err)
	c := snap.Column("zone")
	assert.Equal(t, []string{"z2", "z1"}, c.Values)
	assert.Equal(t, []int32{0, -1, 1, 0}, c.Of)
	view, err := snap.WithPod(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"},
		Spec: corev1.PodSpec{NodeName: "a", Containers: []corev1.Container{{Name: "c", Image: "i"}}}})
	require.NoError(t, err)
	require.NotSame(t, snap, view)
	assert.Same(t, c, view.Column("zone"))
	assert.True(t, snap.SharesIndex(view))
	other, _, err := New(Input{Nodes: []*corev1.Node{mk("a", nil)}})
	require.NoError(t, err)
	assert.False(t, snap.SharesIndex(other))
}
