package safety

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/lifecycle"
)

// Timings of the controllers the model runs, v1.36 defaults.
const (
	// UnreachableEvictionDelay is how long pods stay on a not-ready node
	// before the taint-eviction controller deletes them gracefully (the
	// default 300 s toleration of node.kubernetes.io/unreachable and
	// not-ready; the 40 s node-monitor grace period is folded in).
	UnreachableEvictionDelay = 300 * time.Second
	// MaxWaitForUnmount is the attach-detach controller's force-detach
	// timeout for a volume still reported mounted on an unhealthy node.
	MaxWaitForUnmount = 6 * time.Minute
)

// Config describes the initial cluster: healthy nodes, one StatefulSet-like
// controller owning Identities, each pod with an RWO volume when Volumes.
type Config struct {
	// Nodes are the node names (at least one, unique).
	Nodes []string
	// Identities are the pod names the controller keeps (unique), e.g.
	// web-0, web-1.
	Identities []string
	// TerminationGracePeriodSeconds of the pods (nil = 30).
	TerminationGracePeriodSeconds *int64
	// Volumes gives each identity a ReadWriteOnce volume: attached to at
	// most one node, and a pod only starts on the node it is attached to.
	Volumes bool
	// Start is the model's initial clock.
	Start time.Time
}

// Node is the model's view of one machine and its Node object.
type Node struct {
	// Name is the node's (and machine's) name, from Config.Nodes.
	Name string
	// Exists: the Node object is in the API.
	Exists bool
	// Partitioned: the machine cannot reach the control plane.
	Partitioned bool
	// KubeletUp: the kubelet process runs.
	KubeletUp bool
	// PoweredOn: the machine runs (false after Fence).
	PoweredOn bool
	// OutOfService: the node.kubernetes.io/out-of-service taint is set.
	OutOfService bool
	// NotReadySince is when the node stopped being Ready (zero when Ready).
	NotReadySince time.Time
	// DeletedAt is when the Node object was deleted.
	DeletedAt time.Time

	deleteEvent, outOfServiceEvent int
	// reportedMounts are the identities whose volume the node last reported
	// mounted (stale while it cannot report).
	reportedMounts []string
	// killing holds the kill deadline of each pod the kubelet is
	// terminating (lost when the kubelet crashes).
	killing []killing
}

type killing struct {
	uid types.UID
	at  time.Time
}

// Ready reports whether the node is Ready as the control plane sees it: the
// object exists and its kubelet, running on a powered machine, reports.
func (n *Node) Ready() bool { return n.Exists && !n.Partitioned && n.KubeletUp && n.PoweredOn }

func (n *Node) reachable() bool { return !n.Partitioned && n.KubeletUp && n.PoweredOn }

// Instance is one incarnation of a pod identity actually running (or having
// run) on a machine: the ground truth the control plane cannot always see.
type Instance struct {
	// Identity is the pod identity (the StatefulSet pod name) it runs.
	Identity string
	// UID is the UID of the pod object it was started for; a replacement
	// pod of the same identity has a new UID.
	UID types.UID
	// Node is the machine it runs on.
	Node string
	// Running reports whether its containers still run (false once a
	// kubelet killed it or the machine was fenced).
	Running bool
	// StartedAt is the model time the kubelet started it.
	StartedAt time.Time
	// StartedBy is the index in History of the applied event after which
	// the kubelet started it.
	StartedBy int
	// OrphanedBy is the index of the event that removed this instance's pod
	// object while it was still running without its kubelet's confirmation
	// (-1 when that never happened).
	OrphanedBy int
}

type podObject struct {
	identity string
	pod      *corev1.Pod
}

type volume struct {
	identity      string
	attachedTo    string
	unwantedSince time.Time
}

// Cluster is the pod-safety model: API objects, kubelets, the controllers
// and the ground truth of running containers. Drive it with Apply; it is not
// safe for concurrent use, Clone it for what-if questions.
type Cluster struct {
	cfg       Config
	now       time.Time
	nodes     []*Node
	pods      []*podObject
	instances []*Instance
	volumes   []*volume
	history   []Event
	log       []string
	incidents []Violation
	nextUID   int
}

