package main

// The schedule-mode JSON document written straight from the queue's
// results. A preempting pod's report has a candidate or a dry-run status
// for every node, so on a queue of preemptors the report is most of the
// run: converting each result into the wire structs (scheduleResult) and
// then encoding those through reflection cost more than the decisions.
// writeJSON writes the same bytes as encoding/json would for the
// converted document (a test compares the two on every bundled scenario),
// with no intermediate structs, runs of results rendered on every core.

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strconv"
	"unicode/utf8"

	"github.com/schedkit/schedkit/internal/par"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement/framework"
	"github.com/schedkit/schedkit/preemption"
)

// writeJSON writes the document in compact JSON, as encoding/json
// encodes it (without HTML escaping, as encodeJSON sets), with no newline.
// Results are rendered a window of runs at a time, every core taking runs
// of them, and written in order, each run into a buffer that the next
// window reuses: the report is never held whole (on a queue of preemptors
// it is hundreds of megabytes, and first touching that much fresh memory
// cost more than rendering it).
func (s *scheduleOutput) writeJSON(w io.Writer) error {
	if s.raw == nil {
		// Converted results (the text report and -explain convert them).
		b, err := appendEncoded(nil, s)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	b := []byte(`{"meta":`)
	var err error
	if b, err = appendEncoded(b, s.Meta); err != nil {
		return err
	}
	b = append(b, `,"queueOrder":`...)
	if b, err = appendEncoded(b, s.QueueOrder); err != nil {
		return err
	}
	b = append(b, `,"results":`...)
	if len(s.raw) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		const perRun, runsPerWindow = 4, 8
		runs := make([][]byte, runsPerWindow)
		for from := 0; from < len(s.raw); from += perRun * runsPerWindow {
			if _, err := w.Write(b); err != nil {
				return err
			}
			to := min(len(s.raw), from+perRun*runsPerWindow)
			n := (to - from + perRun - 1) / perRun
			par.Run(runtime.GOMAXPROCS(0), n, func(r int) {
				rb := runs[r][:0]
				for i := from + r*perRun; i < min(to, from+(r+1)*perRun); i++ {
					if i > 0 {
						rb = append(rb, ',')
					}
					rb = appendResult(rb, &s.raw[i])
				}
				runs[r] = rb
			})
			for _, rb := range runs[:n] {
				if _, err := w.Write(rb); err != nil {
					return err
				}
			}
			b = b[:0]
		}
		b = append(b, ']')
	}
	b = append(b, `,"final":`...)
	if b, err = appendEncoded(b, s.Final); err != nil {
		return err
	}
	_, err = w.Write(append(b, '}'))
	return err
}

