package main

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/internal/evlcase"
)

// evKinds are the case kinds the eviction package answers.
var evKinds = []string{"eviction", "pdb-status", "drain-filter", "memory-ranking", "pid-ranking", "taint-eviction-time"}

// TestEvictionConformance answers every eviction-package case of the
// upstream-answered files in testdata/evl (evl oracle: kube-apiserver's
// EvictionREST.Create, the disruption controller's sync, kubelet's
// rankMemoryPressure/rankPIDPressure, the taint-eviction controller's
// processPodOnNode and kubectl drain's GetPodsForDeletion) through the
// eviction package's public API, exactly as the command writes them, and
// compares with upstream's answer under compare.py's rules (evlcase).
func TestEvictionConformance(t *testing.T) {
	files := []string{"../../testdata/evl/cases.json", "../../testdata/evl/eviction-seeds.json", "../../testdata/evl/eviction-hand.json", "../../testdata/evl/eviction-doc.json"}
	evlcase.Check(t, files, evKinds, func(c evlcase.Case) (any, error) {
		got, ok, err := answerEviction(c.Kind, c.Input)
		if !ok {
			return nil, fmt.Errorf("kind %s not answered", c.Kind)
		}
		return got, err
	})
}