// New returns the cluster of cfg after the controllers have settled: every
// identity has a pod, scheduled and started. The error wraps
// ErrInvalidConfig, or ErrNotSettled when the controllers do not settle.
func New(cfg Config) (*Cluster, error) {
	if len(cfg.Nodes) == 0 {
		return nil, fmt.Errorf("%w: at least one node is required", ErrInvalidConfig)
	}
	if hasDuplicate(cfg.Nodes) || hasDuplicate(cfg.Identities) || slices.Contains(cfg.Nodes, "") || slices.Contains(cfg.Identities, "") {
		return nil, fmt.Errorf("%w: node and identity names must be unique and non-empty", ErrInvalidConfig)
	}
	if cfg.TerminationGracePeriodSeconds != nil && *cfg.TerminationGracePeriodSeconds < 0 {
		return nil, fmt.Errorf("%w: negative terminationGracePeriodSeconds", ErrInvalidConfig)
	}
	c := &Cluster{cfg: cfg, now: cfg.Start}
	names := slices.Clone(cfg.Nodes)
	slices.Sort(names)
	for _, n := range names {
		c.nodes = append(c.nodes, &Node{Name: n, Exists: true, KubeletUp: true, PoweredOn: true, deleteEvent: -1, outOfServiceEvent: -1})
	}
	if cfg.Volumes {
		for _, id := range cfg.Identities {
			c.volumes = append(c.volumes, &volume{identity: id})
		}
	}
	if err := c.settle(-1); err != nil {
		return nil, err
	}
	return c, nil
}

func hasDuplicate(s []string) bool {
	t := slices.Clone(s)
	slices.Sort(t)
	return len(slices.Compact(t)) != len(s)
}

// Clone returns an independent copy.
func (c *Cluster) Clone() *Cluster {
	d := &Cluster{cfg: c.cfg, now: c.now, nextUID: c.nextUID,
		history: slices.Clone(c.history), log: slices.Clone(c.log), incidents: slices.Clone(c.incidents)}
	for _, n := range c.nodes {
		m := *n
		m.reportedMounts = slices.Clone(n.reportedMounts)
		m.killing = slices.Clone(n.killing)
		d.nodes = append(d.nodes, &m)
	}
	for _, p := range c.pods {
		d.pods = append(d.pods, &podObject{identity: p.identity, pod: p.pod.DeepCopy()})
	}
	for _, i := range c.instances {
		j := *i
		d.instances = append(d.instances, &j)
	}
	for _, v := range c.volumes {
		w := *v
		d.volumes = append(d.volumes, &w)
	}
	return d
}

// Now returns the model's clock.
func (c *Cluster) Now() time.Time { return c.now }

// History returns the events applied so far, in order (indexes used by
// Instance.StartedBy, Instance.OrphanedBy and Violation.AllowedBy).
func (c *Cluster) History() []Event { return slices.Clone(c.history) }

// Log returns what the controllers and kubelets did, one line per action,
// in order.
func (c *Cluster) Log() []string { return slices.Clone(c.log) }

// Nodes returns copies of the nodes in name order.
func (c *Cluster) Nodes() []Node {
	out := make([]Node, 0, len(c.nodes))
	for _, n := range c.nodes {
		m := *n
		m.reportedMounts, m.killing = nil, nil
		out = append(out, m)
	}
	return out
}

// Instances returns copies of every instance ever started, in start order.
func (c *Cluster) Instances() []Instance {
	out := make([]Instance, 0, len(c.instances))
	for _, i := range c.instances {
		out = append(out, *i)
	}
	return out
}

// Running returns the instances of identity that may be running (nobody has
// confirmed them dead), in start order.
func (c *Cluster) Running(identity string) []Instance {
	var out []Instance
	for _, i := range c.instances {
		if i.Identity == identity && i.Running {
			out = append(out, *i)
		}
	}
	return out
}

// Pod returns a copy of the identity's pod object in the API, or nil.
func (c *Cluster) Pod(identity string) *corev1.Pod {
	if p := c.podOf(identity); p != nil {
		return p.pod.DeepCopy()
	}
	return nil
}

