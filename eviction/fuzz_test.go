package eviction

import (
	"errors"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// FuzzParseThresholds: kubelet threshold flags never panic, and what parses
// is made of valid signals with sane values.
func FuzzParseThresholds(f *testing.F) {
	f.Add("memory.available", "100Mi", "nodefs.available", "10%", "1m30s", "5%")
	f.Add("pid.available", "0%", "imagefs.inodesFree", "-3", "-1s", "x")
	f.Fuzz(func(t *testing.T, s1, v1, s2, v2, grace, reclaim string) {
		ts, err := ParseThresholds(map[string]string{s1: v1}, map[string]string{s2: v2}, map[string]string{s2: grace}, map[string]string{s1: reclaim})
		if err != nil {
			if !errors.Is(err, ErrInvalidThreshold) {
				t.Fatalf("error %v does not wrap ErrInvalidThreshold", err)
			}
			return
		}
		for _, th := range ts {
			if _, ok := signalResource[th.Signal]; !ok {
				t.Fatalf("invalid signal %q accepted", th.Signal)
			}
			if th.Value.Quantity == nil && (th.Value.Percentage < 0 || th.Value.Percentage > 1) {
				t.Fatalf("percentage %v accepted", th.Value.Percentage)
			}
			if th.GracePeriod < 0 {
				t.Fatalf("negative grace period")
			}
		}
	})
}

// FuzzSelectDrainPods: any pod selector either parses or is an error.
func FuzzSelectDrainPods(f *testing.F) {
	f.Add("app=web,tier!=db")
	f.Add("app in (a")
	f.Fuzz(func(t *testing.T, sel string) {
		pods := []*corev1.Pod{newPod("ns", "a").obj(), newPod("ns", "b").labels("app", "db").obj()}
		s, err := SelectDrainPods("node-1", pods, nil, DrainOptions{PodSelector: sel})
		if err == nil && len(s.Verdicts) > len(pods) {
			t.Fatalf("more verdicts than pods")
		}
	})
}

// FuzzStatus: any minAvailable/maxUnavailable either fails validation or
// gives a non-negative disruptionsAllowed.
func FuzzStatus(f *testing.F) {
	f.Add("50%", "", 3, int32(4))
	f.Add("", "abc%", 2, int32(1))
	f.Add("7", "101%", 0, int32(0))
	f.Fuzz(func(t *testing.T, minAv, maxUn string, n int, replicas int32) {
		b := newPDB("ns", "p")
		if minAv != "" {
			b = b.minAvailable(intstr.Parse(minAv))
		}
		if maxUn != "" {
			b = b.maxUnavailable(intstr.Parse(maxUn))
		}
		pods := rsPods(n%8, 0)
		w := Workloads{ReplicaSets: []*appsv1.ReplicaSet{replicaSet("ns", "rs", "rs-uid", replicas%1000)}}
		r, err := PDBStatus(b.obj(), pods, w, testNow)
		if err != nil {
			if !errors.Is(err, ErrInvalidPDB) {
				t.Fatalf("error %v does not wrap ErrInvalidPDB", err)
			}
			return
		}
		if r.PDB.Status.DisruptionsAllowed < 0 {
			t.Fatalf("negative disruptionsAllowed")
		}
	})
}

// FuzzDecideDeleteOptions: any delete options give an answer, never a
// panic; only 201 deletes.
func FuzzDecideDeleteOptions(f *testing.F) {
	f.Add(int64(30), "", "", "", "", false)
	f.Add(int64(-5), "uid-ns-web-0", "10", "All", "Foreground", true)
	f.Add(int64(0), "old", "42", "Bogus", "Sideways", false)
	f.Fuzz(func(t *testing.T, grace int64, uid, rv, dryRun, propagation string, queryDryRun bool) {
		o := &metav1.DeleteOptions{GracePeriodSeconds: &grace}
		if uid != "" || rv != "" {
			o.Preconditions = &metav1.Preconditions{}
			if uid != "" {
				u := types.UID(uid)
				o.Preconditions.UID = &u
			}
			if rv != "" {
				o.Preconditions.ResourceVersion = &rv
			}
		}
		if dryRun != "" {
			o.DryRun = []string{dryRun}
		}
		if propagation != "" {
			p := metav1.DeletionPropagation(propagation)
			o.PropagationPolicy = &p
		}
		pdb := newPDB("ns", "p").status(1, 2, 1, 2).obj()
		d, err := Decide(Request{Pod: newPod("ns", "web-0").obj(), PDBs: []*policyv1.PodDisruptionBudget{pdb}, DeleteOptions: o, DryRun: queryDryRun, Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		if d.PodDeleted && !d.Allowed() {
			t.Fatalf("pod deleted with code %d", d.Status.Code)
		}
		if pdb.Status.DisruptionsAllowed != 1 {
			t.Fatalf("input modified")
		}
	})
}
