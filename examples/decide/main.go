// Command decide answers eviction and lifecycle case files in the format of
// ../shared/conformance/evl/README.md: it reads the cases, computes each
// answer through the public API of the eviction and lifecycle packages, and
// writes the same file with every case's "expected" replaced.
//
//	go run ./examples/decide -in cases.json -out answers.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
)

type caseFile struct {
	Meta  json.RawMessage `json:"meta,omitempty"`
	Cases []testCase      `json:"cases"`
}

type testCase struct {
	Kind     string          `json:"kind"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Expected any             `json:"expected"`
}

// answer dispatches one case to the package that owns its kind.
// eviction.go and lifecycle.go each define one answer function.
func answer(kind string, input json.RawMessage) (any, error) {
	if out, ok, err := answerEviction(kind, input); ok {
		return out, err
	}
	if out, ok, err := answerLifecycle(kind, input); ok {
		return out, err
	}
	return nil, fmt.Errorf("unknown case kind %q", kind)
}

func main() {
	in := flag.String("in", "-", "case file (- for stdin)")
	out := flag.String("out", "-", "answer file (- for stdout)")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "decide:", err)
		os.Exit(1)
	}
}

func run(inPath, outPath string) error {
	var data []byte
	var err error
	if inPath == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(inPath)
	}
	if err != nil {
		return err
	}
	var f caseFile
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("%s: %w", inPath, err)
	}
	for i := range f.Cases {
		c := &f.Cases[i]
		got, err := answer(c.Kind, c.Input)
		if err != nil {
			// A case the packages refuse as invalid input is answered with the error text.
			got = map[string]string{"decideError": err.Error()}
		}
		c.Expected = got
	}
	enc, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	enc = append(enc, '\n')
	if outPath == "-" {
		_, err = os.Stdout.Write(enc)
		return err
	}
	return os.WriteFile(outPath, enc, 0o644)
}
