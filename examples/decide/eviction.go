package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedkit/schedkit/eviction"
	"github.com/schedkit/schedkit/internal/cluster"
)

// answerEviction answers the kinds of the eviction package: eviction,
// pdb-status, drain-filter, memory-ranking, pid-ranking, taint-eviction-time.
// ok is false for any other kind.
func answerEviction(kind string, input json.RawMessage) (out any, ok bool, err error) {
	switch kind {
	case "eviction":
		out, err = evAnswerEviction(input)
	case "pdb-status":
		out, err = evAnswerPDBStatus(input)
	case "drain-filter":
		out, err = evAnswerDrain(input)
	case "memory-ranking", "pid-ranking":
		out, err = evAnswerRanking(kind, input)
	case "taint-eviction-time":
		out, err = evAnswerTaint(input)
	default:
		return nil, false, nil
	}
	return out, true, err
}

// evDefaultNow is the API server clock of eviction cases without one.
var evDefaultNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func evDecode(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("input: %w", err)
	}
	return nil
}

// evDefaultPod returns a copy of in as the API server stores it (the
// upstream code answering the cases only ever sees stored pods): the
// namespace defaulted to ns, then v1 defaulting (cluster.DefaultPod).
func evDefaultPod(in *corev1.Pod, ns string) *corev1.Pod {
	p := in.DeepCopy()
	if p.Namespace == "" {
		p.Namespace = ns
	}
	cluster.DefaultPod(p)
	return p
}

// ---- eviction ----

type evEvictionInput struct {
	Pod      *corev1.Pod                    `json:"pod,omitempty"`
	PDBs     []policyv1.PodDisruptionBudget `json:"pdbs,omitempty"`
	DryRun   bool                           `json:"dryRun,omitempty"`
	Eviction *policyv1.Eviction             `json:"eviction,omitempty"`
	Now      *metav1.Time                   `json:"now,omitempty"`
}

type evCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
}

type evCause struct {
	Type    string `json:"type,omitempty"`
	Message string `json:"message,omitempty"`
	Field   string `json:"field,omitempty"`
}

type evDeleteCall struct {
	DryRun                      bool   `json:"dryRun,omitempty"`
	GracePeriodSeconds          *int64 `json:"gracePeriodSeconds,omitempty"`
	PreconditionResourceVersion string `json:"preconditionResourceVersion,omitempty"`
	PreconditionUID             string `json:"preconditionUID,omitempty"`
	Graceful                    bool   `json:"graceful,omitempty"`
	PendingGraceful             bool   `json:"pendingGraceful,omitempty"`
	Error                       string `json:"error,omitempty"`
}

type evPDBAfter struct {
	Namespace          string        `json:"namespace"`
	Name               string        `json:"name"`
	Updated            bool          `json:"updated"`
	DisruptionsAllowed int32         `json:"disruptionsAllowed"`
	DisruptedPods      []string      `json:"disruptedPods,omitempty"`
	Conditions         []evCondition `json:"conditions,omitempty"`
}

type evEvictionOutput struct {
	Code              int32         `json:"code"`
	Status            string        `json:"status"`
	Reason            string        `json:"reason,omitempty"`
	Message           string        `json:"message,omitempty"`
	Causes            []evCause     `json:"causes,omitempty"`
	RetryAfterSeconds int32         `json:"retryAfterSeconds,omitempty"`
	PodDeleted        bool          `json:"podDeleted"`
	PodUpdated        bool          `json:"podUpdated"`
	DisruptionTarget  *evCondition  `json:"disruptionTarget,omitempty"`
	Delete            *evDeleteCall `json:"delete,omitempty"`
	DeleteCalls       int           `json:"deleteCalls,omitempty"`
	PDBs              []evPDBAfter  `json:"pdbs,omitempty"`
}

