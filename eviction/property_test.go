package eviction

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/placement/placementtest"
)

// overWeb makes a budget of the kit's select the app=web pods genPods
// draws.
func overWeb(b *policyv1.PodDisruptionBudget) *policyv1.PodDisruptionBudget {
	b.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	return b
}

// genPods draws 0-6 pods of ReplicaSet rs, some not Ready, some Pending.
func genPods(t *rapid.T) []*corev1.Pod {
	n := rapid.IntRange(0, 6).Draw(t, "pods")
	var pods []*corev1.Pod
	for i := range n {
		b := newPod("ns", "web-"+strconv.Itoa(i)).owner("apps/v1", "ReplicaSet", "rs", "rs-uid")
		switch rapid.IntRange(0, 4).Draw(t, "state") {
		case 0:
			b = b.unready()
		case 1:
			b = b.phase(corev1.PodPending).unready()
		}
		pods = append(pods, b.obj())
	}
	return pods
}

func healthyCount(pods []*corev1.Pod) int32 {
	var n int32
	for _, p := range pods {
		if p.DeletionTimestamp == nil && isPodReady(p) {
			n++
		}
	}
	return n
}

func TestProperties(t *testing.T) {
	t.Run("evictions allowed by Decide never take healthy pods below desiredHealthy", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			pods := genPods(t)
			replicas := int32(rapid.IntRange(len(pods), len(pods)+1).Draw(t, "replicas"))
			w := Workloads{ReplicaSets: []*appsv1.ReplicaSet{replicaSet("ns", "rs", "rs-uid", replicas)}}
			st, err := PDBStatus(overWeb(placementtest.EdgePDBOf("p", "ns").Draw(t, "budget")), pods, w, testNow)
			require.NoError(t, err)
			pdb := st.PDB
			desired := pdb.Status.DesiredHealthy
			steps := rapid.IntRange(1, 8).Draw(t, "steps")
			for range steps {
				if len(pods) == 0 {
					break
				}
				i := rapid.IntRange(0, len(pods)-1).Draw(t, "victim")
				wasHealthy := pods[i].DeletionTimestamp == nil && isPodReady(pods[i])
				d, err := Decide(Request{Pod: pods[i], PDBs: []*policyv1.PodDisruptionBudget{pdb}, Now: testNow})
				require.NoError(t, err)
				pdb = d.PDBs[0].PDB
				if d.Allowed() {
					pods[i] = d.Pod
					if wasHealthy {
						// the budget may only let a healthy pod go while
						// healthy pods stay at or above desiredHealthy
						require.GreaterOrEqual(t, healthyCount(pods), desired, "pod %s", d.Pod.Name)
					}
					require.GreaterOrEqual(t, pdb.Status.DisruptionsAllowed, int32(0))
				}
				if rapid.Bool().Draw(t, "resync") {
					st, err := PDBStatus(pdb, pods, w, testNow)
					require.NoError(t, err)
					pdb = st.PDB
				}
			}
		})
	})

	t.Run("disruptionsAllowed is never negative when computed", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			pods := genPods(t)
			w := Workloads{ReplicaSets: []*appsv1.ReplicaSet{replicaSet("ns", "rs", "rs-uid", int32(rapid.IntRange(0, 7).Draw(t, "replicas")))}}
			st, err := PDBStatus(overWeb(placementtest.EdgePDBOf("p", "ns").Draw(t, "budget")), pods, w, testNow)
			require.NoError(t, err)
			s := st.PDB.Status
			require.GreaterOrEqual(t, s.DisruptionsAllowed, int32(0))
			require.GreaterOrEqual(t, s.DesiredHealthy, int32(0))
			if s.DisruptionsAllowed > 0 {
				require.Equal(t, s.CurrentHealthy-s.DesiredHealthy, s.DisruptionsAllowed)
			}
		})
	})

	t.Run("the order of the budgets given does not change the decision", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			pods := genPods(t)
			if len(pods) == 0 {
				return
			}
			a, b := overWeb(placementtest.EdgePDBOf("p", "ns").Draw(t, "budget")), overWeb(placementtest.EdgePDBOf("p", "ns").Draw(t, "budget"))
			b.Name = "q"
			if rapid.Bool().Draw(t, "other namespace") {
				b.Namespace = "other"
			}
			d1, err := Decide(Request{Pod: pods[0], PDBs: []*policyv1.PodDisruptionBudget{a, b}, Now: testNow})
			require.NoError(t, err)
			d2, err := Decide(Request{Pod: pods[0], PDBs: []*policyv1.PodDisruptionBudget{b, a}, Now: testNow})
			require.NoError(t, err)
			require.Equal(t, d1, d2)
		})
	})

	t.Run("the pressure rankings are strict weak orders", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			pods, stats := genRankInput(t)
			checkStrictWeakOrder(t, memoryKeys(pods, stats), cmpUsage)
			checkStrictWeakOrder(t, pidKeys(pods, stats), cmpProcesses)
			checkStrictWeakOrder(t, diskKeys(SignalNodeFsAvailable, FsLayout{}, pods, stats), cmpUsage)
		})
	})

	t.Run("the rankings do not depend on input order beyond ties", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			pods, stats := genRankInput(t)
			perm := rapid.Permutation(pods).Draw(t, "perm")
			type ranking struct {
				rank func([]*corev1.Pod, StatsFunc) []*corev1.Pod
				keys func([]*corev1.Pod, StatsFunc) []rankKey
				cmp  func(a, b *rankKey) int
			}
			for _, r := range []ranking{{RankMemory, memoryKeys, cmpUsage}, {RankPID, pidKeys, cmpProcesses}} {
				a, b := r.keys(r.rank(pods, stats), stats), r.keys(r.rank(perm, stats), stats)
				for i := range a {
					if r.cmp(&a[i], &b[i]) != 0 {
						t.Fatalf("position %d: %s vs %s", i, a[i].pod.Name, b[i].pod.Name)
					}
				}
			}
		})
	})

	t.Run("the pressure victim is never critical while others remain", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			pods, stats := genRankInput(t)
			met := []Threshold{{Signal: rapid.SampledFrom([]Signal{SignalMemoryAvailable, SignalPIDAvailable, SignalNodeFsAvailable}).Draw(t, "signal")}}
			v, ok := SelectVictim(met, pods, stats, PressureOptions{Now: testNow})
			nonCritical := 0
			for _, p := range pods {
				if !IsCriticalPod(p) {
					nonCritical++
				}
			}
			require.Equal(t, nonCritical > 0, ok)
			if ok {
				require.False(t, IsCriticalPod(v.Pod))
			}
		})
	})
}

