package topo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/cluster"
)

func ownedBy(apiVersion, kind, name string) podOpt {
	return func(p *corev1.Pod) {
		yes := true
		p.OwnerReferences = append(p.OwnerReferences, metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, Controller: &yes})
	}
}

// TestDefaultSelector mirrors helper.DefaultSelector's tests
// (plugins/helper/spread_test.go, v1.36).
func TestDefaultSelector(t *testing.T) {
	in := &cluster.Input{
		Services: []*corev1.Service{
			service("default", "s1", "app", "web"),
			service("default", "s2", "tier", "front"),
			service("default", "other-app", "app", "db"),
			service("ns1", "elsewhere", "app", "web"),
			{ObjectMeta: metav1.ObjectMeta{Name: "nil-selector", Namespace: "default"}},
		},
		ReplicationControllers: []*corev1.ReplicationController{
			{ObjectMeta: metav1.ObjectMeta{Name: "rc", Namespace: "default"}, Spec: corev1.ReplicationControllerSpec{Selector: map[string]string{"rc": "1"}}},
		},
		ReplicaSets: []*appsv1.ReplicaSet{
			{ObjectMeta: metav1.ObjectMeta{Name: "rs"}, Spec: appsv1.ReplicaSetSpec{Selector: selector("rs", "1")}},
			{ObjectMeta: metav1.ObjectMeta{Name: "rs-everything", Namespace: "default"}, Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{}}},
		},
		StatefulSets: []*appsv1.StatefulSet{
			{ObjectMeta: metav1.ObjectMeta{Name: "ss", Namespace: "default"}, Spec: appsv1.StatefulSetSpec{Selector: selector("ss", "1")}},
		},
	}
	tests := []struct {
		name string
		pod  *corev1.Pod
		want string
	}{
		{name: "no service and no owner: empty", pod: mkPod("p", "", lbl("x", "y")), want: ""},
		{name: "services selecting the pod are merged", pod: mkPod("p", "", lbl("app", "web", "tier", "front")), want: "app=web,tier=front"},
		{name: "services of other namespaces are ignored", pod: mkPod("p", "", lbl("app", "web"), inNamespace("ns2")), want: ""},
		{name: "replication controller", pod: mkPod("p", "", lbl("x", "y"), ownedBy("v1", "ReplicationController", "rc")), want: "rc=1"},
		{name: "replica set (empty namespace read as default)", pod: mkPod("p", "", lbl("app", "web"), ownedBy("apps/v1", "ReplicaSet", "rs")), want: "app=web,rs=1"},
		{name: "stateful set", pod: mkPod("p", "", lbl("x", "y"), ownedBy("apps/v1", "StatefulSet", "ss")), want: "ss=1"},
		{name: "an empty workload selector adds nothing", pod: mkPod("p", "", lbl("x", "y"), ownedBy("apps/v1", "ReplicaSet", "rs-everything")), want: ""},
		{name: "an unknown controller adds nothing", pod: mkPod("p", "", lbl("x", "y"), ownedBy("apps/v1", "ReplicaSet", "missing")), want: ""},
		{name: "another API version is another kind", pod: mkPod("p", "", lbl("x", "y"), ownedBy("apps/v1beta2", "ReplicaSet", "rs")), want: ""},
		{name: "a non-controller owner is ignored", pod: mkPod("p", "", lbl("x", "y"), func(p *corev1.Pod) {
			p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs"}}
		}), want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, DefaultSelector(tt.pod, in).String())
		})
	}
}
