package eviction

import (
	"slices"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/schedkit/schedkit/internal/sched"
)

// PodStats is the part of a pod's kubelet summary stats the eviction
// ranking reads. A nil field means the summary has no such value (counted
// as zero, as upstream does).
type PodStats struct {
	// MemoryWorkingSetBytes is the pod's memory working set, the usage
	// RankMemory compares with the memory request.
	MemoryWorkingSetBytes *uint64
	// ProcessCount is the pod's process count, the usage RankPID orders by.
	ProcessCount *uint64
	// RootfsBytes and RootfsInodes are the containers' writable layers,
	// summed over the pod's containers; which disk signals count them
	// depends on the FsLayout (buildSignalToRankFunc).
	RootfsBytes, RootfsInodes uint64
	// LogsBytes and LogsInodes are the containers' logs, summed.
	LogsBytes, LogsInodes uint64
	// LocalVolumeBytes and LocalVolumeInodes are the pod's local
	// ephemeral volumes (emptyDir and other local volumes), summed.
	LocalVolumeBytes, LocalVolumeInodes uint64
}

// StatsFunc returns a pod's stats and whether the summary has any for it.
// Pods without stats are evicted first.
type StatsFunc func(pod *corev1.Pod) (PodStats, bool)

// Signal is a kubelet eviction signal.
type Signal string

// The eviction signals of kubelet v1.36 (pkg/kubelet/eviction/api).
const (
	// SignalMemoryAvailable is the node's free memory (ranked by RankMemory).
	SignalMemoryAvailable Signal = "memory.available"
	// SignalAllocatableMemoryAvailable is the pods cgroup's free memory.
	SignalAllocatableMemoryAvailable Signal = "allocatableMemory.available"
	// SignalNodeFsAvailable is the node filesystem's free bytes.
	SignalNodeFsAvailable Signal = "nodefs.available"
	// SignalNodeFsInodesFree is the node filesystem's free inodes.
	SignalNodeFsInodesFree Signal = "nodefs.inodesFree"
	// SignalImageFsAvailable is the image filesystem's free bytes.
	SignalImageFsAvailable Signal = "imagefs.available"
	// SignalImageFsInodesFree is the image filesystem's free inodes.
	SignalImageFsInodesFree Signal = "imagefs.inodesFree"
	// SignalContainerFsAvailable is the container filesystem's free bytes.
	SignalContainerFsAvailable Signal = "containerfs.available"
	// SignalContainerFsInodesFree is the container filesystem's free inodes.
	SignalContainerFsInodesFree Signal = "containerfs.inodesFree"
	// SignalPIDAvailable is the node's free process IDs (ranked by RankPID).
	SignalPIDAvailable Signal = "pid.available"
)

// FsLayout says how the node's filesystems are split, which decides what
// the disk signals measure (buildSignalToRankFunc).
type FsLayout struct {
	// ImageFs: images live on their own filesystem.
	ImageFs bool
	// SplitContainerFs: with ImageFs, container writable layers are on the
	// node filesystem rather than the image filesystem.
	SplitContainerFs bool
}

// rankKey is what the comparators of one ranking read, computed once per
// pod: compile once, compare many.
type rankKey struct {
	pod       *corev1.Pod
	index     int
	noStats   bool
	exceeds   bool
	priority  int32
	overUsage resource.Quantity // usage minus request (memory, disk)
	processes uint64
}

// RankMemory orders pods for eviction under memory pressure as kubelet's
// rankMemoryPressure (pkg/kubelet/eviction/helpers.go, v1.36): pods without
// stats first, then pods whose working set exceeds their memory request,
// then lower priority first, then larger usage above the request first.
// Pods the comparators cannot order keep their input order (upstream's
// sort is not stable; schedkit's is). It returns a new slice and modifies
// nothing; nil entries are left out.
func RankMemory(pods []*corev1.Pod, stats StatsFunc) []*corev1.Pod {
	pods = withoutNil(pods)
	return sortKeys(memoryKeys(pods, stats), cmpUsage)
}

