package main

// Filter-score mode (-mode filter-score): every pending pod evaluated on its
// own against the initial cluster (placement.Evaluate), written in the
// conformance format (../shared/conformance/README.md, "filter-score") or as
// a text report.

import (
	"errors"
	"fmt"
	"runtime"

	"golang.org/x/sync/errgroup"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/scenario"
	"github.com/schedkit/schedkit/placement"
)

// filterScoreOutput is the filter-score document.
type filterScoreOutput struct {
	Meta filterScoreMeta `json:"meta"`
	Pods []*podResult    `json:"pods"`
	// ctx is what the text report reads beside the results.
	ctx *textContext
}

type filterScoreMeta struct {
	Mode              string       `json:"mode"`
	KubernetesVersion string       `json:"kubernetesVersion"`
	Profile           *profileMeta `json:"profile,omitempty"`
	Nodes             int          `json:"nodes"`
	BoundPods         int          `json:"boundPods"`
	PendingPods       int          `json:"pendingPods"`
	Warnings          []string     `json:"warnings"`
}

func runFilterScoreMode(in *input) (*output, error) {
	if in.explain != "" {
		// -explain: only that pod is evaluated and reported.
		in.pending = explained(in.pending, in.explain)
	}
	out, err := runFilterScore(in)
	if err != nil {
		return nil, err
	}
	return &output{doc: out, text: out.writeText}, nil
}

// runFilterScore evaluates every pending pod against the snapshot. Pods are
// independent, so they are evaluated in parallel; each result is written at
// its pod's index, so the output does not depend on the parallelism.
func runFilterScore(in *input) (*filterScoreOutput, error) {
	warnings := in.warnings
	if warnings == nil {
		warnings = []string{}
	}
	out := &filterScoreOutput{
		Meta: filterScoreMeta{
			Mode:              "filter-score",
			KubernetesVersion: in.opts.Version.String(),
			Profile:           in.profile,
			Nodes:             in.snap.NumNodes(),
			BoundPods:         in.snap.NumPods(),
			PendingPods:       len(in.pending),
			Warnings:          warnings,
		},
		Pods: make([]*podResult, len(in.pending)),
		ctx:  &textContext{snap: in.snap, pods: map[string]*corev1.Pod{}, explain: in.explain != ""},
	}
	for _, p := range in.pending {
		out.ctx.pods[scenario.PodKey(p)] = p
	}
	// Errors are kept by index too: every invalid pod is reported, in input
	// order, whichever goroutine finishes first.
	errs := make([]error, len(in.pending))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, pod := range in.pending {
		g.Go(func() error {
			res, err := placement.Evaluate(in.snap, pod, in.opts)
			if err != nil {
				errs[i] = fmt.Errorf("pending[%d] (%s): %w", i, scenario.PodKey(pod), err)
				return nil
			}
			if res == nil {
				errs[i] = fmt.Errorf("pending[%d] (%s): placement.Evaluate returned no result", i, scenario.PodKey(pod))
				return nil
			}
			out.Pods[i] = resultOut(res)
			return nil
		})
	}
	_ = g.Wait() // the goroutines report through errs
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}
