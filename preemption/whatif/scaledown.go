package whatif

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/pdbmatch"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/preemption"
)

// Annotations cluster-autoscaler reads on pods.
const (
	// SafeToEvictAnnotation "true" makes a pod movable whatever the other
	// rules say; "false" blocks its node's removal.
	SafeToEvictAnnotation = "cluster-autoscaler.kubernetes.io/safe-to-evict"
	// SafeToEvictLocalVolumesAnnotation lists (comma-separated) local
	// volumes that do not block a removal.
	SafeToEvictLocalVolumesAnnotation = "cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes"
)

// BlockingRule names why a pod keeps its node, as cluster-autoscaler's
// drain.BlockingPodReason does.
type BlockingRule string

// The rules, in the order they are checked.
const (
	NotSafeToEvictAnnotation BlockingRule = "NotSafeToEvictAnnotation"
	NotEnoughPdb             BlockingRule = "NotEnoughPdb"
	UnmovableKubeSystemPod   BlockingRule = "UnmovableKubeSystemPod"
	LocalStorageRequested    BlockingRule = "LocalStorageRequested"
	NotReplicated            BlockingRule = "NotReplicated"
	// NoPlaceToMovePods: a pod that may move finds no node.
	NoPlaceToMovePods BlockingRule = "NoPlaceToMovePods"
)

// DrainabilityRules are cluster-autoscaler's scale-down options about which
// pods block a node's removal. The zero value is its default (every rule
// on).
type DrainabilityRules struct {
	// EvictSystemPods lets kube-system pods without a budget move
	// (--skip-nodes-with-system-pods=false).
	EvictSystemPods bool
	// EvictLocalStorage lets pods with emptyDir or hostPath volumes move
	// (--skip-nodes-with-local-storage=false).
	EvictLocalStorage bool
	// EvictUnreplicated lets pods without a controller move.
	EvictUnreplicated bool
}

// ScaleDownOptions configures ScaleDown.
type ScaleDownOptions struct {
	Options
	Rules DrainabilityRules
}

// Blocker is why a node cannot be removed.
type Blocker struct {
	Pod  string // namespace/name
	Rule BlockingRule
	// Message explains: the budget, the volume, or upstream's FitError
	// text for NoPlaceToMovePods.
	Message string
}

// NodeRemoval is the verdict on one candidate node.
type NodeRemoval struct {
	Node      string
	Removable bool
	// Moves are where its pods went (in queue order) when it is removable.
	Moves []preemption.PodPlacement
	// Blocker is set when it is not.
	Blocker *Blocker
}

// ScaleDownResult is the answer of ScaleDown.
type ScaleDownResult struct {
	// Nodes are the verdicts, in the order the candidates were tried.
	Nodes []NodeRemoval
	// Removed are the nodes removable together, in that order.
	Removed []string
	// Final is the cluster without the removed nodes, their pods moved.
	Final *placement.Snapshot
}

// ScaleDown answers "which of these nodes can go", greedily as
// cluster-autoscaler's scale-down does: each candidate (all nodes in name
// order when candidates is empty) is tried on the cluster left by the
// removals before it, so two nodes are never both removable onto each
// other's capacity. A node can go when none of its pods is blocked by a
// drainability rule (DrainabilityRules; DaemonSet, mirror and terminal pods
// are not moved) and every other pod finds a node when the node is gone,
// scheduled as kube-scheduler would (queue order, scores, no
// preemption). Budgets are spent as pods move: a pod whose budget has no
// disruption left blocks its node. Neither snap nor any object is
// modified; an unknown or repeated candidate is an error wrapping
// ErrInvalidQuestion.
//
// Unlike cluster-autoscaler, which places moved pods with the filters alone
// on the first node that passes them, the pods go where the scheduler
// would put them, which is where they will really go.
func ScaleDown(snap *placement.Snapshot, candidates []string, opts ScaleDownOptions) (*ScaleDownResult, error) {
	if snap == nil {
		return nil, fmt.Errorf("%w: nil snapshot", ErrInvalidQuestion)
	}
	if len(candidates) == 0 {
		for _, ni := range cluster.NodesOf(snapshotOf(snap)) {
			candidates = append(candidates, ni.Name)
		}
	}
	seen := map[string]bool{}
	for _, name := range candidates {
		if _, ok := cluster.NodeOf(snapshotOf(snap), name); !ok || seen[name] {
			return nil, fmt.Errorf("%w: candidate node %q is unknown or repeated", ErrInvalidQuestion, name)
		}
		seen[name] = true
	}
	pdbs := cluster.InputOf(snapshotOf(snap)).PDBs
	// Each budget's selector is compiled once for every pod of every
	// candidate, under the Eviction API's rule (an empty selector selects
	// its namespace); one that does not parse selects nothing, as the
	// Eviction API skips it.
	budgets := budgetSet{pdbs: pdbs, selectors: make([]pdbmatch.Selector, len(pdbs))}
	allowed := make([]int32, len(pdbs))
	for i, b := range pdbs {
		budgets.selectors[i], _ = pdbmatch.Compile(b, pdbmatch.Eviction)
		allowed[i] = b.Status.DisruptionsAllowed
	}
	res := &ScaleDownResult{Nodes: []NodeRemoval{}, Removed: []string{}}
	cur := snap
	for _, name := range candidates {
		verdict, next, spent := tryRemove(cur, name, budgets, allowed, opts)
		res.Nodes = append(res.Nodes, verdict)
		if verdict.Removable {
			cur, allowed = next, spent
			res.Removed = append(res.Removed, name)
		}
	}
	res.Final = cur
	return res, nil
}

