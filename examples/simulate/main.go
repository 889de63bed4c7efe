// Command simulate runs kube-scheduler's decisions on a scenario file (the
// format of ../shared/conformance/README.md) with schedkit and writes them in
// the conformance JSON format or as a readable report.
//
//	go run ./examples/simulate -mode filter-score -in scenario.json -out result.json
//	go run ./examples/simulate -mode schedule -format text -in scenario.yaml
//
// Modes:
//
//	filter-score  every pending pod evaluated alone against the initial
//	              cluster: every node's verdict per plugin, scores, best nodes
//	              (filterscore.go)
//	schedule      pending pods scheduled one by one in queue order, with
//	              preemption (schedule.go)
//	replicas      every pending pod is a template: how many replicas of it
//	              fit, placed one after another without preemption
//	              (-replicas N, default 10; the annotation
//	              schedkit.io/replicas overrides it per template; whatif.go)
//	drain         the nodes of -node a,b cordoned, their pods other than
//	              DaemonSet and mirror pods re-created and scheduled in
//	              queue order without preemption (whatif.go)
//
// The what-if modes write the format of the conformance oracle's whatif
// command (preemption/whatif answers them).
//
// Flags: -mode (filter-score, the default, schedule, replicas or drain),
// -replicas and -node (the what-if modes' questions), -in and -out ("-",
// the default, for stdin and stdout; -in may be repeated, and the files are
// read as one input, see INPUT.md), -format (json, the conformance format,
// or text, a readable report), -pretty (indent the JSON), -timing,
// -cpuprofile (a CPU profile of the span -timing measures),
// -kubernetes-version (1.36, the default, 1.35 or 1.34: that release's
// scheduler rules), -explain namespace/name (the report of that pending
// pod alone, with every node's verdict for it: filter-score evaluates that
// pod only, in both formats; schedule runs the whole queue and limits the
// text report, where the pod is evaluated against the cluster as it was at
// its turn; why_text.go) and -config. In schedule mode a preemption lists
// every candidate node with its victims and the criterion it lost on
// (lostAt); the text report and -explain also explain each loss
// (lostReason), which the JSON report leaves out: one text per node and
// preemptor.
//
// -config FILE runs the single profile of a kubescheduler.config.k8s.io/v1
// KubeSchedulerConfiguration (YAML or JSON) instead of the default one, in
// every mode, as kube-scheduler v1.36.3's --config would
// (placement/schedconfig: strict decoding, v1 defaulting with the plugin
// lists merged into the default set, upstream's validation, errors with
// their field paths; percentageOfNodesToScore must be unset, 0 or 100).
// It combines with -kubernetes-version. Pending pods whose
// spec.schedulerName names another profile are left pending with a
// warning, as kube-scheduler running only this profile ignores them. The
// output's meta.profile records the file, the profile's name and its
// plugins per extension point.
//
// The input (JSON or YAML: a scenario document, or Kubernetes objects as
// kubectl get -o yaml|json writes them, see INPUT.md) is decoded and
// normalized as the API server would have stored it (internal/scenario);
// malformed input gives exit status 1 with every problem named by file,
// document, object and field, and no output. Warnings go
// to stderr and into the output's meta.warnings. -timing prints
// "timing: evaluation 0.123s (snapshot 0.045s, schedule 0.078s)" to stderr:
// the seconds from after decoding and normalization to before encoding, and
// its two phases, building the snapshot (the schedule mode prepares its
// pending pods meanwhile) and the mode's decisions (the
// oracle's -timing reports its own snapshot under "framework setup" and its
// decisions under the mode's name). The output
// is deterministic: the same input gives the same bytes.
//
// On Linux the command reserves its heap up front and advises transparent
// huge pages for it (-hugepages, on by default; hugepages_linux.go): on a
// virtual machine a page fault costs microseconds, and a run touches
// hundreds of megabytes. -hugepages=false leaves the heap to the Go
// runtime; the answers are the same either way.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/scenario"
	"github.com/schedkit/schedkit/internal/wrap"
	"github.com/schedkit/schedkit/placement"
	"github.com/schedkit/schedkit/placement/schedconfig"
	"github.com/schedkit/schedkit/preemption"
)

