package placement

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/nodeaffinity"
)

// NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity, v1.36): the
// PreFilter restricts the nodes to the names a required term's matchFields
// lists (or rejects the pod when the terms conflict); the Filter requires
// spec.nodeSelector and a required node selector term (and the profile's
// enforced affinity) to match the node's labels; the Score sums the weights
// of the matching preferred terms. The compiled selectors
// (internal/nodeaffinity) are shared with topology's node inclusion policy;
// over a snapshot the selectors read its label columns (nodeAffinityIndex).
// filter.go dispatches (localCode), compile.go runs the PreFilter.

// The Filter's and PreFilter's reasons (nodeaffinity.ErrReasonPod,
// errReasonEnforced, errReasonConflict).
var (
	reasonAffinity         = []string{"node(s) didn't match Pod's node affinity/selector"}
	reasonAffinityEnforced = []string{"node(s) didn't match scheduler-enforced node affinity"}
	reasonAffinityConflict = []string{"pod affinity terms conflict"}
)

// labelPair is one pod.spec.nodeSelector entry: the node must have the key
// with exactly that value (labels.SelectorFromSet, no validation).
type labelPair struct{ key, value string }

func matchesPairs(pairs []labelPair, n *corev1.Node) bool {
	for _, kv := range pairs {
		v, ok := n.Labels[kv.key]
		if !ok || v != kv.value {
			return false
		}
	}
	return true
}

// nodeAffinityIndex is the pod's node selector, required and preferred
// node affinity and the profile's added affinity decided through the
// snapshot's node label columns (nodeaffinity.IndexedTerm): a node's
// verdict is then a few array loads per requirement instead of label map
// lookups. It serves the nodes of the snapshot it was built on and of its
// views (which keep every node and its labels); any other NodeInfo goes
// through the map-based selectors (Compiled.indexes).
type nodeAffinityIndex struct {
	pairs                     nodeaffinity.IndexedTerm
	required, added           *nodeaffinity.IndexedSelector
	preferred, addedPreferred *nodeaffinity.IndexedPreferred
}

// indexNodeAffinity builds the index, or returns nil when the pod has
// nothing NodeAffinity checks or scores.
func (c *Compiled) indexNodeAffinity() *nodeAffinityIndex {
	if len(c.pod.Spec.NodeSelector) == 0 && c.required == nil && c.added == nil && c.preferred == nil && c.addedPreferred == nil {
		return nil
	}
	x := &nodeAffinityIndex{pairs: nodeaffinity.LabelsIndexed(c.pod.Spec.NodeSelector, c.snap)}
	if c.required != nil {
		x.required = c.required.Index(c.snap)
	}
	if c.added != nil {
		x.added = c.added.Index(c.snap)
	}
	x.preferred = c.preferred.Index(c.snap)
	x.addedPreferred = c.addedPreferred.Index(c.snap)
	return x
}

// indexes reports whether n is the node of its slot in the compiled
// snapshot (views share the node objects and slots), so that the column
// index decides for it.
func (c *Compiled) indexes(n *cluster.NodeInfo) bool {
	nodes := cluster.SlotsOf(c.snap)
	return c.naIndex != nil && n.Index >= 0 && n.Index < len(nodes) && nodes[n.Index] != nil && nodes[n.Index].Node == n.Node
}

// nodeAffinityCode is NodeAffinity's Filter as a local code: the added
// (scheduler-enforced) affinity first (codeAffinityEnforced), then
// nodeSelector and the required terms (codeAffinityPod).
func (c *Compiled) nodeAffinityCode(n *cluster.NodeInfo) uint8 {
	if c.indexes(n) {
		x := c.naIndex
		if x.added != nil && !x.added.Matches(n.Index, n.Node) {
			return codeAffinityEnforced
		}
		if !x.pairs.Matches(n.Index, n.Node) || (x.required != nil && !x.required.Matches(n.Index, n.Node)) {
			return codeAffinityPod
		}
		return 0
	}
	if c.added != nil && !c.added.Matches(n.Node) {
		return codeAffinityEnforced
	}
	if !c.matchesRequiredAffinity(n.Node) {
		return codeAffinityPod
	}
	return 0
}

// preferredScore is NodeAffinity's raw Score: the weights of the matching
// preferred terms, the profile's added ones included.
func (c *Compiled) preferredScore(n *cluster.NodeInfo) int64 {
	if c.indexes(n) {
		return c.naIndex.addedPreferred.Score(n.Index, n.Node) + c.naIndex.preferred.Score(n.Index, n.Node)
	}
	return c.addedPreferred.Score(n.Node) + c.preferred.Score(n.Node)
}

// matchesRequiredAffinity is RequiredNodeAffinity.Match: nodeSelector AND
// the required node selector terms.
func (c *Compiled) matchesRequiredAffinity(node *corev1.Node) bool {
	if !matchesPairs(c.nodeSelectorPairs, node) {
		return false
	}
	return c.required == nil || c.required.Matches(node)
}
