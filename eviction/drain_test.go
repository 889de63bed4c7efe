package eviction

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestSelectDrainPods mirrors kubectl drain's filters
// (k8s.io/kubectl/pkg/drain/filters.go): one case per rule and option.
func TestSelectDrainPods(t *testing.T) {
	ds := []*appsv1.DaemonSet{{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "agent"}}}
	rsPod := func(name string) podB { return newPod("ns", name).owner("apps/v1", "ReplicaSet", "rs", "rs-uid") }
	dsPod := func(name, dsName string) podB {
		return newPod("ns", name).owner("apps/v1", "DaemonSet", dsName, "ds-uid")
	}
	longAgo := testNow.Add(-time.Hour)
	tests := []struct {
		name     string
		pods     []*corev1.Pod
		opts     DrainOptions
		evict    []string
		warnings []string
		errors   []string
	}{
		{"a replicated pod is evicted", []*corev1.Pod{rsPod("a").obj()}, DrainOptions{}, []string{"ns/a"}, nil, nil},
		{"pods on other nodes are not considered", []*corev1.Pod{rsPod("a").node("node-2").obj()}, DrainOptions{}, nil, nil, nil},
		{"a DaemonSet pod is refused without --ignore-daemonsets", []*corev1.Pod{dsPod("d", "agent").obj()}, DrainOptions{}, nil, nil,
			[]string{"cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ns/d"}},
		{"a DaemonSet pod is skipped with a warning under --ignore-daemonsets", []*corev1.Pod{dsPod("d", "agent").obj()}, DrainOptions{IgnoreAllDaemonSets: true}, nil,
			[]string{"ignoring DaemonSet-managed Pods: ns/d"}, nil},
		{"a finished DaemonSet pod is deleted", []*corev1.Pod{dsPod("d", "agent").phase(corev1.PodSucceeded).obj()}, DrainOptions{}, []string{"ns/d"}, nil, nil},
		{"an orphaned DaemonSet pod is refused", []*corev1.Pod{dsPod("d", "gone").obj()}, DrainOptions{IgnoreAllDaemonSets: true}, nil, nil,
			[]string{`cannot delete daemonsets.apps "gone" not found: ns/d`}},
		{"an orphaned DaemonSet pod is deleted under --force; the later filters drop the warning", []*corev1.Pod{dsPod("d", "gone").obj()}, DrainOptions{Force: true}, []string{"ns/d"}, nil, nil},
		{"a mirror pod is skipped silently", []*corev1.Pod{newPod("ns", "m").annotate(corev1.MirrorPodAnnotationKey, "x").obj()}, DrainOptions{}, nil, nil, nil},
		{"an emptyDir pod is refused without --delete-emptydir-data", []*corev1.Pod{rsPod("e").emptyDir().obj()}, DrainOptions{}, nil, nil,
			[]string{"cannot delete Pods with local storage (use --delete-emptydir-data to override): ns/e"}},
		{"an emptyDir pod is evicted under --delete-emptydir-data, its warning dropped", []*corev1.Pod{rsPod("e").emptyDir().obj()}, DrainOptions{DeleteEmptyDirData: true}, []string{"ns/e"}, nil, nil},
		{"a finished emptyDir pod is deleted", []*corev1.Pod{rsPod("e").emptyDir().phase(corev1.PodFailed).obj()}, DrainOptions{}, []string{"ns/e"}, nil, nil},
		{"an unmanaged pod is refused without --force", []*corev1.Pod{newPod("ns", "u").obj(), newPod("ns", "v").obj()}, DrainOptions{}, nil, nil,
			[]string{"cannot delete Pods that declare no controller (use --force to override): ns/u, ns/v"}},
		{"an unmanaged pod is deleted under --force with a warning", []*corev1.Pod{newPod("ns", "u").obj()}, DrainOptions{Force: true}, []string{"ns/u"},
			[]string{"deleting Pods that declare no controller: ns/u"}, nil},
		{"a finished unmanaged pod is deleted", []*corev1.Pod{newPod("ns", "u").phase(corev1.PodSucceeded).obj()}, DrainOptions{}, []string{"ns/u"}, nil, nil},
		{"a pod deleted long ago is skipped with skipWaitForDeleteTimeout", []*corev1.Pod{rsPod("t").terminating(longAgo, 30).obj()},
			DrainOptions{SkipWaitForDeleteTimeoutSeconds: 60, Now: testNow}, nil, nil, nil},
		{"a pod deleted recently is still evicted", []*corev1.Pod{rsPod("t").terminating(testNow.Add(-30*time.Second), 30).obj()},
			DrainOptions{SkipWaitForDeleteTimeoutSeconds: 60, Now: testNow}, []string{"ns/t"}, nil, nil},
		{"without the timeout terminating pods are evicted", []*corev1.Pod{rsPod("t").terminating(longAgo, 30).obj()}, DrainOptions{Now: testNow}, []string{"ns/t"}, nil, nil},
		{"the pod selector restricts the pods", []*corev1.Pod{rsPod("a").obj(), rsPod("b").labels("app", "db").obj()}, DrainOptions{PodSelector: "app=db"}, []string{"ns/b"}, nil, nil},
		{"an orphaned DaemonSet pod's not-found error comes before --ignore-daemonsets is looked at", []*corev1.Pod{dsPod("d", "gone").obj()}, DrainOptions{}, nil, nil,
			[]string{`cannot delete daemonsets.apps "gone" not found: ns/d`}},
		{"a DaemonSet reference of another apiVersion is an ordinary controller", []*corev1.Pod{newPod("ns", "d").owner("extensions/v1beta1", "DaemonSet", "agent", "ds-uid").obj()},
			DrainOptions{}, []string{"ns/d"}, nil, nil},
		{"a DaemonSet pod with an emptyDir stops at the DaemonSet filter", []*corev1.Pod{dsPod("d", "agent").emptyDir().obj()}, DrainOptions{IgnoreAllDaemonSets: true}, nil,
			[]string{"ignoring DaemonSet-managed Pods: ns/d"}, nil},
		{"a mirror pod without a controller is skipped before the unreplicated filter", []*corev1.Pod{newPod("ns", "m").annotate(corev1.MirrorPodAnnotationKey, "x").emptyDir().obj()},
			DrainOptions{}, nil, nil, nil},
		{"an unmanaged emptyDir pod under both flags keeps only the unmanaged warning", []*corev1.Pod{newPod("ns", "u").emptyDir().obj()},
			DrainOptions{Force: true, DeleteEmptyDirData: true}, []string{"ns/u"}, []string{"deleting Pods that declare no controller: ns/u"}, nil},
		{"an unmanaged emptyDir pod without --delete-emptydir-data stops at local storage", []*corev1.Pod{newPod("ns", "u").emptyDir().obj()}, DrainOptions{Force: true}, nil, nil,
			[]string{"cannot delete Pods with local storage (use --delete-emptydir-data to override): ns/u"}},
		{"an owner that is not the controller leaves the pod unmanaged", []*corev1.Pod{notController(rsPod("o").obj())}, DrainOptions{}, nil, nil,
			[]string{"cannot delete Pods that declare no controller (use --force to override): ns/o"}},
		{"a pod deleted exactly the timeout ago is still evicted (strictly more is skipped)", []*corev1.Pod{rsPod("t").terminating(testNow.Add(-60*time.Second), 30).obj()},
			DrainOptions{SkipWaitForDeleteTimeoutSeconds: 60, Now: testNow}, []string{"ns/t"}, nil, nil},
		{"a skipped terminating pod is not refused for having no controller", []*corev1.Pod{newPod("ns", "t").terminating(longAgo, 30).obj()},
			DrainOptions{SkipWaitForDeleteTimeoutSeconds: 60, Now: testNow}, nil, nil, nil},
		{"errors of several kinds are listed in sorted order", []*corev1.Pod{newPod("ns", "u").obj(), rsPod("e").emptyDir().obj(), dsPod("d", "agent").obj()}, DrainOptions{}, nil, nil,
			[]string{"cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ns/d", "cannot delete Pods that declare no controller (use --force to override): ns/u", "cannot delete Pods with local storage (use --delete-emptydir-data to override): ns/e"}},
		{"errors do not stop other pods from being listed", []*corev1.Pod{newPod("ns", "u").obj(), rsPod("a").obj()}, DrainOptions{}, []string{"ns/a"}, nil,
			[]string{"cannot delete Pods that declare no controller (use --force to override): ns/u"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := SelectDrainPods("node-1", tc.pods, ds, tc.opts)
			require.NoError(t, err)
			var got []string
			for _, p := range s.Pods() {
				got = append(got, p.Namespace+"/"+p.Name)
			}
			assert.Equal(t, tc.evict, got)
			assert.Equal(t, nonNil(tc.warnings), s.Warnings())
			assert.Equal(t, nonNil(tc.errors), s.Errors())
		})
	}
	_, err := SelectDrainPods("node-1", nil, nil, DrainOptions{PodSelector: "a in (b"})
	assert.Error(t, err, "a malformed selector is an error")
	assert.ErrorIs(t, err, ErrInvalidSelector)
	assert.NotContains(t, err.Error(), "eviction:", "kubectl's text alone")
}

// notController clears the controller flag of the pod's owner references.
func notController(p *corev1.Pod) *corev1.Pod {
	f := false
	for i := range p.OwnerReferences {
		p.OwnerReferences[i].Controller = &f
	}
	return p
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Issue 21: two pods with one namespace and name cannot come from a
// cluster; SelectDrainPods names every repeat instead of answering.
func TestSelectDrainPodsRefusesDuplicates(t *testing.T) {
	a := newPod("ns", "web-0").obj()
	b := newPod("ns", "web-0").obj()
	c := newPod("", "solo").obj()
	d := newPod("default", "solo").obj()
	_, err := SelectDrainPods("node-1", []*corev1.Pod{a, nil, b, c, d}, nil, DrainOptions{})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrDuplicatePod))
	assert.Equal(t, `eviction: duplicate pod: [pods[2].metadata.name: Duplicate value: "ns/web-0", pods[4].metadata.name: Duplicate value: "default/solo"]`, err.Error())

	// Same name in two namespaces is two pods.
	e := newPod("other", "web-0").obj()
	sel, err := SelectDrainPods("node-1", []*corev1.Pod{a, e}, nil, DrainOptions{})
	require.NoError(t, err)
	assert.Len(t, sel.Verdicts, 2)
}
