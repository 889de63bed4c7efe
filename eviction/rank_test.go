package eviction

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func u64(v uint64) *uint64 { return &v }

func statsOf(m map[string]PodStats) StatsFunc {
	return func(p *corev1.Pod) (PodStats, bool) {
		s, ok := m[p.Name]
		return s, ok
	}
}

func names(pods []*corev1.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

const mi = 1 << 20

// TestRankMemory mirrors rankMemoryPressure (pkg/kubelet/eviction/helpers.go):
// each comparator decisive on its own, input order listing the expected
// last first.
func TestRankMemory(t *testing.T) {
	tests := []struct {
		name  string
		pods  []*corev1.Pod
		stats map[string]PodStats
		want  []string
	}{
		{"pods without stats go first",
			[]*corev1.Pod{newPod("ns", "with").obj(), newPod("ns", "without").obj()},
			map[string]PodStats{"with": {MemoryWorkingSetBytes: u64(1)}}, []string{"without", "with"}},
		{"usage above the request goes before lower priority",
			[]*corev1.Pod{newPod("ns", "under").memRequest("128Mi").priority(-10).obj(), newPod("ns", "over").memRequest("64Mi").priority(1000).obj()},
			map[string]PodStats{"under": {MemoryWorkingSetBytes: u64(100 * mi)}, "over": {MemoryWorkingSetBytes: u64(65 * mi)}}, []string{"over", "under"}},
		{"usage exactly at the request does not exceed it",
			[]*corev1.Pod{newPod("ns", "at").memRequest("64Mi").obj(), newPod("ns", "above").memRequest("64Mi").obj()},
			map[string]PodStats{"at": {MemoryWorkingSetBytes: u64(64 * mi)}, "above": {MemoryWorkingSetBytes: u64(64*mi + 1)}}, []string{"above", "at"}},
		{"lower priority goes first",
			[]*corev1.Pod{newPod("ns", "high").priority(100).obj(), newPod("ns", "low").priority(1).obj()},
			map[string]PodStats{"high": {MemoryWorkingSetBytes: u64(100 * mi)}, "low": {MemoryWorkingSetBytes: u64(1)}}, []string{"low", "high"}},
		{"larger usage above the request goes first",
			[]*corev1.Pod{newPod("ns", "small").memRequest("1Mi").obj(), newPod("ns", "big").memRequest("10Mi").obj()},
			map[string]PodStats{"small": {MemoryWorkingSetBytes: u64(5 * mi)}, "big": {MemoryWorkingSetBytes: u64(20 * mi)}}, []string{"big", "small"}},
		{"stats without memory count as zero usage",
			[]*corev1.Pod{newPod("ns", "empty").obj(), newPod("ns", "used").obj()},
			map[string]PodStats{"empty": {}, "used": {MemoryWorkingSetBytes: u64(1)}}, []string{"used", "empty"}},
		{"ties keep input order",
			[]*corev1.Pod{newPod("ns", "b").obj(), newPod("ns", "a").obj()}, nil, []string{"b", "a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]*corev1.Pod(nil), tc.pods...)
			assert.Equal(t, tc.want, names(RankMemory(tc.pods, statsOf(tc.stats))))
			assert.Equal(t, names(in), names(tc.pods), "input order untouched")
		})
	}
}

// TestRequestQuantity mirrors GetResourceRequestQuantity with sidecars,
// init containers and overhead.
func TestRequestQuantity(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	req := func(q string) corev1.ResourceRequirements {
		return corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(q)}}
	}
	pod := newPod("ns", "p").obj()
	pod.Spec.Containers = []corev1.Container{{Name: "a", Resources: req("64Mi")}, {Name: "b", Resources: req("64Mi")}}
	assert.Equal(t, int64(128*mi), ptrVal(requestQuantity(pod, corev1.ResourceMemory)))
	pod.Spec.InitContainers = []corev1.Container{{Name: "init", Resources: req("256Mi")}}
	assert.Equal(t, int64(256*mi), ptrVal(requestQuantity(pod, corev1.ResourceMemory)), "init container is the floor")
	pod.Spec.InitContainers = []corev1.Container{{Name: "side", Resources: req("32Mi"), RestartPolicy: &always}, {Name: "init", Resources: req("200Mi")}}
	assert.Equal(t, int64(232*mi), ptrVal(requestQuantity(pod, corev1.ResourceMemory)), "sidecar runs beside the later init container")
	pod.Spec.Overhead = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("8Mi")}
	assert.Equal(t, int64(240*mi), ptrVal(requestQuantity(pod, corev1.ResourceMemory)))
	pod.Spec.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")}}
	assert.Equal(t, int64(1024*mi+8*mi), ptrVal(requestQuantity(pod, corev1.ResourceMemory)), "pod-level resources win")
	empty := newPod("ns", "e").obj()
	empty.Spec.Overhead = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("8Mi")}
	assert.Equal(t, int64(0), ptrVal(requestQuantity(empty, corev1.ResourceMemory)), "overhead only on a non-zero request")
}

