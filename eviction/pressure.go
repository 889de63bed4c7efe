package eviction

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/podcond"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/lifecycle"
	"github.com/schedkit/schedkit/preemption"
)

// Kubelet node-pressure eviction texts and values (pkg/kubelet/eviction,
// v1.36).
const (
	// ReasonEvicted is the status reason of a pod the kubelet evicted, and
	// of a pod it refuses to admit under pressure.
	ReasonEvicted = "Evicted"
	// ImmediateEvictionGracePeriodSeconds is the grace period of an
	// eviction for a hard threshold.
	ImmediateEvictionGracePeriodSeconds = 1
	// SystemCriticalPriority is the priority from which a pod is critical
	// (system-cluster-critical and system-node-critical): the scheduling
	// API's value, preemption.SystemCriticalPriority.
	SystemCriticalPriority = preemption.SystemCriticalPriority
)

// ErrInvalidThreshold wraps threshold parse errors.
var ErrInvalidThreshold = errors.New("eviction: invalid threshold")

// ThresholdValue is a quantity, or a percentage of the capacity when
// Quantity is nil.
type ThresholdValue struct {
	// Quantity is the absolute value; nil when the value is a percentage.
	Quantity *resource.Quantity
	// Percentage is a fraction of the signal's capacity (0.1 for "10%"),
	// used when Quantity is nil; the absolute value truncates, as
	// evictionapi.GetThresholdQuantity does.
	Percentage float32
}

// Threshold is a kubelet eviction threshold: the signal is met when
// available < Value. GracePeriod 0 makes it a hard threshold.
type Threshold struct {
	// Signal is the observed signal the threshold applies to.
	Signal Signal
	// Value is the level below which the threshold is met.
	Value ThresholdValue
	// GracePeriod is how long a soft threshold must stay met before it
	// acts (--eviction-soft-grace-period); 0 for a hard threshold.
	GracePeriod time.Duration
	// MinReclaim is the extra amount to reclaim once the threshold is met
	// (--eviction-minimum-reclaim); nil for none.
	MinReclaim *ThresholdValue
}

// IsHard reports whether t is a hard threshold (no grace period): its
// evictions get ImmediateEvictionGracePeriodSeconds.
func (t Threshold) IsHard() bool { return t.GracePeriod == 0 }

// quantity returns the threshold in absolute terms for a capacity
// (evictionapi.GetThresholdQuantity: percentages truncate).
func (v ThresholdValue) quantity(capacity resource.Quantity) resource.Quantity {
	if v.Quantity != nil {
		return v.Quantity.DeepCopy()
	}
	return *resource.NewQuantity(int64(float64(capacity.Value())*float64(v.Percentage)), resource.BinarySI)
}

// signalResource maps each signal to the resource it reclaims; only these
// signals are valid.
var signalResource = map[Signal]corev1.ResourceName{
	SignalMemoryAvailable:            corev1.ResourceMemory,
	SignalAllocatableMemoryAvailable: corev1.ResourceMemory,
	SignalImageFsAvailable:           corev1.ResourceEphemeralStorage,
	SignalImageFsInodesFree:          "inodes",
	SignalContainerFsAvailable:       corev1.ResourceEphemeralStorage,
	SignalContainerFsInodesFree:      "inodes",
	SignalNodeFsAvailable:            corev1.ResourceEphemeralStorage,
	SignalNodeFsInodesFree:           "inodes",
	SignalPIDAvailable:               "pids",
}

// signalCondition maps each signal to the node condition it raises.
var signalCondition = map[Signal]corev1.NodeConditionType{
	SignalMemoryAvailable:            corev1.NodeMemoryPressure,
	SignalAllocatableMemoryAvailable: corev1.NodeMemoryPressure,
	SignalImageFsAvailable:           corev1.NodeDiskPressure,
	SignalContainerFsAvailable:       corev1.NodeDiskPressure,
	SignalNodeFsAvailable:            corev1.NodeDiskPressure,
	SignalImageFsInodesFree:          corev1.NodeDiskPressure,
	SignalNodeFsInodesFree:           corev1.NodeDiskPressure,
	SignalContainerFsInodesFree:      corev1.NodeDiskPressure,
	SignalPIDAvailable:               corev1.NodePIDPressure,
}