func evAnswerEviction(raw json.RawMessage) (any, error) {
	var in evEvictionInput
	if err := evDecode(raw, &in); err != nil {
		return nil, err
	}
	req := eviction.Request{DryRun: in.DryRun, Now: evDefaultNow}
	if in.Now != nil {
		req.Now = in.Now.Time
	}
	ns := metav1.NamespaceDefault
	if in.Pod != nil {
		pod := evDefaultPod(in.Pod, ns)
		if pod.ResourceVersion == "" {
			pod.ResourceVersion = "1"
		}
		ns = pod.Namespace
		req.Pod = pod
		req.Name = pod.Name
	}
	if in.Eviction != nil {
		if in.Eviction.Namespace != "" && in.Pod == nil {
			ns = in.Eviction.Namespace
		}
		if in.Eviction.Name != "" {
			req.Name = in.Eviction.Name
		}
		req.DeleteOptions = in.Eviction.DeleteOptions
	}
	if req.Name == "" {
		return nil, fmt.Errorf("eviction needs input.pod or input.eviction.metadata.name")
	}
	req.Namespace = ns
	for i := range in.PDBs {
		p := in.PDBs[i].DeepCopy()
		if p.Namespace == "" {
			p.Namespace = ns
		}
		req.PDBs = append(req.PDBs, p)
	}
	d, err := eviction.Decide(req)
	if err != nil {
		return nil, err
	}
	out := &evEvictionOutput{
		Code:        d.Status.Code,
		Status:      d.Status.Status,
		Reason:      string(d.Status.Reason),
		Message:     d.Status.Message,
		PodDeleted:  d.PodDeleted,
		PodUpdated:  d.PodUpdated,
		DeleteCalls: d.DeleteCalls,
	}
	if det := d.Status.Details; det != nil {
		out.RetryAfterSeconds = det.RetryAfterSeconds
		for _, c := range det.Causes {
			out.Causes = append(out.Causes, evCause{Type: string(c.Type), Message: c.Message, Field: c.Field})
		}
	}
	if c := d.DisruptionTarget(); c != nil {
		out.DisruptionTarget = &evCondition{Type: string(c.Type), Status: string(c.Status), Reason: c.Reason, Message: c.Message, ObservedGeneration: c.ObservedGeneration}
	}
	if dc := d.Delete; dc != nil {
		out.Delete = &evDeleteCall{
			DryRun: dc.DryRun, GracePeriodSeconds: dc.GracePeriodSeconds,
			PreconditionResourceVersion: dc.PreconditionResourceVersion, PreconditionUID: dc.PreconditionUID,
			Graceful: dc.Graceful, PendingGraceful: dc.PendingGraceful,
		}
		if dc.Err != nil {
			out.Delete.Error = dc.Err.Error()
		}
	}
	for _, p := range d.PDBs {
		out.PDBs = append(out.PDBs, evPDBAfter{
			Namespace: p.PDB.Namespace, Name: p.PDB.Name, Updated: p.Updated,
			DisruptionsAllowed: p.PDB.Status.DisruptionsAllowed,
			DisruptedPods:      evSortedKeys(p.PDB.Status.DisruptedPods),
			Conditions:         evMetaConditions(p.PDB.Status.Conditions),
		})
	}
	return out, nil
}

func evSortedKeys(m map[string]metav1.Time) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func evMetaConditions(cs []metav1.Condition) []evCondition {
	var out []evCondition
	for _, c := range cs {
		out = append(out, evCondition{Type: c.Type, Status: string(c.Status), Reason: c.Reason, Message: c.Message, ObservedGeneration: c.ObservedGeneration})
	}
	return out
}

// ---- pdb-status ----

type evPDBStatusInput struct {
	PDB                    policyv1.PodDisruptionBudget   `json:"pdb"`
	Pods                   []corev1.Pod                   `json:"pods,omitempty"`
	ReplicaSets            []appsv1.ReplicaSet            `json:"replicaSets,omitempty"`
	Deployments            []appsv1.Deployment            `json:"deployments,omitempty"`
	StatefulSets           []appsv1.StatefulSet           `json:"statefulSets,omitempty"`
	ReplicationControllers []corev1.ReplicationController `json:"replicationControllers,omitempty"`
	Now                    metav1.Time                    `json:"now"`
}