// VolumeAttachedTo returns the node the identity's volume is attached to
// ("" when detached or without volumes).
func (c *Cluster) VolumeAttachedTo(identity string) string {
	for _, v := range c.volumes {
		if v.identity == identity {
			return v.attachedTo
		}
	}
	return ""
}

func (c *Cluster) node(name string) *Node {
	for _, n := range c.nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

func (c *Cluster) podOf(identity string) *podObject {
	for _, p := range c.pods {
		if p.identity == identity {
			return p
		}
	}
	return nil
}

func (c *Cluster) logf(format string, args ...any) {
	c.log = append(c.log, c.now.Sub(c.cfg.Start).String()+" "+fmt.Sprintf(format, args...))
}

// Apply applies one event, lets every controller and kubelet settle, and
// returns the log lines of this step. The error wraps ErrInvalidEvent for an
// unknown node or identity, an unknown kind or a negative duration; the
// cluster is then unchanged. It wraps ErrNotSettled when the controllers and
// kubelets still change the model after the round limit of settle; the
// event is then in History, the cluster holds the state of the last round
// and the lines are those written so far. The model is then not a valid
// answer and should be discarded.
func (c *Cluster) Apply(e Event) ([]string, error) {
	if err := c.validate(e); err != nil {
		return nil, err
	}
	idx := len(c.history)
	c.history = append(c.history, e)
	start := len(c.log)
	c.logf("event %s", e)
	n := c.node(e.Node)
	switch e.Kind {
	case Partition:
		n.Partitioned = true
	case Heal:
		n.Partitioned = false
	case CrashKubelet:
		n.KubeletUp = false
		n.killing = nil
	case RestartKubelet:
		n.KubeletUp = true
	case GracefulDelete, ForceDelete:
		if p := c.podOf(e.Identity); p != nil {
			grace := e.GracePeriodSeconds
			if e.Kind == ForceDelete {
				zero := int64(0)
				grace = &zero
			}
			c.deletePod(p, grace, idx, "user")
		}
	case DeleteNode:
		if n.Exists {
			n.Exists = false
			n.DeletedAt = c.now
			n.deleteEvent = idx
		}
	case Fence:
		n.PoweredOn = false
		n.killing = nil
		for _, i := range c.instances {
			if i.Node == n.Name && i.Running {
				i.Running = false
				c.logf("fenced %s: instance %s (%s) is dead", n.Name, i.Identity, i.UID)
			}
		}
	case MarkOutOfService:
		if !n.OutOfService {
			n.OutOfService = true
			n.outOfServiceEvent = idx
		}
	case Advance:
		c.now = c.now.Add(e.Duration)
	}
	err := c.settle(idx)
	return slices.Clone(c.log[start:]), err
}

func (c *Cluster) validate(e Event) error {
	switch e.Kind {
	case Partition, Heal, CrashKubelet, RestartKubelet, DeleteNode, Fence, MarkOutOfService:
		if c.node(e.Node) == nil {
			return fmt.Errorf("%w: %s names unknown node %q", ErrInvalidEvent, e.Kind, e.Node)
		}
	case GracefulDelete, ForceDelete:
		if !slices.Contains(c.cfg.Identities, e.Identity) {
			return fmt.Errorf("%w: %s names unknown identity %q", ErrInvalidEvent, e.Kind, e.Identity)
		}
	case Advance:
		if e.Duration < 0 {
			return fmt.Errorf("%w: negative duration %v", ErrInvalidEvent, e.Duration)
		}
	default:
		return fmt.Errorf("%w: unknown event kind %q", ErrInvalidEvent, e.Kind)
	}
	return nil
}

// deletePod runs a DELETE through lifecycle.Delete; when the object is
// removed while its instance may still run, the instance is orphaned by
// event cause.
func (c *Cluster) deletePod(p *podObject, grace *int64, cause int, who string) {
	var opts *metav1.DeleteOptions
	if grace != nil {
		opts = &metav1.DeleteOptions{GracePeriodSeconds: grace}
	}
	d, err := lifecycle.Delete(p.pod, opts, c.now)
	if err != nil {
		c.logf("%s: delete %s failed: %v", who, p.identity, err)
		return
	}
	if !d.Removed {
		if d.Graceful {
			c.logf("%s: %s marked for deletion, grace %ds", who, p.identity, *d.Pod.DeletionGracePeriodSeconds)
		}
		p.pod = d.Pod
		return
	}
	c.pods = slices.DeleteFunc(c.pods, func(q *podObject) bool { return q == p })
	c.logf("%s: %s (%s) removed from the API", who, p.identity, p.pod.UID)
	for _, i := range c.instances {
		if i.UID == p.pod.UID && i.Running && i.OrphanedBy < 0 {
			i.OrphanedBy = cause
		}
	}
}

// maxSettleRounds bounds settle. Every actor moves objects forward (create,
// bind, attach, start, mark, stop, detach, remove) and handles all objects
// of its kind in one round, so a step settles in a few rounds (every
// scenario, golden and property test here within 4); 64 is far above that
// and only a modelling defect (two actors undoing each other) reaches it.
// Internal tests lower it.
var maxSettleRounds = 64

// settle runs the controllers and kubelets in a fixed order, taint
// eviction, pod GC, attach-detach, the StatefulSet controller and
// scheduler, then each kubelet in node-name order, until a whole round
// leaves the model's state unchanged. The state, not the log, decides:
// several actors change state without a log line (a node's NotReadySince,
// a volume's unwantedSince, the mounts a kubelet reports), and a later round
// may act on them. The error wraps ErrNotSettled when the state still
// changes after maxSettleRounds rounds.
func (c *Cluster) settle(cause int) error {
	prev := c.snapshot()
	for range maxSettleRounds {
		c.evict(cause)
		c.collectGarbage()
		c.attachDetach()
		c.reconcileIdentities()
		for _, n := range c.nodes {
			c.syncKubelet(n, cause)
		}
		cur := c.snapshot()
		if cur.equal(prev) {
			return nil
		}
		prev = cur
	}
	return fmt.Errorf("%w: still changing after %d rounds", ErrNotSettled, maxSettleRounds)
}

// modelState is what the actors of settle may change: everything but the
// clock, the config, the history and the log.
type modelState struct {
	nodes     []Node
	pods      []podState
	instances []Instance
	volumes   []volume
	incidents int
	nextUID   int
}

// podState is a shallow copy of a pod object. The actors either replace a
// pod object (lifecycle.Delete returns a new one) or set fields held by
// value in it (Spec.NodeName, Status.Phase); they never write through its
// slices, maps or pointers, so the copy sees every change without a deep
// copy, and reflect.DeepEqual stops at shared pointers at once.
type podState struct {
	identity string
	pod      corev1.Pod
}

// snapshot copies the model's state.
func (c *Cluster) snapshot() modelState {
	s := modelState{incidents: len(c.incidents), nextUID: c.nextUID,
		nodes: make([]Node, len(c.nodes)), pods: make([]podState, len(c.pods)),
		instances: make([]Instance, len(c.instances)), volumes: make([]volume, len(c.volumes))}
	for i, n := range c.nodes {
		s.nodes[i] = *n
		s.nodes[i].reportedMounts = slices.Clone(n.reportedMounts)
		s.nodes[i].killing = slices.Clone(n.killing)
	}
	for i, p := range c.pods {
		s.pods[i] = podState{identity: p.identity, pod: *p.pod}
	}
	for i, in := range c.instances {
		s.instances[i] = *in
	}
	for i, v := range c.volumes {
		s.volumes[i] = *v
	}
	return s
}

// equal compares two snapshots; nil and empty slices alike.
func (s modelState) equal(t modelState) bool {
	if s.incidents != t.incidents || s.nextUID != t.nextUID ||
		!slices.EqualFunc(s.nodes, t.nodes, nodeEqual) ||
		!slices.EqualFunc(s.instances, t.instances, instanceEqual) ||
		!slices.EqualFunc(s.volumes, t.volumes, func(a, b volume) bool {
			return a.identity == b.identity && a.attachedTo == b.attachedTo && a.unwantedSince.Equal(b.unwantedSince)
		}) {
		return false
	}
	return slices.EqualFunc(s.pods, t.pods, func(a, b podState) bool {
		return a.identity == b.identity && reflect.DeepEqual(a.pod, b.pod)
	})
}

func nodeEqual(a, b Node) bool {
	return a.Name == b.Name && a.Exists == b.Exists && a.Partitioned == b.Partitioned &&
		a.KubeletUp == b.KubeletUp && a.PoweredOn == b.PoweredOn && a.OutOfService == b.OutOfService &&
		a.NotReadySince.Equal(b.NotReadySince) && a.DeletedAt.Equal(b.DeletedAt) &&
		a.deleteEvent == b.deleteEvent && a.outOfServiceEvent == b.outOfServiceEvent &&
		slices.Equal(a.reportedMounts, b.reportedMounts) &&
		slices.EqualFunc(a.killing, b.killing, func(x, y killing) bool { return x.uid == y.uid && x.at.Equal(y.at) })
}

func instanceEqual(a, b Instance) bool {
	return a.Identity == b.Identity && a.UID == b.UID && a.Node == b.Node && a.Running == b.Running &&
		a.StartedAt.Equal(b.StartedAt) && a.StartedBy == b.StartedBy && a.OrphanedBy == b.OrphanedBy
}

// evict is the taint-eviction controller: pods on a node not Ready for
// UnreachableEvictionDelay, or carrying the out-of-service taint, are
// deleted gracefully. A pod whose grace period is 0 is thereby
// force-deleted; the event being settled (cause) is then named as the one
// that allowed it.
func (c *Cluster) evict(cause int) {
	for _, n := range c.nodes {
		if n.Ready() {
			n.NotReadySince = time.Time{}
			continue
		}
		if n.NotReadySince.IsZero() {
			n.NotReadySince = c.now
		}
		if !n.Exists || (!n.OutOfService && c.now.Sub(n.NotReadySince) < UnreachableEvictionDelay) {
			continue
		}
		for _, p := range slices.Clone(c.pods) {
			if p.pod.Spec.NodeName == n.Name && p.pod.DeletionTimestamp == nil {
				c.deletePod(p, nil, cause, "taint-eviction")
			}
		}
	}
}

// collectGarbage runs lifecycle.CollectGarbage on the API objects: pods on
// deleted nodes and terminating pods on out-of-service nodes are
// force-deleted; the cause is the node's deletion or its taint.
func (c *Cluster) collectGarbage() {
	in := lifecycle.GCInput{Now: c.now}
	byName := map[string]*podObject{}
	for _, p := range c.pods {
		in.Pods = append(in.Pods, p.pod)
		byName[p.pod.Name] = p
	}
	for _, n := range c.nodes {
		if n.Exists {
			node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.Name}}
			st := corev1.ConditionUnknown
			if n.Ready() {
				st = corev1.ConditionTrue
			}
			node.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: st}}
			if n.OutOfService {
				node.Spec.Taints = []corev1.Taint{{Key: corev1.TaintNodeOutOfService, Effect: corev1.TaintEffectNoExecute}}
			}
			in.Nodes = append(in.Nodes, node)
		} else {
			in.MissingSince = append(in.MissingSince, lifecycle.MissingNode{Name: n.Name, Since: n.DeletedAt})
		}
	}
	acts, err := lifecycle.CollectGarbage(in)
	if err != nil {
		c.logf("podgc: %v", err)
		return
	}
	for _, a := range acts {
		p := byName[a.Name]
		if p == nil || c.podOf(p.identity) != p {
			continue
		}
		cause := -1
		if n := c.node(p.pod.Spec.NodeName); n != nil {
			switch a.Reason {
			case lifecycle.GCOrphaned:
				cause = n.deleteEvent
			case lifecycle.GCTerminatingOutOfService:
				cause = n.outOfServiceEvent
			}
		}
		zero := int64(0)
		c.deletePod(p, &zero, cause, "podgc("+string(a.Reason)+")")
	}
}