// DefaultHardEviction returns the kubelet's default --eviction-hard on
// Linux (DefaultEvictionHard in pkg/kubelet/eviction/defaults_linux.go, as
// of v1.36), a new map on each call (a function, so that no caller can
// change the defaults for everyone).
func DefaultHardEviction() map[string]string {
	return map[string]string{
		"memory.available":   "100Mi",
		"nodefs.available":   "10%",
		"nodefs.inodesFree":  "5%",
		"imagefs.available":  "15%",
		"imagefs.inodesFree": "5%",
	}
}

// DefaultHardThresholds returns the Linux default hard thresholds
// (DefaultHardEviction parsed as ParseThresholds does), a new slice in
// signal order.
func DefaultHardThresholds() []Threshold {
	t, err := ParseThresholds(DefaultHardEviction(), nil, nil, nil)
	if err != nil {
		panic(err) // unreachable: the defaults parse
	}
	return t
}

// ParseThresholds parses the kubelet's --eviction-hard, --eviction-soft,
// --eviction-soft-grace-period and --eviction-minimum-reclaim maps as
// ParseThresholdConfig does (0% and 100% thresholds are ignored; a soft
// threshold needs a grace period). Hard thresholds come first, each group in
// signal order (upstream: map order). Errors wrap ErrInvalidThreshold.
func ParseThresholds(hard, soft, softGrace, minReclaim map[string]string) ([]Threshold, error) {
	hs, err := parseStatements(hard)
	if err != nil {
		return nil, err
	}
	ss, err := parseStatements(soft)
	if err != nil {
		return nil, err
	}
	graces := map[Signal]time.Duration{}
	for _, k := range sortedStringKeys(softGrace) {
		s := Signal(k)
		if _, ok := signalResource[s]; !ok {
			return nil, fmt.Errorf("%w: unsupported eviction signal %v", ErrInvalidThreshold, s)
		}
		d, err := time.ParseDuration(softGrace[k])
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidThreshold, err)
		}
		if d < 0 {
			return nil, fmt.Errorf("%w: invalid eviction grace period specified: %v, must be a positive value", ErrInvalidThreshold, softGrace[k])
		}
		graces[s] = d
	}
	reclaims := map[Signal]ThresholdValue{}
	for _, k := range sortedStringKeys(minReclaim) {
		s := Signal(k)
		if _, ok := signalResource[s]; !ok {
			return nil, fmt.Errorf("%w: unsupported eviction signal %v", ErrInvalidThreshold, s)
		}
		v := minReclaim[k]
		if strings.HasSuffix(v, "%") {
			p, err := parsePercent(v)
			if err != nil {
				return nil, err
			}
			if p <= 0 {
				return nil, fmt.Errorf("%w: eviction percentage minimum reclaim %v must be positive: %s", ErrInvalidThreshold, s, v)
			}
			reclaims[s] = ThresholdValue{Percentage: p}
			continue
		}
		q, err := parseQuantity(v)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidThreshold, err)
		}
		if q.Sign() < 0 {
			return nil, fmt.Errorf("%w: negative eviction minimum reclaim specified for %v", ErrInvalidThreshold, s)
		}
		reclaims[s] = ThresholdValue{Quantity: &q}
	}
	for i := range ss {
		d, ok := graces[ss[i].Signal]
		if !ok {
			return nil, fmt.Errorf("%w: grace period must be specified for the soft eviction threshold %v", ErrInvalidThreshold, ss[i].Signal)
		}
		ss[i].GracePeriod = d
	}
	out := append(hs, ss...)
	for i := range out {
		if r, ok := reclaims[out[i].Signal]; ok {
			r := r
			out[i].MinReclaim = &r
		}
	}
	return out, nil
}