func ptrVal(q resource.Quantity) int64 { return q.Value() }

// TestRankPID mirrors rankPIDPressure (pkg/kubelet/eviction/helpers.go,
// orderedBy(priority, process)): each key decisive on its own, input order
// listing the expected last first.
func TestRankPID(t *testing.T) {
	tests := []struct {
		name  string
		pods  []*corev1.Pod
		stats map[string]PodStats
		want  []string
	}{
		{"lower priority goes first, even with fewer processes and stats",
			[]*corev1.Pod{newPod("ns", "high").priority(10).obj(), newPod("ns", "low").obj()},
			map[string]PodStats{"low": {ProcessCount: u64(1)}}, []string{"low", "high"}},
		{"at equal priority pods without stats go first",
			[]*corev1.Pod{newPod("ns", "with").obj(), newPod("ns", "without").obj()},
			map[string]PodStats{"with": {ProcessCount: u64(1000)}}, []string{"without", "with"}},
		{"at equal priority more processes go first",
			[]*corev1.Pod{newPod("ns", "few").obj(), newPod("ns", "many").obj()},
			map[string]PodStats{"few": {ProcessCount: u64(2)}, "many": {ProcessCount: u64(20)}}, []string{"many", "few"}},
		{"a missing process count counts as zero",
			[]*corev1.Pod{newPod("ns", "empty").obj(), newPod("ns", "one").obj()},
			map[string]PodStats{"empty": {}, "one": {ProcessCount: u64(1)}}, []string{"one", "empty"}},
		{"the PID ranking ignores requests and memory",
			[]*corev1.Pod{newPod("ns", "a").memRequest("1Mi").obj(), newPod("ns", "b").obj()},
			map[string]PodStats{"a": {ProcessCount: u64(5), MemoryWorkingSetBytes: u64(100 * mi)}, "b": {ProcessCount: u64(5)}}, []string{"a", "b"}},
		{"ties keep input order",
			[]*corev1.Pod{newPod("ns", "b").obj(), newPod("ns", "a").obj()}, nil, []string{"b", "a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]*corev1.Pod(nil), tc.pods...)
			assert.Equal(t, tc.want, names(RankPID(tc.pods, statsOf(tc.stats))))
			assert.Equal(t, tc.want, names(Rank(SignalPIDAvailable, FsLayout{}, tc.pods, statsOf(tc.stats))))
			assert.Equal(t, names(in), names(tc.pods), "input order untouched")
		})
	}
}

