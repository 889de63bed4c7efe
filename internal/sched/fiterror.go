package sched

import (
	"fmt"
	"sort"
	"strings"
)

// FitErrorMessage is framework.FitError.Error's text
// (pkg/scheduler/framework/types.go, v1.36) without a PostFilter message,
// written once for every package that reports an unschedulable pod:
// "0/N nodes are available:" followed by the PreFilter reasons joined with
// ", " when PreFilter rejected the pod, else by the histogram's
// "COUNT REASON" entries sorted as strings (sortReasonsHistogram) and joined
// with ", ", then a period. With neither, the text ends after the colon.
func FitErrorMessage(numNodes int, preFilterReasons []string, histogram map[string]int) string {
	msg := fmt.Sprintf("0/%d nodes are available:", numNodes)
	if len(preFilterReasons) > 0 {
		return msg + " " + strings.Join(preFilterReasons, ", ") + "."
	}
	if len(histogram) == 0 {
		return msg
	}
	parts := make([]string, 0, len(histogram))
	for r, n := range histogram {
		parts = append(parts, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(parts)
	return msg + " " + strings.Join(parts, ", ") + "."
}
