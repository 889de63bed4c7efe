package main

// What-if modes (-mode replicas, -mode drain): capacity questions answered
// with preemption/whatif, written in the format of the conformance oracle's
// whatif command (../shared/oracle/README.md, "What-if questions") or as a
// text report.

import (
	"fmt"
	"io"
	"runtime"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/preemption/whatif"
)

// replicasAnnotation on a pending pod overrides -replicas for that template.
const replicasAnnotation = "schedkit.io/replicas"

type whatifMeta struct {
	Mode              string       `json:"mode"`
	KubernetesVersion string       `json:"kubernetesVersion"`
	Profile           *profileMeta `json:"profile,omitempty"`
	DefaultReplicas   int          `json:"defaultReplicas,omitempty"`
	Nodes             int          `json:"nodes"`
	TieBreak          string       `json:"tieBreak"`
	Warnings          []string     `json:"warnings"`
}

type replicasOutput struct {
	Meta      whatifMeta       `json:"meta"`
	Templates []templateAnswer `json:"templates"`
}

type templateAnswer struct {
	Template  string   `json:"template"`
	Requested int      `json:"requested"`
	Placed    int      `json:"placed"`
	Nodes     []string `json:"nodes"`
	Message   string   `json:"message,omitempty"`
	Outcome   string   `json:"outcome,omitempty"`
}

type drainOutput struct {
	Meta      whatifMeta `json:"meta"`
	Drained   []string   `json:"drained"`
	Pods      []drainPod `json:"pods"`
	Stayed    []string   `json:"stayed"`
	Drainable bool       `json:"drainable"`
}

type drainPod struct {
	Pod     string `json:"pod"`
	From    string `json:"from"`
	Outcome string `json:"outcome"`
	Node    string `json:"node,omitempty"`
	Message string `json:"message,omitempty"`
	Error   string `json:"error,omitempty"`
}

const whatifTieBreak = "highest weighted total score wins; ties are broken by the lowest node name"

func (in *input) whatifMeta(mode string) whatifMeta {
	w := in.warnings
	if w == nil {
		w = []string{}
	}
	return whatifMeta{Mode: mode, KubernetesVersion: in.opts.Version.String(), Profile: in.profile,
		Nodes: in.snap.NumNodes(), TieBreak: whatifTieBreak, Warnings: w}
}

func (in *input) whatifOptions() whatif.Options {
	o := whatif.Options{Placement: in.opts}
	o.Placement.Parallelism = runtime.GOMAXPROCS(0)
	return o
}

// requestedReplicas is the number of replicas asked of a template: its
// schedkit.io/replicas annotation, else def.
func requestedReplicas(tmpl *corev1.Pod, def int) (int, error) {
	v, ok := tmpl.Annotations[replicasAnnotation]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("pending pod %s/%s: metadata.annotations[%s]: Invalid value: %q: must be a non-negative integer",
			tmpl.Namespace, tmpl.Name, replicasAnnotation, v)
	}
	return n, nil
}

// checkReplicas validates every template's annotation before any work.
func checkReplicas(in *input) error {
	for _, p := range in.pending {
		if _, err := requestedReplicas(p, in.replicas); err != nil {
			return err
		}
	}
	return nil
}

// runReplicasMode answers each pending pod as a template on its own,
// against the initial cluster.
func runReplicasMode(in *input) (*output, error) {
	out := &replicasOutput{Meta: in.whatifMeta("replicas"), Templates: []templateAnswer{}}
	out.Meta.DefaultReplicas = in.replicas
	opts := in.whatifOptions()
	for _, tmpl := range in.pending {
		n, err := requestedReplicas(tmpl, in.replicas)
		if err != nil {
			return nil, err
		}
		r, err := whatif.Replicas(in.snap, tmpl, n, opts)
		if err != nil {
			return nil, err
		}
		out.Templates = append(out.Templates, templateAnswer{
			Template: tmpl.Namespace + "/" + tmpl.Name, Requested: n, Placed: r.Placed(),
			Nodes: r.Nodes, Message: r.Message, Outcome: string(r.Outcome),
		})
	}
	return &output{doc: out, text: func(w io.Writer) error { return writeReplicasText(w, out) }}, nil
}

// runDrainMode drains the -node list.
func runDrainMode(in *input) (*output, error) {
	r, err := whatif.Drain(in.snap, in.drainNodes, in.whatifOptions())
	if err != nil {
		return nil, err
	}
	out := &drainOutput{Meta: in.whatifMeta("drain"), Drained: r.Drained, Pods: []drainPod{}, Stayed: r.Stayed, Drainable: r.Drainable}
	for _, m := range r.Moved {
		p := drainPod{Pod: m.Pod, From: m.From, Outcome: string(m.Outcome), Node: m.Node, Message: m.Message}
		if m.Outcome == "Error" {
			p.Error, p.Message = m.Message, ""
		}
		out.Pods = append(out.Pods, p)
	}
	return &output{doc: out, text: func(w io.Writer) error { return writeDrainText(w, out) }}, nil
}

func writeReplicasText(w io.Writer, out *replicasOutput) error {
	var b strings.Builder
	fmt.Fprintf(&b, "replicas: %d template(s), Kubernetes v%s, no preemption\n", len(out.Templates),
		strings.TrimPrefix(out.Meta.KubernetesVersion, "v"))
	for _, wn := range out.Meta.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", wn)
	}
	for _, t := range out.Templates {
		fmt.Fprintf(&b, "\n%s: %d of %d replica(s) fit\n", t.Template, t.Placed, t.Requested)
		if len(t.Nodes) > 0 {
			fmt.Fprintf(&b, "   per node: %s\n", strings.Join(perNode(t.Nodes), ", "))
		}
		switch {
		case t.Outcome == "Gated":
			b.WriteString("   the template is gated (spec.schedulingGates): no replica is scheduled\n")
		case t.Message != "":
			fmt.Fprintf(&b, "   replica %d: %s\n", t.Placed, t.Message)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// perNode counts the replicas per node: "node-a x3", most first, then by
// name.
func perNode(nodes []string) []string {
	count := map[string]int{}
	for _, n := range nodes {
		count[n]++
	}
	names := make([]string, 0, len(count))
	for n := range count {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if count[names[i]] != count[names[j]] {
			return count[names[i]] > count[names[j]]
		}
		return names[i] < names[j]
	})
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%s x%d", n, count[n])
	}
	return out
}

func writeDrainText(w io.Writer, out *drainOutput) error {
	var b strings.Builder
	verdict := "can be drained: every evicted pod finds a node"
	if !out.Drainable {
		verdict = "cannot be drained without leaving pods pending"
	}
	fmt.Fprintf(&b, "drain %s: %s\n", strings.Join(out.Drained, ", "), verdict)
	for _, wn := range out.Meta.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", wn)
	}
	fmt.Fprintf(&b, "\n%d pod(s) evicted and re-created, in queue order:\n", len(out.Pods))
	for _, p := range out.Pods {
		switch {
		case p.Node != "":
			fmt.Fprintf(&b, "  %s (from %s) -> %s\n", p.Pod, p.From, p.Node)
		case p.Error != "":
			fmt.Fprintf(&b, "  %s (from %s): error: %s\n", p.Pod, p.From, p.Error)
		default:
			fmt.Fprintf(&b, "  %s (from %s): %s\n     %s\n", p.Pod, p.From, p.Outcome, p.Message)
		}
	}
	if len(out.Stayed) > 0 {
		fmt.Fprintf(&b, "\nstay on their node (DaemonSet and mirror pods): %s\n", strings.Join(out.Stayed, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