// TestRankDisk mirrors rankDiskPressureFunc (orderedBy(exceedDiskRequests,
// priority, disk)) with buildSignalToRankFunc's statistics per layout: each
// key decisive on its own, input order listing the expected last first.
func TestRankDisk(t *testing.T) {
	eph := func(b podB, q string) *corev1.Pod {
		p := b.obj()
		p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceEphemeralStorage: resource.MustParse(q)}
		return p
	}
	tests := []struct {
		name   string
		signal Signal
		layout FsLayout
		pods   []*corev1.Pod
		stats  map[string]PodStats
		want   []string
	}{
		{"pods without stats go first, whatever their priority", SignalNodeFsAvailable, FsLayout{},
			[]*corev1.Pod{newPod("ns", "with").obj(), newPod("ns", "without").priority(10).obj()},
			map[string]PodStats{"with": {LogsBytes: 100}}, []string{"without", "with"}},
		{"usage above the ephemeral-storage request goes before lower priority", SignalNodeFsAvailable, FsLayout{},
			[]*corev1.Pod{eph(newPod("ns", "under"), "1Ki"), eph(newPod("ns", "over").priority(10), "1Ki")},
			map[string]PodStats{"under": {LogsBytes: 1000}, "over": {LogsBytes: 1025}}, []string{"over", "under"}},
		{"usage exactly at the request does not exceed it", SignalNodeFsAvailable, FsLayout{},
			[]*corev1.Pod{eph(newPod("ns", "at"), "1Ki"), eph(newPod("ns", "above"), "1Ki")},
			map[string]PodStats{"at": {RootfsBytes: 1024}, "above": {RootfsBytes: 1025}}, []string{"above", "at"}},
		{"lower priority goes first", SignalNodeFsAvailable, FsLayout{},
			[]*corev1.Pod{newPod("ns", "high").priority(10).obj(), newPod("ns", "low").obj()},
			map[string]PodStats{"high": {LogsBytes: 500}, "low": {LogsBytes: 1}}, []string{"low", "high"}},
		{"larger usage above the request goes first", SignalNodeFsAvailable, FsLayout{},
			[]*corev1.Pod{eph(newPod("ns", "used120-over20"), "100"), eph(newPod("ns", "used50-over40"), "10")},
			map[string]PodStats{"used50-over40": {LogsBytes: 50}, "used120-over20": {LogsBytes: 120}}, []string{"used50-over40", "used120-over20"}},
		{"nodefs without imagefs counts rootfs, logs and local volumes", SignalNodeFsAvailable, FsLayout{},
			[]*corev1.Pod{newPod("ns", "root").obj(), newPod("ns", "mixed").obj()},
			map[string]PodStats{"root": {RootfsBytes: 100}, "mixed": {RootfsBytes: 40, LogsBytes: 40, LocalVolumeBytes: 40}}, []string{"mixed", "root"}},
		{"nodefs with imagefs leaves the writable layer out", SignalNodeFsAvailable, FsLayout{ImageFs: true},
			[]*corev1.Pod{newPod("ns", "vol").obj(), newPod("ns", "root").obj()},
			map[string]PodStats{"root": {RootfsBytes: 1000, LogsBytes: 1}, "vol": {LocalVolumeBytes: 10}}, []string{"vol", "root"}},
		{"imagefs with imagefs counts only the writable layer", SignalImageFsAvailable, FsLayout{ImageFs: true},
			[]*corev1.Pod{newPod("ns", "logs").obj(), newPod("ns", "root").obj()},
			map[string]PodStats{"logs": {LogsBytes: 1000, LocalVolumeBytes: 1000}, "root": {RootfsBytes: 10}}, []string{"root", "logs"}},
		{"containerfs with a split layout counts everything", SignalContainerFsAvailable, FsLayout{ImageFs: true, SplitContainerFs: true},
			[]*corev1.Pod{newPod("ns", "root").obj(), newPod("ns", "vol").obj()},
			map[string]PodStats{"root": {RootfsBytes: 10}, "vol": {LocalVolumeBytes: 20}}, []string{"vol", "root"}},
		{"imagefs with a split layout sees no pod usage: priority decides", SignalImageFsAvailable, FsLayout{ImageFs: true, SplitContainerFs: true},
			[]*corev1.Pod{newPod("ns", "big").priority(10).obj(), newPod("ns", "small").obj()},
			map[string]PodStats{"big": {RootfsBytes: 1000, LogsBytes: 1000}, "small": {RootfsBytes: 1}}, []string{"small", "big"}},
		{"inode signals count inodes, not bytes", SignalNodeFsInodesFree, FsLayout{},
			[]*corev1.Pod{newPod("ns", "bytes").obj(), newPod("ns", "inodes").obj()},
			map[string]PodStats{"bytes": {LogsBytes: 1 << 30, LogsInodes: 1}, "inodes": {RootfsInodes: 9}}, []string{"inodes", "bytes"}},
		{"inode usage has the ephemeral-storage request subtracted, as upstream does", SignalNodeFsInodesFree, FsLayout{},
			[]*corev1.Pod{eph(newPod("ns", "more"), "100"), newPod("ns", "fewer").obj()},
			map[string]PodStats{"more": {RootfsInodes: 50}, "fewer": {RootfsInodes: 10}}, []string{"fewer", "more"}},
		{"ties keep input order", SignalNodeFsAvailable, FsLayout{},
			[]*corev1.Pod{newPod("ns", "b").obj(), newPod("ns", "a").obj()}, nil, []string{"b", "a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]*corev1.Pod(nil), tc.pods...)
			assert.Equal(t, tc.want, names(RankDisk(tc.signal, tc.layout, tc.pods, statsOf(tc.stats))))
			assert.Equal(t, tc.want, names(Rank(tc.signal, tc.layout, tc.pods, statsOf(tc.stats))))
			assert.Equal(t, names(in), names(tc.pods), "input order untouched")
		})
	}
	assert.Nil(t, Rank("bogus", FsLayout{}, nil, statsOf(nil)))
}