// attachDetach is the attach-detach controller for the RWO volumes: detach
// from a node no pod object wants it on once the node reports it unmounted,
// at once on an out-of-service node, or after MaxWaitForUnmount on an
// unhealthy node; attach to the node of the identity's live pod object.
func (c *Cluster) attachDetach() {
	for _, v := range c.volumes {
		p := c.podOf(v.identity)
		if v.attachedTo != "" {
			if p != nil && p.pod.Spec.NodeName == v.attachedTo {
				v.unwantedSince = time.Time{}
				continue
			}
			if v.unwantedSince.IsZero() {
				v.unwantedSince = c.now
			}
			n := c.node(v.attachedTo)
			mounted := slices.Contains(n.reportedMounts, v.identity)
			timedOut := !n.Ready() && c.now.Sub(v.unwantedSince) >= MaxWaitForUnmount
			if mounted && !n.OutOfService && !timedOut {
				continue
			}
			how := "detached"
			if mounted {
				how = "force-detached"
			}
			c.logf("attach-detach: volume of %s %s from %s", v.identity, how, v.attachedTo)
			v.attachedTo, v.unwantedSince = "", time.Time{}
		}
		if p != nil && p.pod.Spec.NodeName != "" && p.pod.DeletionTimestamp == nil {
			if n := c.node(p.pod.Spec.NodeName); n != nil && n.Exists {
				v.attachedTo = n.Name
				c.logf("attach-detach: volume of %s attached to %s", v.identity, n.Name)
			}
		}
	}
}

