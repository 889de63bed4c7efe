package hostile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/internal/sched"
)

type answer struct {
	Names    []string
	Labels   map[string]string
	Taints   []corev1.Taint
	Pod      *corev1.Pod // an input handed back, or a new object
	Statuses []sched.Status
}

func TestScrambleShowsSharing(t *testing.T) {
	input := func() *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{Tolerations: []corev1.Toleration{{Key: "k"}}}}
	}
	for _, tc := range []struct {
		name    string
		answer  func(in *corev1.Pod) *answer
		changed bool
	}{
		{"own slices and maps", func(in *corev1.Pod) *answer {
			return &answer{Names: []string{"a"}, Labels: map[string]string{"app": "web"}, Pod: in}
		}, false},
		{"a map of the input", func(in *corev1.Pod) *answer { return &answer{Labels: in.Labels} }, true},
		{"a new object sharing the input's maps", func(in *corev1.Pod) *answer {
			c := *in
			return &answer{Pod: &c}
		}, true},
		{"a new object deep-copied", func(in *corev1.Pod) *answer { return &answer{Pod: in.DeepCopy()} }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := input()
			f := Freeze(in)
			f.Scramble(tc.answer(in))
			assert.Equal(t, tc.changed, len(f.Changed()) > 0, f.Changed())
		})
	}
}

// A status's reasons are scrambled like any slice an answer holds: an
// answer that shares them with other answers shows it.
func TestScrambleReachesReasons(t *testing.T) {
	shared := []string{"reason"}
	Freeze().Scramble(&answer{Statuses: []sched.Status{{Reasons: shared}}})
	assert.Equal(t, []string{""}, shared)
}

func TestUnlabeled(t *testing.T) {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web", UnrelatedLabelKeys[0]: "x"}}}
	got := Unlabeled([]any{&answer{Pod: p}})
	assert.Equal(t, map[string]string{"app": "web"}, got[0].(*answer).Pod.Labels)
}