// TestTaintEvictionTime mirrors processPodOnNode's decision
// (pkg/controller/tainteviction).
func TestTaintEvictionTime(t *testing.T) {
	noExec := corev1.Taint{Key: "k", Value: "v", Effect: corev1.TaintEffectNoExecute}
	noSched := corev1.Taint{Key: "k", Effect: corev1.TaintEffectNoSchedule}
	sec := func(v int64) *int64 { return &v }
	tests := []struct {
		name     string
		taints   []corev1.Taint
		tols     []corev1.Toleration
		decision TaintDecision
		after    time.Duration
		used     int
	}{
		{"no NoExecute taint", []corev1.Taint{noSched}, nil, TaintNone, 0, 0},
		{"untolerated taint evicts now", []corev1.Taint{noExec}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpEqual, Value: "other"}}, TaintEvictNow, 0, 0},
		{"tolerated forever", []corev1.Taint{noExec}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists}}, TaintNever, 0, 1},
		{"smallest tolerationSeconds wins", []corev1.Taint{noExec, {Key: "x", Effect: corev1.TaintEffectNoExecute}},
			[]corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, TolerationSeconds: sec(300)}, {Operator: corev1.TolerationOpExists, TolerationSeconds: sec(30)}}, TaintEvictAfter, 30 * time.Second, 2},
		{"tolerationSeconds <= 0 evicts now", []corev1.Taint{noExec}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, TolerationSeconds: sec(-5)}}, TaintEvictNow, 0, 1},
		{"an effect that does not match does not tolerate", []corev1.Taint{noExec}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}, TaintEvictNow, 0, 0},
		{"an empty operator means Equal", []corev1.Taint{noExec}, []corev1.Toleration{{Key: "k", Value: "v"}}, TaintNever, 0, 1},
		{"Lt is off in v1.36", []corev1.Taint{{Key: "k", Value: "3", Effect: corev1.TaintEffectNoExecute}}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpLt, Value: "5"}}, TaintEvictNow, 0, 0},
		// getMinTolerationTime multiplies the seconds by time.Second in
		// int64 nanoseconds: beyond ~292 years the duration wraps, and
		// processPodOnNode takes a negative one for forever (evl oracle).
		{"largest exact duration", []corev1.Taint{noExec}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, TolerationSeconds: sec(9223372036)}}, TaintEvictAfter, 9223372036 * time.Second, 1},
		{"overflow to a negative duration tolerates forever", []corev1.Taint{noExec}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, TolerationSeconds: sec(9223372037)}}, TaintNever, 0, 1},
		{"overflow wraps to a positive duration", []corev1.Taint{noExec}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, TolerationSeconds: sec(20000000000)}}, TaintEvictAfter, 1553255926*time.Second + 290448384, 1},
		{"overflow wraps to exactly zero: evict now", []corev1.Taint{noExec}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, TolerationSeconds: sec(1 << 55)}}, TaintEvictNow, 0, 1},
		{"math.MaxInt64 seconds is forever", []corev1.Taint{noExec}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, TolerationSeconds: sec(math.MaxInt64)}}, TaintNever, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := &corev1.Node{Spec: corev1.NodeSpec{Taints: tc.taints}}
			pod := newPod("ns", "p").obj()
			pod.Spec.Tolerations = tc.tols
			got := TaintEvictionTime(node, pod)
			assert.Equal(t, tc.decision, got.Decision)
			assert.Equal(t, tc.after, got.EvictAfter)
			assert.Len(t, got.UsedTolerations, tc.used)
			if tc.decision == TaintNever {
				assert.Equal(t, int64(-1), got.MinTolerationSeconds)
			} else if tc.decision == TaintEvictAfter {
				assert.Equal(t, int64(tc.after/time.Second), got.MinTolerationSeconds)
			}
		})
	}
}