// appendEncoded appends v as encodeJSON encodes it, without the newline.
func appendEncoded(b []byte, v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := encodeJSON(&buf, v, false); err != nil {
		return nil, err
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}

// appendResult appends r as encoding/json encodes convertResult(r, false):
// the fields in scheduleResult's order, each omitted where its omitempty
// omits it.
func appendResult(b []byte, r *preemption.PodOutcome) []byte {
	b = append(b, `{"pod":`...)
	b = appendString(b, r.Pod)
	b = append(b, `,"priority":`...)
	b = strconv.AppendInt(b, int64(r.Priority), 10)
	b = append(b, `,"queuePosition":`...)
	b = strconv.AppendInt(b, int64(r.QueuePosition), 10)
	b = append(b, `,"outcome":`...)
	b = appendString(b, string(r.Outcome))
	if r.Node != "" {
		b = append(b, `,"node":`...)
		b = appendString(b, r.Node)
	}
	b = append(b, `,"feasibleNodes":`...)
	b = strconv.AppendInt(b, int64(r.FeasibleNodes), 10)
	if r.TotalScore != nil {
		b = append(b, `,"totalScore":`...)
		b = strconv.AppendInt(b, *r.TotalScore, 10)
	}
	gated := r.Gated != nil
	if !gated && (r.Outcome != preemption.Failed || r.PreFilter.Code != sched.Success) {
		b = append(b, `,"preFilter":{"status":`...)
		b = appendStatus(b, r.PreFilter)
		b = append(b, '}')
	}
	if gated {
		b = append(b, `,"gated":`...)
		b = appendStatus(b, *r.Gated)
	}
	if r.Message != "" {
		b = append(b, `,"message":`...)
		b = appendString(b, r.Message)
	}
	if p := r.Preemption; p != nil && !gated {
		b = appendPreemption(b, p)
	}
	if !gated && r.NodeStatuses.Len() > 0 && r.PreFilter.Code == sched.Success {
		b = append(b, `,"nodeStatuses":`...)
		b = appendAllNodeStatuses(b, r.NodeStatuses)
	}
	if r.Error != "" {
		b = append(b, `,"error":`...)
		b = appendString(b, r.Error)
	}
	return append(b, '}')
}

// appendPreemption appends the "preemption" member (preemptionOut).
func appendPreemption(b []byte, p *preemption.Result) []byte {
	b = append(b, `,"preemption":{"status":`...)
	b = appendStatus(b, p.Status)
	if p.NominatedNode != "" {
		b = append(b, `,"nominatedNode":`...)
		b = appendString(b, p.NominatedNode)
	}
	if len(p.Victims) > 0 {
		b = append(b, `,"victims":[`...)
		for i, v := range p.Victims {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"pod":`...)
			b = appendString(b, v.Key)
			b = append(b, `,"node":`...)
			b = appendString(b, v.Node)
			b = append(b, `,"priority":`...)
			b = strconv.AppendInt(b, int64(v.Priority), 10)
			if len(v.BrokenPDBs) > 0 {
				b = append(b, `,"brokenPDBs":`...)
				b = appendStrings(b, v.BrokenPDBs)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"numPDBViolations":`...)
	b = strconv.AppendInt(b, int64(p.NumPDBViolations), 10)
	b = append(b, `,"potentialNodes":`...)
	b = strconv.AppendInt(b, int64(p.PotentialNodes), 10)
	if p.NotEligible != "" {
		b = append(b, `,"notEligible":`...)
		b = appendString(b, p.NotEligible)
	}
	if len(p.Candidates) > 0 {
		b = append(b, `,"candidates":[`...)
		for i := range p.Candidates {
			c := &p.Candidates[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"node":`...)
			b = appendString(b, c.Node)
			b = append(b, `,"victims":[`...)
			for j, v := range c.Victims {
				if j > 0 {
					b = append(b, ',')
				}
				b = appendString(b, v.Key)
			}
			b = append(b, `],"numPDBViolations":`...)
			b = strconv.AppendInt(b, int64(c.NumPDBViolations), 10)
			if c.LostAt != preemption.ChosenNode {
				if lost := c.LostAt.String(); lost != "" {
					b = append(b, `,"lostAt":`...)
					b = appendString(b, lost)
				}
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(p.Rejected) > 0 {
		b = append(b, `,"dryRunStatuses":`...)
		b = appendNodeStatuses(b, p.Rejected)
	}
	return append(b, '}')
}

// appendNodeStatuses appends a non-empty list of nodeStatusOut.
func appendNodeStatuses(b []byte, ss []preemption.NodeStatus) []byte {
	b = append(b, '[')
	for i := range ss {
		b = appendNodeStatus(b, i, ss[i].Node, ss[i].Status)
	}
	return append(b, ']')
}

// appendAllNodeStatuses is appendNodeStatuses for a pod's NodeStatuses.
func appendAllNodeStatuses(b []byte, ss preemption.NodeStatuses) []byte {
	b = append(b, '[')
	i := 0
	for node, st := range ss.All() {
		b = appendNodeStatus(b, i, node, st)
		i++
	}
	return append(b, ']')
}

// appendNodeStatus appends the i-th element of a list of nodeStatusOut.
func appendNodeStatus(b []byte, i int, node string, st framework.Status) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	b = append(b, `{"node":`...)
	b = appendString(b, node)
	b = append(b, `,"status":`...)
	b = appendStatus(b, st)
	return append(b, '}')
}

// appendStatus appends s as pluginStatus (statusOut).
func appendStatus(b []byte, s framework.Status) []byte {
	b = append(b, '{')
	if s.Plugin != "" {
		b = append(b, `"plugin":`...)
		b = appendString(b, s.Plugin)
		b = append(b, ',')
	}
	b = append(b, `"code":`...)
	b = appendString(b, s.Code.String())
	if len(s.Reasons) > 0 {
		b = append(b, `,"reasons":`...)
		b = appendStrings(b, s.Reasons)
	}
	return append(b, '}')
}

// appendStrings appends a list of strings (an empty list as []).
func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendString appends s as a JSON string, as encoding/json writes it
// without HTML escaping. Printable ASCII other than the quote and the
// backslash is copied; anything else (escapes, invalid UTF-8, U+2028 and
// U+2029) is left to encoding/json itself.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s) // a string always encodes
			return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