// reconcileIdentities is the StatefulSet controller (create a pod for each
// identity without one) and the scheduler (bind a pending pod to the Ready
// node without out-of-service taint holding the fewest pods, lowest name
// first).
func (c *Cluster) reconcileIdentities() {
	for _, id := range c.cfg.Identities {
		if c.podOf(id) != nil {
			continue
		}
		c.nextUID++
		uid := types.UID(fmt.Sprintf("%s-%d", id, c.nextUID))
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: id, Namespace: "default", UID: uid, Generation: 1, CreationTimestamp: metav1.NewTime(c.now)},
			Spec: corev1.PodSpec{
				Containers:                    []corev1.Container{{Name: "app", Image: "app"}},
				TerminationGracePeriodSeconds: c.cfg.TerminationGracePeriodSeconds,
			},
			Status: corev1.PodStatus{Phase: corev1.PodPending},
		}
		c.pods = append(c.pods, &podObject{identity: id, pod: pod})
		c.logf("statefulset: created %s (%s)", id, uid)
	}
	for _, p := range c.pods {
		if p.pod.Spec.NodeName != "" || p.pod.DeletionTimestamp != nil {
			continue
		}
		var best *Node
		bestLoad := 0
		for _, n := range c.nodes {
			if !n.Ready() || n.OutOfService {
				continue
			}
			load := 0
			for _, q := range c.pods {
				if q.pod.Spec.NodeName == n.Name {
					load++
				}
			}
			if best == nil || load < bestLoad {
				best, bestLoad = n, load
			}
		}
		if best != nil {
			p.pod.Spec.NodeName = best.Name
			c.logf("scheduler: bound %s to %s", p.identity, best.Name)
		}
	}
}