func memoryKeys(pods []*corev1.Pod, stats StatsFunc) []rankKey {
	keys := make([]rankKey, len(pods))
	for i, p := range pods {
		k := rankKey{pod: p, index: i, priority: sched.PodPriority(p)}
		st, ok := stats(p)
		k.noStats = !ok
		if ok {
			usage := uint64Quantity(st.MemoryWorkingSetBytes, resource.BinarySI)
			req := requestQuantity(p, corev1.ResourceMemory)
			k.exceeds = usage.Cmp(req) == 1
			usage.Sub(req)
			k.overUsage = usage
		}
		keys[i] = k
	}
	return keys
}

// RankPID orders pods for eviction under PID pressure as kubelet's
// rankPIDPressure (pkg/kubelet/eviction/helpers.go, as of v1.36): lower
// priority first, then, at equal priority, pods without stats before pods
// with stats and more processes first. Ties keep input order. It returns a
// new slice and modifies nothing; nil entries are left out.
func RankPID(pods []*corev1.Pod, stats StatsFunc) []*corev1.Pod {
	pods = withoutNil(pods)
	return sortKeys(pidKeys(pods, stats), cmpProcesses)
}

func pidKeys(pods []*corev1.Pod, stats StatsFunc) []rankKey {
	keys := make([]rankKey, len(pods))
	for i, p := range pods {
		k := rankKey{pod: p, index: i, priority: sched.PodPriority(p)}
		st, ok := stats(p)
		k.noStats = !ok
		if ok && st.ProcessCount != nil {
			k.processes = *st.ProcessCount
		}
		keys[i] = k
	}
	return keys
}

// RankDisk orders pods for eviction under a disk signal (nodefs, imagefs,
// containerfs; bytes or inodes) as kubelet's rankDiskPressureFunc with the
// statistics buildSignalToRankFunc measures for that signal and layout:
// pods without stats first, then pods whose usage exceeds their request,
// then lower priority, then larger usage above the ephemeral-storage request
// (upstream subtracts that request for the inode signals too). Ties keep
// input order. Mirrors pkg/kubelet/eviction/helpers.go as of v1.36. It
// returns a new slice and modifies nothing; nil entries are left out.
func RankDisk(signal Signal, layout FsLayout, pods []*corev1.Pod, stats StatsFunc) []*corev1.Pod {
	pods = withoutNil(pods)
	return sortKeys(diskKeys(signal, layout, pods, stats), cmpUsage)
}

func diskKeys(signal Signal, layout FsLayout, pods []*corev1.Pod, stats StatsFunc) []rankKey {
	m := diskMeasure(signal, layout)
	keys := make([]rankKey, len(pods))
	for i, p := range pods {
		k := rankKey{pod: p, index: i, priority: sched.PodPriority(p)}
		st, ok := stats(p)
		k.noStats = !ok
		if ok {
			var used uint64
			format := resource.BinarySI
			if m.inodes {
				format = resource.DecimalSI
				if m.root {
					used += st.RootfsInodes
				}
				if m.logs {
					used += st.LogsInodes
				}
				if m.volumes {
					used += st.LocalVolumeInodes
				}
			} else {
				if m.root {
					used += st.RootfsBytes
				}
				if m.logs {
					used += st.LogsBytes
				}
				if m.volumes {
					used += st.LocalVolumeBytes
				}
			}
			usage := *resource.NewQuantity(int64(used), format)
			res := corev1.ResourceEphemeralStorage
			if m.inodes {
				res = "inodes"
			}
			k.exceeds = usage.Cmp(requestQuantity(p, res)) == 1
			usage.Sub(requestQuantity(p, corev1.ResourceEphemeralStorage))
			k.overUsage = usage
		}
		keys[i] = k
	}
	return keys
}