func parseStatements(m map[string]string) ([]Threshold, error) {
	var out []Threshold
	for _, k := range sortedStringKeys(m) {
		s, v := Signal(k), m[k]
		if _, ok := signalResource[s]; !ok {
			return nil, fmt.Errorf("%w: unsupported eviction signal %v", ErrInvalidThreshold, s)
		}
		if strings.HasSuffix(v, "%") {
			if v == "0%" || v == "100%" {
				continue
			}
			p, err := parsePercent(v)
			if err != nil {
				return nil, err
			}
			if p < 0 {
				return nil, fmt.Errorf("%w: eviction percentage threshold %v must be >= 0%%: %s", ErrInvalidThreshold, s, v)
			}
			if p > 1 {
				return nil, fmt.Errorf("%w: eviction percentage threshold %v must be <= 100%%: %s", ErrInvalidThreshold, s, v)
			}
			out = append(out, Threshold{Signal: s, Value: ThresholdValue{Percentage: p}})
			continue
		}
		q, err := parseQuantity(v)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrInvalidThreshold, s, err)
		}
		if q.Sign() <= 0 {
			return nil, fmt.Errorf("%w: eviction threshold %v must be positive: %s", ErrInvalidThreshold, s, &q)
		}
		out = append(out, Threshold{Signal: s, Value: ThresholdValue{Quantity: &q}})
	}
	return out, nil
}

// maxQuantityExponent bounds the decimal exponent of a threshold quantity
// ("4e12"): int64 quantities end below 1e19, and resource.ParseQuantity
// does not return on an exponent of a trillion (the kubelet, which parses
// its flags with it, hangs on such a threshold; here it is an error).
const maxQuantityExponent = 100

var decimalExponent = regexp.MustCompile(`^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE]([+-]?[0-9]+)$`)

// parseQuantity is resource.ParseQuantity for a threshold, refusing a
// decimal exponent beyond maxQuantityExponent.
func parseQuantity(v string) (resource.Quantity, error) {
	if m := decimalExponent.FindStringSubmatch(v); m != nil {
		if e, err := strconv.ParseInt(m[1], 10, 64); err != nil || e > maxQuantityExponent || e < -maxQuantityExponent {
			return resource.Quantity{}, fmt.Errorf("quantity %q: exponent out of range", v)
		}
	}
	return resource.ParseQuantity(v)
}

func parsePercent(v string) (float32, error) {
	f, err := strconv.ParseFloat(strings.TrimRight(v, "%"), 32)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalidThreshold, err)
	}
	return float32(f) / 100, nil
}

func sortedStringKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Observation is one signal's observed availability and capacity.
type Observation struct {
	// Available is what is left of the resource (bytes, inodes or PIDs).
	Available resource.Quantity
	// Capacity is the resource's total, the base of percentage thresholds.
	Capacity resource.Quantity
}

