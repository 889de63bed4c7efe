package labelmatch

import (
	"sort"
	"strings"

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
// returned; otherwise the result is upstream's, unchanged. ls is not
// modified.
//
// A selector of matchLabels only whose keys and values are all valid (the
// common case: workload, budget, spread and affinity selectors) is built
// without labels.NewRequirement's regular expressions (ValidKey, ValidValue
// decide the same), into the selector upstream returns for it: its Equals
// requirements sorted by key, labels.SelectorFromValidatedSet's form.
// Anything else takes upstream's path.
func AsSelector(ls *metav1.LabelSelector) (labels.Selector, error) {
	if ls != nil && len(ls.MatchExpressions) == 0 && len(ls.MatchLabels) > 0 && validSet(ls.MatchLabels) {
		return labels.SelectorFromValidatedSet(labels.Set(ls.MatchLabels)), nil
	}
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

// validSet reports whether every key of m is a valid label key and every
// value a valid label value, as labels.NewRequirement checks them
// (content.IsLabelKey, validation.IsValidLabelValue).
func validSet(m map[string]string) bool {
	for k, v := range m {
		if !ValidKey(k) || !ValidValue(v) {
			return false
		}
	}
	return true
}

// ValidKey reports whether k is a valid label key (content.IsLabelKey
// returns no error): an optional DNS-1123 subdomain prefix of at most 253
// characters and a '/', then a name of 1-63 characters from
// [-A-Za-z0-9_.] that starts and ends with an alphanumeric character.
func ValidKey(k string) bool {
	name := k
	if i := strings.IndexByte(k, '/'); i >= 0 {
		prefix := k[:i]
		name = k[i+1:]
		if strings.IndexByte(name, '/') >= 0 || !validSubdomain(prefix) {
			return false
		}
	}
	return len(name) > 0 && len(name) <= 63 && validName(name)
}

// ValidValue reports whether v is a valid label value
// (validation.IsValidLabelValue returns no error): empty, or at most 63
// characters from [-A-Za-z0-9_.] that start and end with an alphanumeric
// character.
func ValidValue(v string) bool {
	return v == "" || (len(v) <= 63 && validName(v))
}

// validName matches ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] (non-empty).
func validName(s string) bool {
	if !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// validSubdomain is content.IsDNS1123Subdomain without error: at most 253
// characters, dot-separated labels of [-a-z0-9] that start and end with
// [a-z0-9].
func validSubdomain(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || !isLowerAlnum(label[0]) || !isLowerAlnum(label[len(label)-1]) {
			return false
		}
		for i := 1; i < len(label)-1; i++ {
			if c := label[i]; !isLowerAlnum(c) && c != '-' {
				return false
			}
		}
	}
	return true
}

func isLowerAlnum(c byte) bool { return ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') }

func isAlnum(c byte) bool { return isLowerAlnum(c) || ('A' <= c && c <= 'Z') }
