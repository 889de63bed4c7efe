package taints

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
)

// TestTolerates mirrors corev1.Toleration.ToleratesTaint with the
// TaintTolerationComparisonOperators gate off.
func TestTolerates(t *testing.T) {
	taint := corev1.Taint{Key: "k", Value: "v", Effect: corev1.TaintEffectNoSchedule}
	tests := []struct {
		name string
		tol  corev1.Toleration
		want bool
	}{
		{"equal key, value and effect", corev1.Toleration{Key: "k", Operator: corev1.TolerationOpEqual, Value: "v", Effect: corev1.TaintEffectNoSchedule}, true},
		{"empty operator means Equal", corev1.Toleration{Key: "k", Value: "v"}, true},
		{"other value", corev1.Toleration{Key: "k", Value: "w"}, false},
		{"exists ignores the value", corev1.Toleration{Key: "k", Operator: corev1.TolerationOpExists}, true},
		{"empty key with Exists matches every key", corev1.Toleration{Operator: corev1.TolerationOpExists}, true},
		{"other key", corev1.Toleration{Key: "j", Operator: corev1.TolerationOpExists}, false},
		{"other effect", corev1.Toleration{Key: "k", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute}, false},
		{"Gt never matches with the gate off", corev1.Toleration{Key: "k", Operator: "Gt", Value: "1"}, false},
		{"Lt never matches with the gate off", corev1.Toleration{Key: "k", Operator: "Lt", Value: "9"}, false},
		// An empty key is not validated away here: with Equal it compares
		// only the value, whatever the taint's key.
		{"empty key with Equal and the taint's value", corev1.Toleration{Operator: corev1.TolerationOpEqual, Value: "v"}, true},
		{"empty key with Equal and another value", corev1.Toleration{Operator: corev1.TolerationOpEqual, Value: "w"}, false},
		{"empty key and empty operator compares the empty value", corev1.Toleration{}, false},
		{"empty effect matches every effect", corev1.Toleration{Key: "k", Value: "v"}, true},
		{"unknown operator never matches", corev1.Toleration{Key: "k", Operator: "Like", Value: "v"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Tolerates(&tt.tol, &taint))
			assert.Equal(t, tt.want, ToleratesAny([]corev1.Toleration{{Key: "other", Value: "x"}, tt.tol}, &taint))
		})
	}
	assert.False(t, ToleratesAny(nil, &taint), "no tolerations tolerate nothing")
}

// TestUntolerated mirrors v1helper.FindMatchingUntoleratedTaint with
// DoNotScheduleTaintsFilterFunc and Toleration.ToleratesTaint (gate
// TaintTolerationComparisonOperators off), which TaintToleration's Filter
// and nodeTaintsPolicy: Honor use. want is whether every taint that counts
// is tolerated.
func TestUntolerated(t *testing.T) {
	taint := func(key, value string, effect corev1.TaintEffect) corev1.Taint {
		return corev1.Taint{Key: key, Value: value, Effect: effect}
	}
	tests := []struct {
		name   string
		taints []corev1.Taint
		tols   []corev1.Toleration
		want   bool
	}{
		{"no taints", nil, nil, true},
		{"PreferNoSchedule is ignored", []corev1.Taint{taint("a", "", corev1.TaintEffectPreferNoSchedule)}, nil, true},
		{"NoSchedule untolerated", []corev1.Taint{taint("a", "x", corev1.TaintEffectNoSchedule)}, nil, false},
		{"NoExecute untolerated", []corev1.Taint{taint("a", "x", corev1.TaintEffectNoExecute)}, nil, false},
		{"Equal with the value", []corev1.Taint{taint("a", "x", corev1.TaintEffectNoSchedule)},
			[]corev1.Toleration{{Key: "a", Value: "x"}}, true},
		{"Equal with another value", []corev1.Taint{taint("a", "x", corev1.TaintEffectNoSchedule)},
			[]corev1.Toleration{{Key: "a", Operator: corev1.TolerationOpEqual, Value: "y"}}, false},
		{"Exists with an empty key tolerates everything", []corev1.Taint{taint("a", "x", corev1.TaintEffectNoSchedule)},
			[]corev1.Toleration{{Operator: corev1.TolerationOpExists}}, true},
		{"the effect must match when set", []corev1.Taint{taint("a", "x", corev1.TaintEffectNoSchedule)},
			[]corev1.Toleration{{Key: "a", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute}}, false},
		{"Gt never tolerates with the gate off", []corev1.Taint{taint("a", "5", corev1.TaintEffectNoSchedule)},
			[]corev1.Toleration{{Key: "a", Operator: "Gt", Value: "1"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, !tt.want, Untolerated(tt.taints, tt.tols))
		})
	}
}