type evPDBStatusOut struct {
	ObservedGeneration int64         `json:"observedGeneration"`
	ExpectedPods       int32         `json:"expectedPods"`
	CurrentHealthy     int32         `json:"currentHealthy"`
	DesiredHealthy     int32         `json:"desiredHealthy"`
	DisruptionsAllowed int32         `json:"disruptionsAllowed"`
	DisruptedPods      []string      `json:"disruptedPods,omitempty"`
	Conditions         []evCondition `json:"conditions,omitempty"`
}

type evPDBStatusOutput struct {
	Error   string         `json:"error,omitempty"`
	Updated bool           `json:"updated"`
	Status  evPDBStatusOut `json:"status"`
}

func evNamespace(m *metav1.ObjectMeta) {
	if m.Namespace == "" {
		m.Namespace = metav1.NamespaceDefault
	}
}

func evAnswerPDBStatus(raw json.RawMessage) (any, error) {
	var in evPDBStatusInput
	if err := evDecode(raw, &in); err != nil {
		return nil, err
	}
	pdb := in.PDB.DeepCopy()
	evNamespace(&pdb.ObjectMeta)
	var pods []*corev1.Pod
	for i := range in.Pods {
		pods = append(pods, evDefaultPod(&in.Pods[i], metav1.NamespaceDefault))
	}
	var w eviction.Workloads
	for i := range in.ReplicaSets {
		o := in.ReplicaSets[i].DeepCopy()
		evNamespace(&o.ObjectMeta)
		w.ReplicaSets = append(w.ReplicaSets, o)
	}
	for i := range in.Deployments {
		o := in.Deployments[i].DeepCopy()
		evNamespace(&o.ObjectMeta)
		w.Deployments = append(w.Deployments, o)
	}
	for i := range in.StatefulSets {
		o := in.StatefulSets[i].DeepCopy()
		evNamespace(&o.ObjectMeta)
		w.StatefulSets = append(w.StatefulSets, o)
	}
	for i := range in.ReplicationControllers {
		o := in.ReplicationControllers[i].DeepCopy()
		evNamespace(&o.ObjectMeta)
		w.ReplicationControllers = append(w.ReplicationControllers, o)
	}
	res, err := eviction.PDBStatus(pdb, pods, w, in.Now.Time)
	if err != nil {
		return nil, err
	}
	s := res.PDB.Status
	return &evPDBStatusOutput{
		Updated: res.Updated,
		Status: evPDBStatusOut{
			ObservedGeneration: s.ObservedGeneration, ExpectedPods: s.ExpectedPods,
			CurrentHealthy: s.CurrentHealthy, DesiredHealthy: s.DesiredHealthy,
			DisruptionsAllowed: s.DisruptionsAllowed,
			DisruptedPods:      evSortedKeys(s.DisruptedPods),
			Conditions:         evMetaConditions(s.Conditions),
		},
	}, nil
}

// ---- drain-filter ----

type evDrainInput struct {
	NodeName                        string             `json:"nodeName"`
	Pods                            []corev1.Pod       `json:"pods,omitempty"`
	DaemonSets                      []appsv1.DaemonSet `json:"daemonSets,omitempty"`
	Force                           bool               `json:"force,omitempty"`
	IgnoreAllDaemonSets             bool               `json:"ignoreAllDaemonSets,omitempty"`
	DeleteEmptyDirData              bool               `json:"deleteEmptyDirData,omitempty"`
	SkipWaitForDeleteTimeoutSeconds int                `json:"skipWaitForDeleteTimeoutSeconds,omitempty"`
	PodSelector                     string             `json:"podSelector,omitempty"`
}

type evDrainOutput struct {
	Pods     []string `json:"pods"`
	Warnings []string `json:"warnings,omitempty"`
	Errors   []string `json:"errors,omitempty"`
}