// ThresholdsMet returns the thresholds whose signal is observed with
// available below the threshold (plus its minimum reclaim when
// enforceMinReclaim, the rule for thresholds already met), as thresholdsMet
// in pkg/kubelet/eviction/helpers.go as of v1.36, in input order, as a new
// slice. Signals without observation are not met. Nothing is modified.
func ThresholdsMet(thresholds []Threshold, obs map[Signal]Observation, enforceMinReclaim bool) []Threshold {
	var out []Threshold
	for _, t := range thresholds {
		o, ok := obs[t.Signal]
		if !ok {
			continue
		}
		q := t.Value.quantity(o.Capacity)
		if enforceMinReclaim && t.MinReclaim != nil {
			q.Add(t.MinReclaim.quantity(o.Capacity))
		}
		if q.Cmp(o.Available) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// GracePeriodMet returns the thresholds among met, first observed at
// firstObserved[i] (index-aligned with met), whose grace period has elapsed
// at now: hard thresholds always. Mirrors thresholdsMetGracePeriod in
// pkg/kubelet/eviction/helpers.go as of v1.36; the result is a new slice in
// the order of met, and the arguments are not modified.
func GracePeriodMet(met []Threshold, firstObserved []time.Time, now time.Time) []Threshold {
	var out []Threshold
	for i, t := range met {
		if i < len(firstObserved) && now.Sub(firstObserved[i]) < t.GracePeriod {
			continue
		}
		out = append(out, t)
	}
	return out
}

// NodeConditions returns the pressure conditions the thresholds raise,
// each once, in first-seen order, as nodeConditions in
// pkg/kubelet/eviction/helpers.go as of v1.36. Signals without a condition
// raise none; the argument is not modified.
func NodeConditions(thresholds []Threshold) []corev1.NodeConditionType {
	var out []corev1.NodeConditionType
	for _, t := range thresholds {
		c, ok := signalCondition[t.Signal]
		if !ok {
			continue
		}
		dup := false
		for _, x := range out {
			dup = dup || x == c
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

// ReclaimThreshold picks the threshold the kubelet acts on first among met
// (byEvictionPriority: memory signals first) and the resource it reclaims;
// ok is false when none is reclaimable. Mirrors getReclaimableThreshold in
// pkg/kubelet/eviction/helpers.go as of v1.36; met is not modified (it is
// sorted in a copy, stably, where upstream sorts in place). Upstream's met
// comes from a map, so among several memory thresholds (memory.available
// and allocatableMemory.available, or a hard and a soft one) its pick is
// arbitrary; schedkit takes the first in met's order.
func ReclaimThreshold(met []Threshold) (t Threshold, res corev1.ResourceName, ok bool) {
	ts := append([]Threshold(nil), met...)
	sort.SliceStable(ts, func(i, j int) bool {
		return isMemorySignal(ts[i].Signal) && !isMemorySignal(ts[j].Signal)
	})
	for _, t := range ts {
		if r, ok := signalResource[t.Signal]; ok {
			return t, r, true
		}
	}
	return Threshold{}, "", false
}

func isMemorySignal(s Signal) bool {
	return s == SignalMemoryAvailable || s == SignalAllocatableMemoryAvailable
}

// IsCriticalPod is kubelettypes.IsCriticalPod: static pods (config source
// not "api"), mirror pods and pods of priority SystemCriticalPriority or
// more. The kubelet never evicts them under pressure and always admits them.
// A nil pod is not critical.
func IsCriticalPod(pod *corev1.Pod) bool {
	if pod == nil {
		return false
	}
	if lifecycle.IsStaticPod(pod) {
		return true
	}
	if _, ok := pod.Annotations[corev1.MirrorPodAnnotationKey]; ok {
		return true
	}
	return sched.PodPriority(pod) >= SystemCriticalPriority
}

// Victim is the pod one eviction cycle evicts under pressure.
type Victim struct {
	// Pod is the input pod chosen (not a copy; Status is its new status).
	Pod *corev1.Pod
	// GracePeriodSeconds is the grace the kubelet gives: 1 for a hard
	// threshold, else min(maxPodGracePeriodSeconds, the pod's
	// terminationGracePeriodSeconds).
	GracePeriodSeconds int64
	// Message is the eviction message, starting with "The node was low on
	// resource: R. " and, when the observation is known, the threshold met.
	Message string
	// Status is the pod's new status: phase Failed, reason Evicted, the
	// message and a DisruptionTarget condition (TerminationByKubelet).
	Status *corev1.PodStatus
}

// PressureOptions configure SelectVictim.
type PressureOptions struct {
	// Layout is the node's filesystem layout (disk signals).
	Layout FsLayout
	// MaxPodGracePeriodSeconds is --eviction-max-pod-grace-period (0 here
	// means the kubelet's default, 0, so soft evictions get no grace unless
	// the pod asks for less; set it to what the kubelet runs with).
	MaxPodGracePeriodSeconds int64
	// Observations give the threshold quantity and availability in the
	// message (optional).
	Observations map[Signal]Observation
	// Now stamps the DisruptionTarget condition.
	Now time.Time
}

// SelectVictim is one cycle of the kubelet's eviction manager
// (managerImpl.synchronize after the thresholds are known, v1.36): among the
// thresholds whose grace period has passed it picks the one to reclaim,
// ranks pods for its signal and evicts the first that is not critical; one
// pod per cycle. ok is false when nothing is to be reclaimed or every pod is
// critical. Nothing is modified.
func SelectVictim(met []Threshold, pods []*corev1.Pod, stats StatsFunc, opts PressureOptions) (v Victim, ok bool) {
	t, res, ok := ReclaimThreshold(met)
	if !ok || len(pods) == 0 {
		return Victim{}, false
	}
	ranked := Rank(t.Signal, opts.Layout, pods, stats)
	for _, p := range ranked {
		if IsCriticalPod(p) {
			continue
		}
		grace := int64(ImmediateEvictionGracePeriodSeconds)
		if !t.IsHard() {
			grace = opts.MaxPodGracePeriodSeconds
			if p.Spec.TerminationGracePeriodSeconds != nil {
				grace = min(grace, *p.Spec.TerminationGracePeriodSeconds)
			}
		}
		msg := fmt.Sprintf("The node was low on resource: %v. ", res)
		for _, mt := range met {
			if signalResource[mt.Signal] != res {
				continue
			}
			if o, ok := opts.Observations[mt.Signal]; ok {
				q := mt.Value.quantity(o.Capacity)
				msg += fmt.Sprintf("Threshold quantity: %v, available: %v. ", &q, &o.Available)
			}
			break
		}
		return Victim{Pod: p, GracePeriodSeconds: grace, Message: msg, Status: EvictedStatus(p, msg, opts.Now)}, true
	}
	return Victim{}, false
}

// EvictedStatus returns the status the kubelet writes for a pod it evicts
// under pressure: a copy of the pod's status with phase Failed, reason
// Evicted, the message, and a DisruptionTarget condition with reason
// TerminationByKubelet stamped with the pod's generation and now. Mirrors
// managerImpl.evictPod's status update (pkg/kubelet/eviction/
// eviction_manager.go, as of v1.36). The pod is not modified; a nil pod
// gives nil.
func EvictedStatus(pod *corev1.Pod, message string, now time.Time) *corev1.PodStatus {
	if pod == nil {
		return nil
	}
	st := pod.Status.DeepCopy()
	st.Phase = corev1.PodFailed
	st.Reason = ReasonEvicted
	st.Message = message
	podcond.Set(st, corev1.PodCondition{
		Type:               corev1.DisruptionTarget,
		Status:             corev1.ConditionTrue,
		Reason:             corev1.PodReasonTerminationByKubelet,
		Message:            message,
		ObservedGeneration: pod.Generation,
		LastTransitionTime: metav1.NewTime(now),
	})
	return st
}

// PressureAdmission is the eviction manager's admission verdict.
type PressureAdmission struct {
	// Admit reports whether the pod is admitted.
	Admit bool
	// Reason is ReasonEvicted for a rejection, "" when admitted.
	Reason string
	// Message is the rejection text, "The node had condition: [...]. ",
	// "" when admitted.
	Message string
}

// AdmitUnderPressure is the eviction manager's admission of a new pod on a node with the
// given pressure conditions (managerImpl.Admit, v1.36): without pressure
// everything is admitted; critical pods always; under MemoryPressure alone a
// pod that is not BestEffort, or a BestEffort pod tolerating the
// node.kubernetes.io/memory-pressure NoSchedule taint; every other case is
// rejected with reason Evicted and "The node had condition: [...]. ".
func AdmitUnderPressure(pod *corev1.Pod, conditions []corev1.NodeConditionType) PressureAdmission {
	if len(conditions) == 0 || IsCriticalPod(pod) {
		return PressureAdmission{Admit: true}
	}
	if len(conditions) == 1 && conditions[0] == corev1.NodeMemoryPressure {
		if !isBestEffort(pod) {
			return PressureAdmission{Admit: true}
		}
		taint := corev1.Taint{Key: corev1.TaintNodeMemoryPressure, Effect: corev1.TaintEffectNoSchedule}
		for i := range pod.Spec.Tolerations {
			if ToleratesTaint(&pod.Spec.Tolerations[i], &taint) {
				return PressureAdmission{Admit: true}
			}
		}
	}
	return PressureAdmission{Reason: ReasonEvicted, Message: fmt.Sprintf("The node had condition: %v. ", conditions)}
}

// isBestEffort is the QoS rule: no container (init or regular) and no
// pod-level resources request or limit cpu or memory.
func isBestEffort(pod *corev1.Pod) bool {
	has := func(rl corev1.ResourceList) bool {
		for n, q := range rl {
			if (n == corev1.ResourceCPU || n == corev1.ResourceMemory) && !q.IsZero() {
				return true
			}
		}
		return false
	}
	if r := pod.Spec.Resources; r != nil && (has(r.Requests) || has(r.Limits)) {
		return false
	}
	for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			if has(cs[i].Resources.Requests) || has(cs[i].Resources.Limits) {
				return false
			}
		}
	}
	return true
}

// FsStats is a filesystem's capacity and free space as the kubelet's
// summary reports them (nil: not reported).
type FsStats struct {
	// AvailableBytes and CapacityBytes make the filesystem's *.available
	// signal (both needed).
	AvailableBytes, CapacityBytes *uint64
	// InodesFree and Inodes make its *.inodesFree signal (both needed).
	InodesFree, Inodes *uint64
}

// NodeStats is the part of the kubelet's node summary the eviction signals
// are made of (nil fields: not reported).
type NodeStats struct {
	// MemoryAvailableBytes and MemoryWorkingSetBytes are the node's memory
	// (memory.available; capacity = available + working set).
	MemoryAvailableBytes, MemoryWorkingSetBytes *uint64
	// AllocatableAvailableBytes and AllocatableWorkingSetBytes are the same
	// for the pods cgroup (allocatableMemory.available).
	AllocatableAvailableBytes, AllocatableWorkingSetBytes *uint64
	// NodeFs, ImageFs, ContainerFs are the node, image and container
	// filesystems (nil: no separate filesystem).
	NodeFs, ImageFs, ContainerFs *FsStats
	// MaxPID and RunningProcesses make pid.available.
	MaxPID, RunningProcesses *uint64
}

// Observe turns node stats into signal observations as the kubelet's
// makeSignalObservations (pkg/kubelet/eviction/helpers.go, Linux, as of
// v1.36) does: a signal is observed only when both of its numbers are
// reported. It returns a new map (read it by signal, not in map order).
func Observe(s NodeStats) map[Signal]Observation {
	out := map[Signal]Observation{}
	bin := func(v uint64) resource.Quantity { return *resource.NewQuantity(int64(v), resource.BinarySI) }
	dec := func(v uint64) resource.Quantity { return *resource.NewQuantity(int64(v), resource.DecimalSI) }
	if s.MemoryAvailableBytes != nil && s.MemoryWorkingSetBytes != nil {
		out[SignalMemoryAvailable] = Observation{Available: bin(*s.MemoryAvailableBytes), Capacity: bin(*s.MemoryAvailableBytes + *s.MemoryWorkingSetBytes)}
	}
	if s.AllocatableAvailableBytes != nil && s.AllocatableWorkingSetBytes != nil {
		out[SignalAllocatableMemoryAvailable] = Observation{Available: bin(*s.AllocatableAvailableBytes), Capacity: bin(*s.AllocatableAvailableBytes + *s.AllocatableWorkingSetBytes)}
	}
	fs := func(f *FsStats, bytes, inodes Signal) {
		if f == nil {
			return
		}
		if f.AvailableBytes != nil && f.CapacityBytes != nil {
			out[bytes] = Observation{Available: bin(*f.AvailableBytes), Capacity: bin(*f.CapacityBytes)}
		}
		if f.InodesFree != nil && f.Inodes != nil {
			out[inodes] = Observation{Available: dec(*f.InodesFree), Capacity: dec(*f.Inodes)}
		}
	}
	fs(s.NodeFs, SignalNodeFsAvailable, SignalNodeFsInodesFree)
	fs(s.ImageFs, SignalImageFsAvailable, SignalImageFsInodesFree)
	fs(s.ContainerFs, SignalContainerFsAvailable, SignalContainerFsInodesFree)
	if s.MaxPID != nil && s.RunningProcesses != nil {
		out[SignalPIDAvailable] = Observation{Available: *resource.NewQuantity(int64(*s.MaxPID)-int64(*s.RunningProcesses), resource.DecimalSI), Capacity: dec(*s.MaxPID)}
	}
	return out
}
