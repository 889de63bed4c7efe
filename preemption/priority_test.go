package preemption

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func pc(name string, value int32, def bool, pol ...corev1.PreemptionPolicy) *schedulingv1.PriorityClass {
	c := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value, GlobalDefault: def}
	if len(pol) > 0 {
		c.PreemptionPolicy = &pol[0]
	}
	return c
}

// TestResolve mirrors plugin/pkg/admission/priority admitPod / establishPriority.
func TestResolve(t *testing.T) {
	classes := []*schedulingv1.PriorityClass{
		pc("low", 100, false),
		pc("standard", 1000, true),
		pc("also-default", 500, true),
		pc("nonpreempting", 100000, false, corev1.PreemptNever),
	}
	pcs, err := NewPriorityClasses(classes)
	require.NoError(t, err)
	tests := []struct {
		name    string
		pod     *corev1.Pod
		want    Resolution
		wantErr error
		msg     string
	}{
		{name: "named class", pod: mkPod("a", className("low")),
			want: Resolution{"low", 100, corev1.PreemptLowerPriority}},
		{name: "globalDefault with the lowest value wins", pod: mkPod("a"),
			want: Resolution{"also-default", 500, corev1.PreemptLowerPriority}},
		{name: "class preemptionPolicy", pod: mkPod("a", className("nonpreempting")),
			want: Resolution{"nonpreempting", 100000, corev1.PreemptNever}},
		{name: "built-in system-node-critical", pod: mkPod("a", className("system-node-critical")),
			want: Resolution{"system-node-critical", 2000001000, corev1.PreemptLowerPriority}},
		{name: "built-in system-cluster-critical", pod: mkPod("a", className("system-cluster-critical")),
			want: Resolution{"system-cluster-critical", 2000000000, corev1.PreemptLowerPriority}},
		{name: "spec.priority agreeing with the class", pod: mkPod("a", className("low"), prio(100)),
			want: Resolution{"low", 100, corev1.PreemptLowerPriority}},
		{name: "unknown class", pod: mkPod("a", className("nope")), wantErr: ErrUnknownPriorityClass,
			msg: `pods "a" is forbidden: no PriorityClass with name nope was found`},
		{name: "spec.priority contradicting the class", pod: mkPod("a", className("low"), prio(7)), wantErr: ErrPriorityMismatch,
			msg: `pods "a" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 100 from the given PriorityClass name`},
		{name: "spec.preemptionPolicy contradicting the class", pod: mkPod("a", className("nonpreempting"), policy(corev1.PreemptLowerPriority)),
			wantErr: ErrPreemptionPolicyMismatch,
			msg:     `pods "a" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pcs.Resolve(tt.pod)
			if tt.wantErr != nil {
				require.Error(t, err)
				assert.True(t, errors.Is(err, tt.wantErr))
				assert.True(t, apierrors.IsForbidden(err))
				assert.Equal(t, tt.msg, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestResolveWithoutClasses(t *testing.T) {
	pcs, err := NewPriorityClasses(nil)
	require.NoError(t, err)
	got, err := pcs.Resolve(mkPod("a"))
	require.NoError(t, err)
	assert.Equal(t, Resolution{"", 0, corev1.PreemptLowerPriority}, got)
	_, err = pcs.Resolve(mkPod("a", prio(5)))
	assert.ErrorIs(t, err, ErrPriorityMismatch)
}

func TestResolveLenient(t *testing.T) {
	pcs, err := NewPriorityClasses([]*schedulingv1.PriorityClass{pc("low", 100, false, corev1.PreemptNever)})
	require.NoError(t, err)
	r, w := pcs.ResolveLenient(mkPod("a", className("low"), prio(7)))
	assert.Equal(t, Resolution{"low", 7, corev1.PreemptNever}, r)
	assert.Empty(t, w)
	r, w = pcs.ResolveLenient(mkPod("a", className("gone")))
	assert.Equal(t, Resolution{"gone", 0, corev1.PreemptLowerPriority}, r)
	assert.Contains(t, w, "no PriorityClass with name gone was found")
}

func TestAdmitDoesNotModifyThePod(t *testing.T) {
	pcs, err := NewPriorityClasses([]*schedulingv1.PriorityClass{pc("low", 100, true)})
	require.NoError(t, err)
	in := mkPod("a")
	out, err := pcs.WithPriority(in)
	require.NoError(t, err)
	assert.Nil(t, in.Spec.Priority)
	assert.Equal(t, int32(100), *out.Spec.Priority)
	assert.Equal(t, "low", out.Spec.PriorityClassName)
	assert.Equal(t, corev1.PreemptLowerPriority, *out.Spec.PreemptionPolicy)
}

// TestValidatePriorityClass mirrors pkg/apis/scheduling/validation ValidatePriorityClass.
func TestValidatePriorityClass(t *testing.T) {
	bad := corev1.PreemptionPolicy("Sometimes")
	tests := []struct {
		name  string
		class *schedulingv1.PriorityClass
		want  []string
	}{
		{"user class at the limit", pc("top", 1000000000, false), nil},
		{"user class above the limit", pc("huge", 1000000001, false),
			[]string{"value: Forbidden: maximum allowed value of a user defined priority is 1000000000"}},
		{"system prefix unknown", pc("system-mine", 10, false),
			[]string{"metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"}},
		{"system class with another value", pc("system-node-critical", 10, false),
			[]string{"metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000"}},
		{"system class as globalDefault", pc("system-cluster-critical", 2000000000, true),
			[]string{"metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false"}},
		{"exact system class", pc("system-cluster-critical", 2000000000, false), nil},
		{"bad policy", pc("p", 1, false, bad),
			[]string{`preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"`}},
		{"bad name", pc("Not_DNS", 1, false), []string{"metadata.name: Invalid value: \"Not_DNS\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, e := range ValidatePriorityClass(tt.class, nil) {
				got = append(got, e.Error())
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestNewPriorityClassesRejects(t *testing.T) {
	_, err := NewPriorityClasses([]*schedulingv1.PriorityClass{pc("a", 1, false), pc("a", 2, false), pc("huge", 2000000000, false)})
	require.ErrorIs(t, err, ErrInvalidPriorityClass)
	assert.Contains(t, err.Error(), `priorityClasses[1].metadata.name: Duplicate value: "a"`)
	assert.Contains(t, err.Error(), "priorityClasses[2].value: Forbidden")
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Len(t, ve.Errors, 2)
}