// syncKubelet is one sync of a reachable kubelet: kill instances whose pod
// object is gone, run the kill sequence of pods being deleted and confirm
// their deletion, start pods bound here (once their volume is attached), and
// report mounted volumes.
func (c *Cluster) syncKubelet(n *Node, cause int) {
	if !n.reachable() {
		return
	}
	for _, i := range c.instances {
		if i.Node != n.Name || !i.Running {
			continue
		}
		if p := c.podOf(i.Identity); p == nil || p.pod.UID != i.UID {
			i.Running = false
			c.logf("kubelet %s: killed %s (%s), its pod object is gone", n.Name, i.Identity, i.UID)
		}
	}
	for _, p := range slices.Clone(c.pods) {
		if p.pod.Spec.NodeName != n.Name || !n.Exists {
			continue
		}
		inst := c.instanceOf(p.pod.UID)
		if p.pod.DeletionTimestamp != nil {
			if inst != nil && inst.Running {
				k := slices.IndexFunc(n.killing, func(k killing) bool { return k.uid == p.pod.UID })
				if k < 0 {
					grace, err := lifecycle.EffectiveGracePeriod(0, p.pod, nil)
					if err != nil {
						c.logf("kubelet %s: %v", n.Name, err)
						continue
					}
					plan, err := lifecycle.PlanKill(p.pod, "app", &grace, c.now, 0)
					if err != nil {
						c.logf("kubelet %s: %v", n.Name, err)
						continue
					}
					n.killing = append(n.killing, killing{uid: p.pod.UID, at: plan.KillAt})
					c.logf("kubelet %s: stopping %s, kill at +%s", n.Name, p.identity, plan.KillAt.Sub(c.now))
					k = len(n.killing) - 1
				}
				if c.now.Before(n.killing[k].at) {
					continue
				}
				inst.Running = false
				n.killing = slices.Delete(n.killing, k, k+1)
				c.logf("kubelet %s: %s (%s) stopped", n.Name, p.identity, p.pod.UID)
			}
			zero := int64(0)
			c.deletePod(p, &zero, -1, "kubelet "+n.Name+" confirms")
			continue
		}
		if inst != nil {
			continue
		}
		if c.cfg.Volumes && c.VolumeAttachedTo(p.identity) != n.Name {
			continue
		}
		ni := &Instance{Identity: p.identity, UID: p.pod.UID, Node: n.Name, Running: true, StartedAt: c.now, StartedBy: cause, OrphanedBy: -1}
		c.instances = append(c.instances, ni)
		p.pod.Status.Phase = corev1.PodRunning
		c.logf("kubelet %s: started %s (%s)", n.Name, p.identity, p.pod.UID)
		if running := c.Running(p.identity); len(running) > 1 {
			v := Violation{Identity: p.identity, Instances: running, AllowedBy: allowedBy(running), At: c.now}
			c.incidents = append(c.incidents, v)
			c.logf("VIOLATION: %d instances of %s running", len(running), p.identity)
		}
	}
	n.reportedMounts = n.reportedMounts[:0]
	for _, i := range c.instances {
		if i.Node == n.Name && i.Running && c.cfg.Volumes {
			n.reportedMounts = append(n.reportedMounts, i.Identity)
		}
	}
}

