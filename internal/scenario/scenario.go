package scenario

import (
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
)

// Scenario is one input document: a cluster and the pods to schedule. Field
// names are the standard Kubernetes JSON names.
type Scenario struct {
	Nodes           []corev1.Node                  `json:"nodes"`
	Pods            []corev1.Pod                   `json:"pods"`
	Namespaces      []corev1.Namespace             `json:"namespaces,omitempty"`
	PDBs            []policyv1.PodDisruptionBudget `json:"pdbs,omitempty"`
	PriorityClasses []schedulingv1.PriorityClass   `json:"priorityClasses,omitempty"`
	Pending         []corev1.Pod                   `json:"pending"`

	// Workloads, consulted only by PodTopologySpread's system default
	// constraints (helper.DefaultSelector in kube-scheduler).
	Services               []corev1.Service               `json:"services,omitempty"`
	ReplicaSets            []appsv1.ReplicaSet            `json:"replicaSets,omitempty"`
	StatefulSets           []appsv1.StatefulSet           `json:"statefulSets,omitempty"`
	ReplicationControllers []corev1.ReplicationController `json:"replicationControllers,omitempty"`

	// origins, when the scenario was read from Kubernetes objects or from
	// several documents, says where each list item came from (by list
	// name, aligned with the list), so that Normalize's problems name the
	// document and item the user wrote rather than a merged index.
	origins map[string][]origin
}

// origin is where one list item was read: Source as ObjectError.Source
// renders it ("" when the item's list and index say it), Kind the
// object's kind when it was read as a Kubernetes object.
type origin struct {
	Source string
	Kind   string
	seq    int // order of reading, across documents and lists
}

// locate rewrites e's location to the item's origin, when known.
func (s *Scenario) locate(e *ObjectError) {
	if e.Source != "" || e.List == "" || e.Index < 0 {
		return
	}
	if o := s.origins[e.List]; e.Index < len(o) && o[e.Index].Source != "" {
		e.Source, e.Kind = o[e.Index].Source, o[e.Index].Kind
	}
}

// where names item i of list for a message: its origin when known, else
// "list[i]".
func (s *Scenario) where(list string, i int) string {
	if o := s.origins[list]; i < len(o) && o[i].Source != "" {
		return o[i].Source
	}
	return list + "[" + strconv.Itoa(i) + "]"
}

// DeepCopy returns a copy sharing no memory with s.
func (s *Scenario) DeepCopy() *Scenario {
	if s == nil {
		return nil
	}
	out := &Scenario{}
	out.Nodes = copyEach(s.Nodes, (*corev1.Node).DeepCopyInto)
	out.Pods = copyEach(s.Pods, (*corev1.Pod).DeepCopyInto)
	out.Namespaces = copyEach(s.Namespaces, (*corev1.Namespace).DeepCopyInto)
	out.PDBs = copyEach(s.PDBs, (*policyv1.PodDisruptionBudget).DeepCopyInto)
	out.PriorityClasses = copyEach(s.PriorityClasses, (*schedulingv1.PriorityClass).DeepCopyInto)
	out.Pending = copyEach(s.Pending, (*corev1.Pod).DeepCopyInto)
	out.Services = copyEach(s.Services, (*corev1.Service).DeepCopyInto)
	out.ReplicaSets = copyEach(s.ReplicaSets, (*appsv1.ReplicaSet).DeepCopyInto)
	out.StatefulSets = copyEach(s.StatefulSets, (*appsv1.StatefulSet).DeepCopyInto)
	out.ReplicationControllers = copyEach(s.ReplicationControllers, (*corev1.ReplicationController).DeepCopyInto)
	out.origins = s.origins // never modified after decoding
	return out
}

func copyEach[T any](in []T, deepCopyInto func(*T, *T)) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i := range in {
		deepCopyInto(&in[i], &out[i])
	}
	return out
}

// PodKey returns "namespace/name", the identity the outputs use for pods.
func PodKey(p *corev1.Pod) string { return p.Namespace + "/" + p.Name }

// ObjectError is one problem with one input object: the list it is in, its
// index there, its name when known, the field path inside it and what is
// wrong. Objects read from a Kubernetes List, from a document other than
// the only one, or from one of several sources carry their Source instead,
// which names the file, the document and the item as the user wrote them.
type ObjectError struct {
	List   string // top-level field: "pods", "pending", "nodes", ...
	Index  int    // position in that list; -1 for the document itself
	Name   string // "namespace/name" or "name"; empty when unknown
	Field  string // path inside the object, e.g. "spec.containers[0].resources.requests.cpu"
	Detail string
	// Source, when set, replaces List and Index in the message:
	// "dump.yaml: document 2: items[5]" (file name only when there are
	// several sources, document number only when the file has several).
	Source string
	Kind   string // the object's kind when read as a Kubernetes object ("Pod")
}

// Error renders `pods[3] (default/web-1): spec.x: detail`, or
// `dump.yaml: items[5] (Pod default/web-1): spec.x: detail` for an object
// with a Source.
func (e *ObjectError) Error() string {
	var b strings.Builder
	if e.Source != "" || e.List != "" {
		if e.Source != "" {
			b.WriteString(e.Source)
		} else {
			b.WriteString(e.List)
			if e.Index >= 0 {
				b.WriteString("[" + strconv.Itoa(e.Index) + "]")
			}
		}
		switch {
		case e.Kind != "" && e.Name != "":
			b.WriteString(" (" + e.Kind + " " + e.Name + ")")
		case e.Kind != "":
			b.WriteString(" (" + e.Kind + ")")
		case e.Name != "":
			b.WriteString(" (" + e.Name + ")")
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Detail)
	return b.String()
}

// ErrorList is every problem found in a document, in document order. It is
// the error type Decode and Normalize return.
type ErrorList []*ObjectError

// Error joins the problems, one per line.
func (l ErrorList) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// asError returns nil for an empty list, so that callers can return it
// directly as an error.
func (l ErrorList) asError() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