// TestPressure covers threshold parsing, thresholdsMet, grace periods,
// node conditions, the victim choice and admission (pkg/kubelet/eviction).
func TestPressure(t *testing.T) {
	hard := DefaultHardThresholds()
	require.Len(t, hard, 5)
	assert.Equal(t, SignalImageFsAvailable, hard[0].Signal, "signal order")

	ts, err := ParseThresholds(map[string]string{"memory.available": "100Mi", "nodefs.available": "0%"},
		map[string]string{"memory.available": "500Mi"}, map[string]string{"memory.available": "1m30s"}, map[string]string{"memory.available": "50Mi"})
	require.NoError(t, err)
	require.Len(t, ts, 2, "0% is ignored")
	assert.True(t, ts[0].IsHard())
	assert.Equal(t, 90*time.Second, ts[1].GracePeriod)
	require.NotNil(t, ts[0].MinReclaim)

	for _, bad := range []map[string]string{{"memory.available": "-1Mi"}, {"bogus": "1Mi"}, {"nodefs.available": "120%"}} {
		_, err := ParseThresholds(bad, nil, nil, nil)
		assert.ErrorIs(t, err, ErrInvalidThreshold)
	}
	_, err = ParseThresholds(nil, map[string]string{"memory.available": "1Gi"}, nil, nil)
	assert.ErrorContains(t, err, "grace period must be specified for the soft eviction threshold memory.available")
	// resource.ParseQuantity does not return on a huge decimal exponent:
	// such a threshold or minimum reclaim is refused before it is parsed,
	// while an exponent in range is read as usual.
	_, err = ParseThresholds(map[string]string{"pid.available": "000004E01000000000000"}, nil, nil, nil)
	assert.ErrorIs(t, err, ErrInvalidThreshold)
	assert.ErrorContains(t, err, "exponent out of range")
	_, err = ParseThresholds(map[string]string{"pid.available": "1e3"}, nil, nil, map[string]string{"pid.available": "2e-101"})
	assert.ErrorContains(t, err, "exponent out of range")
	ts2, err := ParseThresholds(map[string]string{"pid.available": "1e3"}, nil, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, int64(1000), ts2[0].Value.Quantity.Value())

	obs := map[Signal]Observation{SignalMemoryAvailable: {Available: resource.MustParse("300Mi"), Capacity: resource.MustParse("8Gi")}}
	met := ThresholdsMet(ts, obs, false)
	require.Len(t, met, 1, "only the soft 500Mi threshold")
	assert.Len(t, ThresholdsMet(ts[:1], map[Signal]Observation{SignalMemoryAvailable: {Available: resource.MustParse("120Mi")}}, true), 1, "min reclaim raises the bar")
	assert.Empty(t, GracePeriodMet(met, []time.Time{testNow.Add(-time.Minute)}, testNow))
	assert.Len(t, GracePeriodMet(met, []time.Time{testNow.Add(-2 * time.Minute)}, testNow), 1)
	assert.Equal(t, []corev1.NodeConditionType{corev1.NodeMemoryPressure}, NodeConditions(append(met, met...)))

	critical := newPod("ns", "critical").priority(SystemCriticalPriority).obj()
	normal := newPod("ns", "normal").priority(1000).obj()
	v, ok := SelectVictim(met, []*corev1.Pod{critical, normal}, statsOf(nil), PressureOptions{MaxPodGracePeriodSeconds: 10, Observations: obs, Now: testNow})
	require.True(t, ok)
	assert.Equal(t, "normal", v.Pod.Name, "critical pods are never evicted")
	assert.Equal(t, int64(10), v.GracePeriodSeconds)
	assert.Equal(t, "The node was low on resource: memory. Threshold quantity: 500Mi, available: 300Mi. ", v.Message)
	assert.Equal(t, corev1.PodFailed, v.Status.Phase)
	assert.Equal(t, ReasonEvicted, v.Status.Reason)
	assert.Equal(t, corev1.PodReasonTerminationByKubelet, v.Status.Conditions[len(v.Status.Conditions)-1].Reason)
	_, ok = SelectVictim(met, []*corev1.Pod{critical}, statsOf(nil), PressureOptions{})
	assert.False(t, ok)

	be := newPod("ns", "be").obj()
	burst := newPod("ns", "burst").memRequest("1Mi").obj()
	mem := []corev1.NodeConditionType{corev1.NodeMemoryPressure}
	assert.True(t, AdmitUnderPressure(be, nil).Admit)
	assert.False(t, AdmitUnderPressure(be, mem).Admit)
	assert.Equal(t, "The node had condition: [MemoryPressure]. ", AdmitUnderPressure(be, mem).Message)
	assert.True(t, AdmitUnderPressure(burst, mem).Admit)
	tol := be.DeepCopy()
	tol.Spec.Tolerations = []corev1.Toleration{{Key: corev1.TaintNodeMemoryPressure, Operator: corev1.TolerationOpExists}}
	assert.True(t, AdmitUnderPressure(tol, mem).Admit)
	assert.False(t, AdmitUnderPressure(burst, []corev1.NodeConditionType{corev1.NodeDiskPressure}).Admit)
	assert.True(t, AdmitUnderPressure(critical, []corev1.NodeConditionType{corev1.NodeDiskPressure}).Admit)
}

