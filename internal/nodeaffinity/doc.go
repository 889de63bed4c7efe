// Package nodeaffinity compiles node selector terms once and matches them
// against nodes cheaply, as component-helpers' scheduling/corev1/nodeaffinity
// (v0.36) decides: label requirements of a term are ANDed, its field
// requirements are ANDed, terms are ORed, an empty term selects nothing, and
// matchFields only reads metadata.name and is skipped for a node without a
// name. Compiling reports every problem at once with its field path; after
// that, matching cannot fail, allocates nothing and makes no interface call
// for the In / NotIn / Exists / DoesNotExist operators.
//
// Indexed forms (Term.Index, Selector.Index, Preferred.Index,
// LabelsIndexed) settle each label requirement once per distinct value of
// its key in a snapshot's node label columns, so that matching a node of
// that snapshot is an array load and a table load per requirement; they
// decide exactly as the map forms (a property test checks it).
//
// It is shared by placement (NodeAffinity filter and score), topology
// (PodTopologySpread's node inclusion policy) and the scenario validator.
// Compiled values are immutable and safe for concurrent use.
package nodeaffinity