// tryRemove decides one candidate on cur; when it is removable it returns
// the cluster without it and the budgets left.
func tryRemove(cur *placement.Snapshot, name string, budgets budgetSet, allowed []int32, opts ScaleDownOptions) (NodeRemoval, *placement.Snapshot, []int32) {
	verdict := NodeRemoval{Node: name}
	ni, _ := cluster.NodeOf(snapshotOf(cur), name)
	left := slices.Clone(allowed)
	var moving []*corev1.Pod
	for _, pi := range ni.Order {
		pod := pi.Pod
		if stays(pod) || pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
			continue
		}
		if b := blocked(pod, budgets, left, opts.Rules); b != nil {
			verdict.Blocker = b
			return verdict, nil, nil
		}
		moving = append(moving, pod)
	}
	next, err := cur.WithoutNodes(name)
	if err != nil {
		verdict.Blocker = &Blocker{Rule: NoPlaceToMovePods, Message: err.Error()}
		return verdict, nil, nil
	}
	pending := make([]*corev1.Pod, len(moving))
	for i, p := range moving {
		pending[i] = opts.prepare(recreated(p))
	}
	qopts := opts.queueOptions()
	qopts.StopAtUnplaced = true
	qr, err := preemption.ScheduleQueue(next, pending, qopts)
	if err != nil {
		verdict.Blocker = &Blocker{Rule: NoPlaceToMovePods, Message: err.Error()}
		return verdict, nil, nil
	}
	for _, r := range qr.Results {
		if !placed(r.Outcome) {
			msg := r.Message
			if r.Outcome == preemption.Failed {
				msg = r.Error
			}
			verdict.Blocker = &Blocker{Pod: r.Pod, Rule: NoPlaceToMovePods, Message: msg}
			verdict.Moves = nil
			return verdict, nil, nil
		}
		verdict.Moves = append(verdict.Moves, preemption.PodPlacement{Pod: r.Pod, Node: r.Node})
	}
	verdict.Removable = true
	return verdict, qr.Final, left
}

// blocked applies cluster-autoscaler's drainability rules
// (simulator/drainability/rules) to a pod that would move, spending one
// disruption of each of its budgets (left) when it may move.
func blocked(pod *corev1.Pod, budgets budgetSet, left []int32, rules DrainabilityRules) *Blocker {
	key := namespace(pod) + "/" + pod.Name
	pdbs := budgets.pdbs
	matching := budgets.matching(pod)
	spend := func() *Blocker {
		for _, i := range matching {
			if left[i] < 1 {
				return &Blocker{Pod: key, Rule: NotEnoughPdb, Message: fmt.Sprintf("not enough pod disruption budget to move %s (budget %s/%s)", key, pdbs[i].Namespace, pdbs[i].Name)}
			}
		}
		for _, i := range matching {
			left[i]--
		}
		return nil
	}
	switch pod.Annotations[SafeToEvictAnnotation] {
	case "true":
		// The safetoevict rule makes the pod drainable; its budgets still
		// bound how many pods may go.
		return spend()
	case "false":
		return &Blocker{Pod: key, Rule: NotSafeToEvictAnnotation, Message: fmt.Sprintf("pod annotated %s=false", SafeToEvictAnnotation)}
	}
	if b := spend(); b != nil {
		return b
	}
	if !rules.EvictSystemPods && namespace(pod) == "kube-system" && len(matching) == 0 {
		return &Blocker{Pod: key, Rule: UnmovableKubeSystemPod, Message: "non-daemonset, non-mirrored, non-pdb-assigned kube-system pod present: " + key}
	}
	if !rules.EvictLocalStorage {
		safe := map[string]bool{}
		for _, v := range strings.Split(pod.Annotations[SafeToEvictLocalVolumesAnnotation], ",") {
			safe[strings.TrimSpace(v)] = true
		}
		for _, v := range pod.Spec.Volumes {
			if (v.HostPath != nil || v.EmptyDir != nil) && !safe[v.Name] {
				return &Blocker{Pod: key, Rule: LocalStorageRequested, Message: fmt.Sprintf("pod with local storage present: %s (volume %s)", key, v.Name)}
			}
		}
	}
	if !rules.EvictUnreplicated && metav1.GetControllerOfNoCopy(pod) == nil {
		return &Blocker{Pod: key, Rule: NotReplicated, Message: "pod not backed by a controller: " + key}
	}
	return nil
}

// budgetSet is the cluster's budgets with their compiled selectors.
type budgetSet struct {
	pdbs      []*policyv1.PodDisruptionBudget
	selectors []pdbmatch.Selector
}

// matching returns the indexes of the budgets covering pod.
func (b budgetSet) matching(pod *corev1.Pod) []int {
	var out []int
	for i, s := range b.selectors {
		if s.Matches(pod) {
			out = append(out, i)
		}
	}
	return out
}