// TestObserveAndDefaults: the Linux default hard thresholds against
// observations built as makeSignalObservations builds them.
func TestObserveAndDefaults(t *testing.T) {
	gi := uint64(1 << 30)
	obs := Observe(NodeStats{
		MemoryAvailableBytes: u64(50 * mi), MemoryWorkingSetBytes: u64(8*gi - 50*mi),
		NodeFs:  &FsStats{AvailableBytes: u64(9 * gi), CapacityBytes: u64(100 * gi), InodesFree: u64(1000), Inodes: u64(10000)},
		ImageFs: &FsStats{AvailableBytes: u64(20 * gi), CapacityBytes: u64(100 * gi)},
		MaxPID:  u64(1000), RunningProcesses: u64(990),
	})
	require.Len(t, obs, 5)
	mem := obs[SignalMemoryAvailable].Capacity
	assert.Equal(t, int64(8*gi), mem.Value())
	pid := obs[SignalPIDAvailable].Available
	assert.Equal(t, int64(10), pid.Value())
	var met []Signal
	for _, th := range ThresholdsMet(DefaultHardThresholds(), obs, false) {
		met = append(met, th.Signal)
	}
	// memory 50Mi < 100Mi; nodefs 9% < 10%; inodes 10% >= 5%; imagefs 20% >= 15%
	assert.Equal(t, []Signal{SignalMemoryAvailable, SignalNodeFsAvailable}, met)
	th, res, ok := ReclaimThreshold(ThresholdsMet(DefaultHardThresholds(), obs, false))
	require.True(t, ok)
	assert.Equal(t, SignalMemoryAvailable, th.Signal, "memory first")
	assert.Equal(t, corev1.ResourceMemory, res)
	assert.Equal(t, []corev1.NodeConditionType{corev1.NodeMemoryPressure, corev1.NodeDiskPressure}, NodeConditions(ThresholdsMet(DefaultHardThresholds(), obs, false)))
}
