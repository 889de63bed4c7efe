package labelmatch

import (
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
)

// AsSelector is metav1.LabelSelectorAsSelector with a deterministic error.
// Upstream validates matchLabels in map order and returns the first invalid
// pair's error, so a selector with two invalid labels can fail with either
// message from one run to the next. When upstream reports an error, the
// matchLabels pairs are validated again in key order and the first failing
// pair's error (the same text upstream would give for that pair) is
// returned; otherwise the result is upstream's, unchanged. Valid selectors
// pay nothing extra. ls is not modified.
func AsSelector(ls *metav1.LabelSelector) (labels.Selector, error) {
	sel, err := metav1.LabelSelectorAsSelector(ls)
	if err == nil || len(ls.MatchLabels) < 2 {
		return sel, err
	}
	keys := make([]string, 0, len(ls.MatchLabels))
	for k := range ls.MatchLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, e := labels.NewRequirement(k, selection.Equals, []string{ls.MatchLabels[k]}); e != nil {
			return nil, e
		}
	}
	// Every pair is valid: the error came from matchExpressions, which
	// upstream checks in list order (deterministic).
	return nil, err
}
