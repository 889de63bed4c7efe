// Package scenario reads the cluster scenario documents of the simulate
// command (../shared/conformance/README.md, "Input") and turns them into the
// objects kube-apiserver would have stored, which is what kube-scheduler
// sees.
//
// # Decoding
//
// [Decode] accepts one input file, JSON or YAML (YAML is converted with
// sigs.k8s.io/yaml, so the same Kubernetes JSON field names apply);
// [DecodeSources] accepts several, read as one input. A YAML file may be a
// stream of documents separated by "---" lines, a JSON file a stream of
// objects one after another, and each document is
// either a scenario object (nodes, pods, pending, ...) or Kubernetes
// objects as kubectl get -o yaml|json writes them: one object, a kind
// List, or a typed list (PodList, ...). Documents are merged in order and
// objects sorted into the scenario's lists by apiVersion and kind (a Pod
// with spec.nodeName is bound, one without is pending, a terminal one is
// left out, all of them in one warning, as kube-scheduler's informer
// leaves them out); other kinds are counted in one warning; a known kind of another
// apiVersion is an error. examples/simulate/INPUT.md documents the format
// for users.
//
// Every list item is decoded on its own, so that an error names the object
// and the field inside it, and, for objects read from a List, from one of
// several documents or files, where it was written:
//
//	pods[3] (default/web-1): spec.containers[0].resources.requests.cpu: invalid quantity "abc"
//	b.yaml: document 2 at line 14: items[5] (Pod default/web-1): spec.containers[0]...: invalid quantity "abc"
//
// Every malformed item is reported, not only the first, in input order,
// and a partial scenario is never returned. An unknown top-level field of
// a scenario document is an error naming the closest valid field (a typo
// there would drop a whole list). Fields inside objects that no
// Kubernetes type knows are kept out and reported as warnings, as
// kube-apiserver's default field validation reports them: a real
// cluster's dump from a newer release carries fields these types lack.
// Normalize's problems name the object's origin too.
//
// # Normalization
//
// [Normalize] returns a normalized deep copy; the decoded scenario is never
// modified. [Load] is Decode then Normalize without the copy (the decoded
// objects never reach the caller). It applies, in this order, what the API
// server does on create:
//
//  1. v1 defaulting, reimplemented by hand after
//     k8s.io/kubernetes/pkg/apis/core/v1 (defaults.go and
//     zz_generated.defaults.go, SetObjectDefaults_Pod, _Node, _Namespace,
//     _ReplicationController) as of v1.36: container and init-container
//     requests default to their limits; pod-level requests and hugepage
//     limits default as defaultPodRequests/defaultHugePagePodLimits do
//     (PodLevelResources is on by default); every quantity is rounded up to
//     milli precision (SetDefaults_ResourceList); port protocols default to
//     TCP and, for hostNetwork pods, hostPort to containerPort;
//     restartPolicy, dnsPolicy, schedulerName and the grace period get their
//     defaults; node allocatable defaults to capacity (only when absent);
//     namespaces get the kubernetes.io/metadata.name label; a
//     ReplicationController's selector defaults to its template labels.
//     Volume, probe and environment defaults are not applied: no scheduling
//     rule reads them.
//  2. The pod REST strategy's create mutations
//     (pkg/registry/core/pod/strategy.go, mutatePodAffinity and
//     mutateTopologySpreadConstraints): matchLabelKeys and mismatchLabelKeys
//     of pod (anti-)affinity terms, and matchLabelKeys of topology spread
//     constraints, are merged into the label selector as In / NotIn
//     requirements on the pod's own label values. Both feature gates
//     (MatchLabelKeysInPodAffinity, MatchLabelKeysInPodTopologySpreadSelectorMerge)
//     are on by default in v1.36.
//  3. Priority admission (plugin/pkg/admission/priority), leniently:
//     spec.priority when set, else the class named by priorityClassName,
//     else the globalDefault class with the lowest value, else 0; the
//     built-in system-node-critical and system-cluster-critical classes
//     always exist; preemptionPolicy is copied from the class when unset
//     (PreemptLowerPriority by default). Where admission would reject the
//     pod (unknown class, priority contradicting its class) a warning is
//     returned instead and the pod is kept.
//  4. Scenario conventions: an empty namespace is "default"; a missing uid
//     is "uid-NAMESPACE-NAME"; bound pods without status.startTime take
//     metadata.creationTimestamp, else 2020-01-01T00:00:00Z (preemption
//     orders victims by start time); pending pods' status.nominatedNodeName
//     is cleared with a warning (the simulation has no nominator).
//
// Objects with the same identity (pods across "pods" and "pending" by
// namespace/name, nodes, namespaces, priority classes by name) are an error,
// as the API server would refuse the second create. Label selectors are
// validated the way labels.NewRequirement does, so a bad one is reported
// with its path before any scheduling happens.
//
// The rules follow the upstream oracle's API-server emulation
// (../shared/oracle/internal/scenario), which runs the real defaulting code;
// the tests of this package pin each rule, and the normalized objects of
// every public conformance scenario are identical to the oracle's
// (-normalized-out), apart from Service and StatefulSet defaults that no
// scheduling rule reads.
//
// # Deliberate differences from the oracle
//
//   - PDBs, Services, ReplicaSets, StatefulSets and ReplicationControllers
//     without a namespace are put in "default", as the API server would; the
//     oracle leaves their namespace empty, so that they match no pod.
//   - Defaults of Service, ReplicaSet and StatefulSet specs (session
//     affinity, update strategy, ...) are not applied.
//   - Objects the API server would refuse for reasons that matter to a
//     scheduling rule (see validate.go) are errors here; the oracle passes
//     them to the scheduler as they are.
//
// # Concurrency
//
// The package has no state; its functions may be called concurrently.
package scenario