// config is the parsed command line.
type config struct {
	mode    string // "filter-score" or "schedule"
	in, out string // paths, "-" for stdin / stdout
	format  string // "json" or "text"
	pretty  bool
	timing  bool
	version placement.Version
	// hugePages records that main reserved the heap with huge pages
	// advised (-hugepages, reserveHugePageHeap): fresh memory is then
	// cheap, and the evaluation collects less often.
	hugePages bool
	// configPath is -config: a KubeSchedulerConfiguration whose profile
	// replaces the default one ("" for none).
	configPath string
	// cpuprofile, when set, receives a CPU profile of the evaluation
	// window (the span -timing measures).
	cpuprofile string
	// replicas is -replicas: the replicas mode's count per template.
	replicas int
	// drainNodes is -node: the drain mode's nodes.
	drainNodes []string
	// moreIn are the further -in files, read after in as one input.
	moreIn []string
	// explain, "namespace/name", limits the report to that pending pod
	// and shows every node's verdict for it (why_text.go).
	explain string
}

// input is what every mode receives: the normalized scenario, its snapshot
// and the warnings gathered so far (decoding, normalization, snapshot).
type input struct {
	scenario *scenario.Scenario
	snap     *placement.Snapshot
	pending  []*corev1.Pod // the scenario's pending pods, in input order
	warnings []string
	opts     placement.Options
	// profile is -config's profile (nil without -config).
	profile *profileMeta
	// queue is the schedule mode's prepared pending pods (prepareQueue).
	queue    *preemption.Queue
	queueErr error
	// replicas and drainNodes are the what-if modes' questions.
	replicas   int
	drainNodes []string
	// explain is -explain's pod key, or "".
	explain string
	// textReport is -format text.
	textReport bool
}

// output is what a mode produces: the JSON document and its text rendering.
type output struct {
	doc  any
	text func(io.Writer) error
}

// mode is one -mode: run decides against the snapshot; prepare, when set,
// does the part of the work that reads the scenario alone, beside the
// snapshot's building (evaluate).
type mode struct {
	prepare func(*input)
	run     func(*input) (*output, error)
}

// modes maps -mode to its implementation. Each mode lives in its own file.
var modes = map[string]mode{
	"filter-score": {run: runFilterScoreMode},
	"schedule":     {prepare: prepareQueue, run: runScheduleMode},
	"replicas":     {run: runReplicasMode},
	"drain":        {run: runDrainMode},
}

// evaluate is the window -timing measures: it builds the snapshot while
// the mode prepares (on another goroutine), then runs the mode. built is
// when both were done.
func evaluate(in *input, m mode) (out *output, built time.Time, err error) {
	prepared := make(chan struct{})
	if m.prepare != nil {
		go func() {
			defer close(prepared)
			m.prepare(in)
		}()
	} else {
		close(prepared)
	}
	in.snap, err = buildSnapshot(in)
	<-prepared
	built = time.Now()
	if err != nil {
		return nil, built, err
	}
	out, err = m.run(in)
	return out, built, err
}

// runScheduleMode adapts schedule.go's runSchedule to the mode signature,
// preparing the queue first when evaluate did not.
func runScheduleMode(in *input) (*output, error) {
	if in.queue == nil && in.queueErr == nil {
		prepareQueue(in)
	}
	if in.queueErr != nil {
		return nil, in.queueErr
	}
	// Every losing candidate's reason is a text per node and preemptor:
	// the readable report and -explain show them, the JSON report gives
	// the criterion alone.
	out, err := runSchedule(in.snap, in.queue, in.warnings, in.opts, in.textReport || in.explain != "")
	if err != nil {
		return nil, err
	}
	out.Meta.Profile = in.profile
	text := func(w io.Writer) error { return writeScheduleText(w, onlyExplained(out, in.explain)) }
	if in.explain != "" {
		// The report shows the pod's evaluation at its turn.
		turn, ctx, err := explainAtTurn(in, out)
		if err != nil {
			return nil, err
		}
		text = func(w io.Writer) error {
			o := onlyExplained(out, in.explain)
			o.turn, o.turnCtx = turn, ctx
			return writeScheduleText(w, o)
		}
	}
	return &output{doc: out, text: text}, nil
}

