// Package labelmatch flattens a labels.Selector for hot loops: each
// requirement becomes a key, an operator class and its values, so a match is
// one map lookup and a few string compares per requirement, with no interface
// call and no allocation. A Matcher decides exactly as the selector it was
// built from (labels.Requirement.Matches, apimachinery v0.36); the Gt and Lt
// operators, rare in practice, are delegated to labels.Requirement.Matches.
//
// For indexes of label sets, a Matcher also describes its requirements as
// anchors (AnchorAt: In/Equals and Exists, and Gt/Lt on their key, which a
// label set can only satisfy by carrying the key) and exclusions
// (ExclusionAt: NotIn/NotEquals and DoesNotExist), so that a caller holding
// postings by label can narrow or decide the sets a selector matches
// without evaluating each one; SingleAnchor tells when the anchor alone
// decides.
//
// AsSelector is metav1.LabelSelectorAsSelector with one difference: when a
// selector's matchLabels hold several invalid pairs, the error names the
// first in key order (upstream's names whichever map iteration meets
// first), so the same input always gives the same error. Every package
// converts caller selectors through it.
//
// A Matcher is immutable once built and safe for concurrent use.
package labelmatch