// Rank orders pods for eviction under signal with the ranking the kubelet
// uses for it (buildSignalToRankFunc in pkg/kubelet/eviction/helpers.go, as
// of v1.36): RankMemory, RankPID or RankDisk with layout. It returns a new
// slice, nil for an unknown signal, and modifies nothing.
func Rank(signal Signal, layout FsLayout, pods []*corev1.Pod, stats StatsFunc) []*corev1.Pod {
	switch signal {
	case SignalMemoryAvailable, SignalAllocatableMemoryAvailable:
		return RankMemory(pods, stats)
	case SignalPIDAvailable:
		return RankPID(pods, stats)
	case SignalNodeFsAvailable, SignalNodeFsInodesFree, SignalImageFsAvailable, SignalImageFsInodesFree,
		SignalContainerFsAvailable, SignalContainerFsInodesFree:
		return RankDisk(signal, layout, pods, stats)
	}
	return nil
}

type diskStats struct{ root, logs, volumes, inodes bool }

// diskMeasure is buildSignalToRankFunc's choice of statistics.
func diskMeasure(signal Signal, l FsLayout) diskStats {
	inodes := signal == SignalNodeFsInodesFree || signal == SignalImageFsInodesFree || signal == SignalContainerFsInodesFree
	all := diskStats{root: true, logs: true, volumes: true, inodes: inodes}
	node, image := signal == SignalNodeFsAvailable || signal == SignalNodeFsInodesFree,
		signal == SignalImageFsAvailable || signal == SignalImageFsInodesFree
	switch {
	case l.ImageFs && !l.SplitContainerFs:
		if node {
			return diskStats{logs: true, volumes: true, inodes: inodes}
		}
		return diskStats{root: true, inodes: inodes} // imagefs and containerfs: rootfs (and images)
	case l.ImageFs && l.SplitContainerFs:
		if image {
			return diskStats{inodes: inodes} // images only, which pod stats do not carry
		}
		return all
	}
	return all
}

// cmpUsage is the memory and disk rankings' order: exceedMemoryRequests
// (or exceedDiskRequests), then priority, then memory (or disk) usage above
// the request.
func cmpUsage(a, b *rankKey) int {
	if c := cmpStatsAndExceeds(a, b); c != 0 {
		return c
	}
	if c := cmpPriority(a, b); c != 0 {
		return c
	}
	if a.noStats || b.noStats {
		return 0
	}
	return b.overUsage.Cmp(a.overUsage)
}

// cmpProcesses is the PID ranking's order: priority, then process count
// (pods without stats first).
func cmpProcesses(a, b *rankKey) int {
	if c := cmpPriority(a, b); c != 0 {
		return c
	}
	if a.noStats || b.noStats {
		return cmpBool(a.noStats, b.noStats)
	}
	switch {
	case a.processes > b.processes:
		return -1
	case a.processes < b.processes:
		return 1
	}
	return 0
}

// cmpStatsAndExceeds is the first comparator of the memory and disk
// rankings: pods without stats first, then pods above their request.
func cmpStatsAndExceeds(a, b *rankKey) int {
	if a.noStats || b.noStats {
		return cmpBool(a.noStats, b.noStats)
	}
	return cmpBool(a.exceeds, b.exceeds)
}

// cmpPriority: lower priority is evicted first.
func cmpPriority(a, b *rankKey) int {
	switch {
	case a.priority < b.priority:
		return -1
	case a.priority > b.priority:
		return 1
	}
	return 0
}

// cmpBool places true before false.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

func sortKeys(keys []rankKey, cmp func(a, b *rankKey) int) []*corev1.Pod {
	sort.SliceStable(keys, func(i, j int) bool { return cmp(&keys[i], &keys[j]) < 0 })
	out := make([]*corev1.Pod, len(keys))
	for i := range keys {
		out[i] = keys[i].pod
	}
	return out
}

func uint64Quantity(v *uint64, f resource.Format) resource.Quantity {
	if v == nil {
		return resource.Quantity{Format: f}
	}
	return *resource.NewQuantity(int64(*v), f)
}

// podPriority is corev1helpers.PodPriority: spec.priority, 0 when unset.
// withoutNil returns pods without its nil entries (pods itself when it has
// none): the rankings leave nil pods out rather than fail on them.
func withoutNil(pods []*corev1.Pod) []*corev1.Pod {
	if !slices.Contains(pods, nil) {
		return pods
	}
	out := make([]*corev1.Pod, 0, len(pods))
	for _, p := range pods {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}