func main() {
	// A batch run keeps the decoded scenario and the snapshot live until it
	// exits; collecting at every doubling of that heap costs more than the
	// memory it saves. Four times the live heap between collections bounds
	// the growth and removes most of the collector's work.
	debug.SetGCPercent(400)
	var cfg config
	hugePages := true
	var version string
	var drain string
	flag.StringVar(&cfg.mode, "mode", "filter-score", "filter-score | schedule | replicas | drain")
	flag.IntVar(&cfg.replicas, "replicas", 10, "replicas mode: replicas per template without a schedkit.io/replicas annotation")
	flag.StringVar(&drain, "node", "", "drain mode: comma-separated nodes to drain")
	cfg.in = "-"
	flag.Var(&inFlag{cfg: &cfg}, "in", "input file, JSON or YAML: a scenario or kubectl's objects (- for stdin); repeat -in to read several files as one input")
	flag.StringVar(&cfg.out, "out", "-", "output file (- for stdout)")
	flag.StringVar(&cfg.explain, "explain", "", "namespace/name of a pending pod: report that pod alone, with every node's verdict for it")
	flag.StringVar(&cfg.format, "format", "json", "json | text")
	flag.BoolVar(&cfg.pretty, "pretty", false, "indent the JSON output")
	flag.BoolVar(&cfg.timing, "timing", false, `print "timing: evaluation S.SSSs (snapshot S.SSSs, MODE S.SSSs)" to stderr`)
	flag.StringVar(&cfg.cpuprofile, "cpuprofile", "", "write a CPU profile of the evaluation (snapshot and decisions) to this file")
	flag.StringVar(&cfg.configPath, "config", "", "a kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration (YAML or JSON) whose single profile replaces the default one")
	flag.BoolVar(&hugePages, "hugepages", true, "Linux: reserve the heap up front and advise transparent huge pages for it (far fewer page faults; -hugepages=false leaves the heap to the Go runtime)")
	flag.StringVar(&version, "kubernetes-version", "1.36", "scheduler rules of this Kubernetes release: 1.36, 1.35 or 1.34")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "simulate: unexpected argument %q\n", flag.Arg(0))
		flag.Usage()
		os.Exit(2)
	}
	v, err := placement.ParseVersion(version)
	if err != nil {
		fmt.Fprintln(os.Stderr, "simulate: -kubernetes-version:", err)
		os.Exit(2)
	}
	cfg.version = v
	cfg.drainNodes = splitNodes(drain)
	if hugePages {
		cfg.hugePages = reserveHugePageHeap(heapReserve(cfg))
	}
	if err := run(cfg, os.Stdin, os.Stdout, os.Stderr); err != nil {
		var usage usageError
		if errors.As(err, &usage) {
			fmt.Fprintln(os.Stderr, "simulate:", err)
			flag.Usage()
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "simulate:", err)
		os.Exit(1)
	}
}

// heapReserve is how much heap main reserves for a run: sixteen times the
// input files' size (decoded objects, the snapshot and the decisions'
// allocations fit in that on every bundled and generated scenario), and
// at least 1 GiB. Address space only: nothing of it is resident until used.
func heapReserve(cfg config) int {
	total := int64(0)
	for _, p := range append([]string{cfg.in}, cfg.moreIn...) {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			total += st.Size()
		}
	}
	return int(max(16*total, 1<<30))
}