func (c *Cluster) instanceOf(uid types.UID) *Instance {
	for _, i := range c.instances {
		if i.UID == uid {
			return i
		}
	}
	return nil
}

// Violation is a state where several instances of one identity may run.
type Violation struct {
	// Identity is the pod identity with more than one running instance.
	Identity string
	// Instances are the running instances, in start order.
	Instances []Instance
	// AllowedBy is the index in History of the unsafe event that let it
	// happen: the one that removed an older instance's pod object without
	// confirmation (-1 if none is known, which the model never produces).
	AllowedBy int
	// At is the model time the extra instance started.
	At time.Time
}

func allowedBy(running []Instance) int {
	for _, i := range running[:len(running)-1] {
		if i.OrphanedBy >= 0 {
			return i.OrphanedBy
		}
	}
	return -1
}

// Verdict answers the at-most-one question for the current state.
type Verdict struct {
	// AtMostOne holds when no identity has two instances that may run.
	AtMostOne bool
	// Violations lists the identities that do, in identity order of the
	// config.
	Violations []Violation
}

// Check returns the verdict for the current state.
func (c *Cluster) Check() Verdict {
	v := Verdict{AtMostOne: true}
	for _, id := range c.cfg.Identities {
		running := c.Running(id)
		if len(running) > 1 {
			v.AtMostOne = false
			v.Violations = append(v.Violations, Violation{Identity: id, Instances: running, AllowedBy: allowedBy(running), At: running[len(running)-1].StartedAt})
		}
	}
	return v
}

// Incidents returns every violation that ever began, in order (a state may
// have healed since, e.g. when the partitioned kubelet came back and killed
// its orphan).
func (c *Cluster) Incidents() []Violation { return slices.Clone(c.incidents) }

// Explain renders a violation with the event that allowed it.
func (c *Cluster) Explain(v Violation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d instances of %s may be running:", len(v.Instances), v.Identity)
	for _, i := range v.Instances {
		fmt.Fprintf(&b, " %s on %s;", i.UID, i.Node)
	}
	if v.AllowedBy >= 0 && v.AllowedBy < len(c.history) {
		fmt.Fprintf(&b, " allowed by event #%d %s", v.AllowedBy, c.history[v.AllowedBy])
	} else {
		b.WriteString(" allowed by no known event")
	}
	return b.String()
}
