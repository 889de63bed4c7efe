package preemption

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// FuzzPriorityClasses feeds arbitrary classes and pods to NewPriorityClasses
// and Resolve: never a panic; an accepted pod resolves to what the lenient
// resolution gives; WithPriority agrees with Resolve.
func FuzzPriorityClasses(f *testing.F) {
	f.Add("standard", int32(1000), true, "Never", "standard", int32(1000), true, "")
	f.Add("system-node-critical", int32(2000001000), false, "", "system-node-critical", int32(0), false, "Never")
	f.Add("Bad_Name", int32(2000000001), true, "Sometimes", "", int32(5), true, "PreemptLowerPriority")
	f.Fuzz(func(t *testing.T, name string, value int32, def bool, pol, podClass string, podPrio int32, setPrio bool, podPol string) {
		class := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value, GlobalDefault: def}
		if pol != "" {
			p := corev1.PreemptionPolicy(pol)
			class.PreemptionPolicy = &p
		}
		pcs, err := NewPriorityClasses([]*schedulingv1.PriorityClass{class})
		if err != nil {
			return
		}
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"}}
		pod.Spec.PriorityClassName = podClass
		if setPrio {
			pod.Spec.Priority = &podPrio
		}
		if podPol != "" {
			p := corev1.PreemptionPolicy(podPol)
			pod.Spec.PreemptionPolicy = &p
		}
		r, err := pcs.Resolve(pod)
		lenient, warning := pcs.ResolveLenient(pod)
		admitted, aerr := pcs.WithPriority(pod)
		if (err == nil) != (aerr == nil) {
			t.Fatalf("Resolve and WithPriority disagree: %v / %v", err, aerr)
		}
		if err != nil {
			return
		}
		if r != lenient || warning != "" {
			t.Fatalf("accepted pod resolves leniently to %+v (%q), strictly to %+v", lenient, warning, r)
		}
		if *admitted.Spec.Priority != r.Priority || *admitted.Spec.PreemptionPolicy != r.PreemptionPolicy {
			t.Fatalf("WithPriority wrote %d/%s, Resolve says %+v", *admitted.Spec.Priority, *admitted.Spec.PreemptionPolicy, r)
		}
	})
}