// inputError names the input file and, when there are several problems,
// puts each on its own indented line.
func inputError(path string, err error) error {
	prefix := ""
	if path != "-" && path != "" {
		prefix = path + ": "
	}
	var list scenario.ErrorList
	if errors.As(err, &list) && len(list) > 1 {
		var b strings.Builder
		fmt.Fprintf(&b, "%s%d problems:", prefix, len(list))
		for _, e := range list {
			b.WriteString("\n  " + e.Error())
		}
		return errors.New(b.String())
	}
	if prefix == "" {
		return err
	}
	return fmt.Errorf("%s%w", prefix, err)
}

// inFlag is the repeatable -in: the first sets cfg.in (replacing the
// default "-"), the others are appended to cfg.moreIn.
type inFlag struct {
	cfg *config
	set bool
}

func (f *inFlag) String() string {
	if f == nil || f.cfg == nil {
		return ""
	}
	return strings.Join(append([]string{f.cfg.in}, f.cfg.moreIn...), " ")
}

func (f *inFlag) Set(v string) error {
	if !f.set {
		f.cfg.in, f.set = v, true
		return nil
	}
	f.cfg.moreIn = append(f.cfg.moreIn, v)
	return nil
}

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// run executes one command line. Nothing is written to the output unless
// everything succeeded.
func run(cfg config, stdin io.Reader, stdout, stderr io.Writer) error {
	mode, ok := modes[cfg.mode]
	if !ok {
		return usageError{fmt.Sprintf("unknown -mode %q (filter-score, schedule, replicas or drain)", cfg.mode)}
	}
	if cfg.mode == "drain" && len(cfg.drainNodes) == 0 {
		return usageError{"-mode drain needs -node NAME[,NAME...]"}
	}
	if cfg.replicas < 0 {
		return usageError{fmt.Sprintf("-replicas %d: must be non-negative", cfg.replicas)}
	}
	if cfg.explain != "" && (cfg.mode == "replicas" || cfg.mode == "drain") {
		return usageError{"-explain applies to -mode filter-score and schedule"}
	}
	if cfg.format != "json" && cfg.format != "text" {
		return usageError{fmt.Sprintf("unknown -format %q (json or text)", cfg.format)}
	}
	srcs, err := readInputs(cfg, stdin)
	if err != nil {
		return err
	}
	var prof *schedconfig.Profile
	if cfg.configPath != "" {
		cdata, err := os.ReadFile(cfg.configPath)
		if err != nil {
			return err
		}
		if prof, err = schedconfig.Read(cdata); err != nil {
			return fmt.Errorf("-config %s: %w", cfg.configPath, err)
		}
	}
	in, err := prepareSources(srcs, cfg)
	if err != nil {
		if len(srcs) > 1 {
			return inputError("-", err) // the problems name their files
		}
		return inputError(cfg.in, err)
	}
	if prof != nil {
		applyProfile(in, prof, filepath.Base(cfg.configPath))
	}
	if err := setExplain(in, cfg.explain); err != nil {
		return err
	}

	// Decoding leaves a large heap of garbage; collect it here, as part of
	// decoding, so that a collection it started does not run inside the
	// evaluation window that -timing measures (the oracle's figure leaves
	// its own loading out too). Only a measured run pays for it: a forced
	// collection is most of the cost of a small scenario's run.
	if cfg.timing || cfg.cpuprofile != "" {
		runtime.GC()
	}
	if cfg.cpuprofile != "" {
		f, err := os.Create(cfg.cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	// The evaluation allocates per pod (views, compiled pods) over a heap
	// that no longer grows: collecting at half the live heap reuses that
	// memory, where 400 % would take fresh pages for all of it. On a
	// virtual machine the first touch of a page costs microseconds, more
	// than the collections (measured: 10-20 % of the window on 1000- and
	// 5000-node queues, none slower).
	//
	// With huge pages advised (-hugepages), a fresh page costs about a
	// hundredth as much, and the collections cost more than they save:
	// the evaluation keeps at least decoding's 400 % (measured: basic
	// 0.099 -> 0.080 s, spread 0.096 -> 0.077 s, mixed 0.249 -> 0.175 s at
	// 1000 nodes, best of three), and lets a small heap grow by
	// windowHeadroom before its first collection (hugePageWindowGC).
	windowGC := 50
	if cfg.hugePages {
		windowGC = hugePageWindowGC(liveHeap())
	}
	prevGC := debug.SetGCPercent(windowGC)
	start := time.Now()
	out, built, err := evaluate(in, mode)
	debug.SetGCPercent(prevGC)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if cfg.cpuprofile != "" {
		pprof.StopCPUProfile()
	}

	for _, w := range in.warnings {
		fmt.Fprintln(stderr, "simulate: warning:", w)
	}
	if cfg.timing {
		fmt.Fprintf(stderr, "timing: evaluation %.3fs (snapshot %.3fs, %s %.3fs)\n",
			elapsed.Seconds(), built.Sub(start).Seconds(), cfg.mode, elapsed.Seconds()-built.Sub(start).Seconds())
	}
	render := out.text
	if cfg.format != "text" {
		render = func(w io.Writer) error { return writeJSON(w, out.doc, cfg.pretty) }
	}
	return writeOutput(cfg.out, stdout, render)
}

// prepare decodes and normalizes the scenario.
func prepare(data []byte, cfg config) (*input, error) {
	return prepareSources([]scenario.Source{{Name: cfg.in, Data: data}}, cfg)
}

// prepareSources decodes the input files as one and normalizes the
// scenario.
func prepareSources(srcs []scenario.Source, cfg config) (*input, error) {
	norm, warnings, err := scenario.LoadSources(srcs...)
	if err != nil {
		return nil, err
	}
	in := &input{
		scenario: norm,
		warnings: warnings,
		opts:     placement.Options{Version: cfg.version},
		replicas: cfg.replicas, drainNodes: cfg.drainNodes,
		textReport: cfg.format == "text",
	}
	for i := range norm.Pending {
		in.pending = append(in.pending, &norm.Pending[i])
	}
	if cfg.mode == "replicas" {
		if err := checkReplicas(in); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// profileMeta is meta.profile: the configured profile as schedkit runs it.
type profileMeta struct {
	Config        string                     `json:"config"`
	SchedulerName string                     `json:"schedulerName"`
	Plugins       map[string][]profilePlugin `json:"plugins"` // by extension point, in the order they run
}

// profilePlugin is one plugin of meta.profile.plugins.
type profilePlugin struct {
	Name   string `json:"name"`
	Weight int32  `json:"weight,omitempty"` // score only
}

// describe names the profile for the text reports.
func (p *profileMeta) describe() string {
	if p == nil {
		return "default profile"
	}
	return fmt.Sprintf("profile %q of %s", p.SchedulerName, p.Config)
}

// applyProfile makes -config's profile the options of every decision and
// leaves out the pending pods whose spec.schedulerName names another
// profile, each with a warning: kube-scheduler running only this profile
// never looks at them, so they stay pending.
func applyProfile(in *input, prof *schedconfig.Profile, base string) {
	opts := prof.Options
	opts.Version, opts.Parallelism = in.opts.Version, in.opts.Parallelism
	in.opts = opts
	meta := &profileMeta{Config: base, SchedulerName: prof.SchedulerName, Plugins: map[string][]profilePlugin{}}
	for _, ep := range prof.Points {
		list := []profilePlugin{}
		for _, p := range ep.Plugins {
			if p.Name == "NodeDeclaredFeatures" && !opts.Version.RunsNodeDeclaredFeatures() {
				continue // not a plugin of that release
			}
			list = append(list, profilePlugin{Name: p.Name, Weight: p.Weight})
		}
		meta.Plugins[ep.Name] = list
	}
	in.profile = meta
	kept := in.pending[:0:0]
	for _, p := range in.pending {
		if prof.Handles(p) {
			kept = append(kept, p)
			continue
		}
		in.warnings = append(in.warnings, fmt.Sprintf("pod %s/%s: spec.schedulerName %q is not the configured profile %q: left pending (kube-scheduler ignores it)",
			p.Namespace, p.Name, p.Spec.SchedulerName, prof.SchedulerName))
	}
	in.pending = kept
}

// windowHeadroom is how far a small heap may grow during the evaluation
// before it is collected, with huge pages advised. A queue of preemptors
// allocates about 100 MB per thousand pods (views and victim lists of
// every dry run); at 400 % of a 26 MB live heap (the preemption shape at
// 1000 nodes) that is a collection in the middle of the queue, whose
// marking took a core for 50 ms and slowed every pointer write on the
// other. Measured: preemption shape at 1000 nodes 0.209 -> 0.172 s (best
// of 8 alternated pairs), the other shapes unchanged.
const windowHeadroom = 512 << 20

// hugePageWindowGC is the evaluation's GOGC with huge pages advised for a
// live heap of live bytes: 400 %, or more for a heap small enough that
// windowHeadroom is more than four times it (at most 5000 %).
func hugePageWindowGC(live uint64) int {
	if live == 0 {
		return 400
	}
	return int(min(max(400, windowHeadroom*100/live), 5000))
}

// liveHeap returns the heap's live bytes as of the last collection (0
// when the runtime does not report it).
func liveHeap() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

// buildSnapshot indexes the normalized cluster and appends the snapshot's
// warnings (pods left out) to in.warnings.
func buildSnapshot(in *input) (*placement.Snapshot, error) {
	sc := in.scenario
	ci := sc.ClusterInput(!in.opts.Version.UsesPodLevelResizeStatus())
	ci.Parallelism = runtime.GOMAXPROCS(0) // every core, as the decisions use (queueOptions)
	snap, warnings, err := cluster.New(ci)
	for _, w := range warnings {
		in.warnings = append(in.warnings, w.Object+": "+w.Reason)
	}
	if err != nil {
		return nil, fmt.Errorf("invalid cluster: %w", err)
	}
	return wrap.Cast[placement.Snapshot](snap), nil
}

// splitNodes splits -node's comma-separated list, dropping blanks.
func splitNodes(list string) []string {
	var out []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// readInputs reads every -in file, in order; stdin at most once.
func readInputs(cfg config, stdin io.Reader) ([]scenario.Source, error) {
	paths := append([]string{cfg.in}, cfg.moreIn...)
	srcs := make([]scenario.Source, 0, len(paths))
	stdinRead := false
	for _, p := range paths {
		if p == "-" || p == "" {
			if stdinRead {
				return nil, usageError{"-in - (stdin) given twice"}
			}
			stdinRead = true
		}
		data, err := readInput(p, stdin)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, scenario.Source{Name: p, Data: data})
	}
	return srcs, nil
}

func readInput(path string, stdin io.Reader) ([]byte, error) {
	if path == "-" || path == "" {
		return io.ReadAll(stdin)
	}
	return readFile(path)
}

// writeJSON writes doc as encodeJSON does; a document that writes its own
// JSON (writeJSON) is written that way.
func writeJSON(w io.Writer, doc any, pretty bool) error {
	self, ok := doc.(interface{ writeJSON(io.Writer) error })
	if !ok {
		return encodeJSON(w, doc, pretty)
	}
	if pretty {
		var compact bytes.Buffer
		if err := self.writeJSON(&compact); err != nil {
			return err
		}
		var indented bytes.Buffer
		if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil {
			return err
		}
		indented.WriteByte('\n')
		_, err := w.Write(indented.Bytes())
		return err
	}
	if err := self.writeJSON(w); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func encodeJSON(w io.Writer, doc any, pretty bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if pretty {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(doc)
}

// writeOutput renders the report into the output file (or stdout),
// through a buffer. A large report is rendered as it is written, never
// held whole in memory.
func writeOutput(path string, stdout io.Writer, render func(io.Writer) error) (err error) {
	w := stdout
	if path != "-" && path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := render(bw); err != nil {
		return err
	}
	return bw.Flush()
}