func evAnswerDrain(raw json.RawMessage) (any, error) {
	var in evDrainInput
	if err := evDecode(raw, &in); err != nil {
		return nil, err
	}
	var pods []*corev1.Pod
	for i := range in.Pods {
		pods = append(pods, evDefaultPod(&in.Pods[i], metav1.NamespaceDefault))
	}
	var ds []*appsv1.DaemonSet
	for i := range in.DaemonSets {
		o := in.DaemonSets[i].DeepCopy()
		evNamespace(&o.ObjectMeta)
		ds = append(ds, o)
	}
	out := &evDrainOutput{Pods: []string{}}
	sel, err := eviction.SelectDrainPods(in.NodeName, pods, ds, eviction.DrainOptions{
		Force: in.Force, IgnoreAllDaemonSets: in.IgnoreAllDaemonSets, DeleteEmptyDirData: in.DeleteEmptyDirData,
		SkipWaitForDeleteTimeoutSeconds: in.SkipWaitForDeleteTimeoutSeconds, PodSelector: in.PodSelector,
		// kubectl compares deletion timestamps with its own clock.
		Now: time.Now(),
	})
	if err != nil {
		out.Errors = []string{err.Error()}
		return out, nil
	}
	for _, p := range sel.Pods() {
		out.Pods = append(out.Pods, p.Namespace+"/"+p.Name)
	}
	if w := sel.Warnings(); len(w) > 0 {
		out.Warnings = w
	}
	if e := sel.Errors(); len(e) > 0 {
		out.Errors = e
	}
	return out, nil
}

// ---- memory-ranking, pid-ranking ----

type evPodStats struct {
	MemoryWorkingSetBytes *uint64 `json:"memoryWorkingSetBytes,omitempty"`
	ProcessCount          *uint64 `json:"processCount,omitempty"`
}

type evRankingInput struct {
	Pods  []corev1.Pod          `json:"pods"`
	Stats map[string]evPodStats `json:"stats,omitempty"`
}

type evRankingOutput struct {
	Order []string `json:"order"`
}

func evAnswerRanking(kind string, raw json.RawMessage) (any, error) {
	var in evRankingInput
	if err := evDecode(raw, &in); err != nil {
		return nil, err
	}
	pods := make([]*corev1.Pod, 0, len(in.Pods))
	for i := range in.Pods {
		pods = append(pods, evDefaultPod(&in.Pods[i], metav1.NamespaceDefault))
	}
	stats := func(p *corev1.Pod) (eviction.PodStats, bool) {
		st, ok := in.Stats[p.Name]
		if !ok {
			return eviction.PodStats{}, false
		}
		return eviction.PodStats{MemoryWorkingSetBytes: st.MemoryWorkingSetBytes, ProcessCount: st.ProcessCount}, true
	}
	var ranked []*corev1.Pod
	if kind == "pid-ranking" {
		ranked = eviction.RankPID(pods, stats)
	} else {
		ranked = eviction.RankMemory(pods, stats)
	}
	out := &evRankingOutput{Order: make([]string, 0, len(ranked))}
	for _, p := range ranked {
		out.Order = append(out.Order, p.Name)
	}
	return out, nil
}

// ---- taint-eviction-time ----

type evTaintInput struct {
	Node corev1.Node `json:"node"`
	Pod  corev1.Pod  `json:"pod"`
}

type evTaintOutput struct {
	NoExecuteTaints      []corev1.Taint      `json:"noExecuteTaints,omitempty"`
	AllTolerated         bool                `json:"allTolerated"`
	UsedTolerations      []corev1.Toleration `json:"usedTolerations,omitempty"`
	MinTolerationSeconds *int64              `json:"minTolerationSeconds,omitempty"`
	Decision             string              `json:"decision"`
	EvictAfterSeconds    int64               `json:"evictAfterSeconds,omitempty"`
}

func evAnswerTaint(raw json.RawMessage) (any, error) {
	var in evTaintInput
	if err := evDecode(raw, &in); err != nil {
		return nil, err
	}
	te := eviction.TaintEvictionTime(&in.Node, evDefaultPod(&in.Pod, metav1.NamespaceDefault))
	out := &evTaintOutput{
		NoExecuteTaints: te.NoExecuteTaints,
		AllTolerated:    te.AllTolerated,
		UsedTolerations: te.UsedTolerations,
		Decision:        string(te.Decision),
	}
	if len(te.NoExecuteTaints) > 0 && te.AllTolerated {
		v := te.MinTolerationSeconds
		out.MinTolerationSeconds = &v
	}
	if te.Decision == eviction.TaintEvictAfter {
		out.EvictAfterSeconds = int64(te.EvictAfter / time.Second)
	}
	return out, nil
}