// genRankInput draws 1-7 pods with priorities, requests and usage from
// small pools, some critical and some without stats.
func genRankInput(t *rapid.T) ([]*corev1.Pod, StatsFunc) {
	n := rapid.IntRange(1, 7).Draw(t, "n")
	var pods []*corev1.Pod
	st := map[string]PodStats{}
	for i := range n {
		b := newPod("ns", "p"+strconv.Itoa(i)).priority(rapid.SampledFrom([]int32{-10, 0, 1000, SystemCriticalPriority}).Draw(t, "priority"))
		if r := rapid.SampledFrom([]string{"", "64Mi", "128Mi"}).Draw(t, "request"); r != "" {
			b = b.memRequest(r)
		}
		pods = append(pods, b.obj())
		if rapid.IntRange(0, 3).Draw(t, "stats") > 0 {
			s := PodStats{}
			if rapid.Bool().Draw(t, "has memory") {
				s.MemoryWorkingSetBytes = u64(rapid.SampledFrom([]uint64{0, 64 * mi, 64*mi + 1, 200 * mi}).Draw(t, "usage"))
			}
			if rapid.Bool().Draw(t, "has processes") {
				s.ProcessCount = u64(rapid.SampledFrom([]uint64{1, 5, 20}).Draw(t, "procs"))
			}
			s.RootfsBytes = rapid.SampledFrom([]uint64{0, 100}).Draw(t, "rootfs")
			st[pods[i].Name] = s
		}
	}
	return pods, statsOf(st)
}

func checkStrictWeakOrder(t *rapid.T, keys []rankKey, cmp func(a, b *rankKey) int) {
	less := func(a, b *rankKey) bool { return cmp(a, b) < 0 }
	equiv := func(a, b *rankKey) bool { return !less(a, b) && !less(b, a) }
	for i := range keys {
		a := &keys[i]
		if less(a, a) {
			t.Fatalf("irreflexivity: %s < itself", a.pod.Name)
		}
		for j := range keys {
			b := &keys[j]
			if less(a, b) && less(b, a) {
				t.Fatalf("asymmetry: %s and %s", a.pod.Name, b.pod.Name)
			}
			for k := range keys {
				c := &keys[k]
				if less(a, b) && less(b, c) && !less(a, c) {
					t.Fatalf("transitivity: %s < %s < %s", a.pod.Name, b.pod.Name, c.pod.Name)
				}
				if equiv(a, b) && equiv(b, c) && !equiv(a, c) {
					t.Fatalf("transitivity of ties: %s ~ %s ~ %s", a.pod.Name, b.pod.Name, c.pod.Name)
				}
			}
		}
	}
}
