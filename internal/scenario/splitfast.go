package scenario

import (
	"bytes"
	"encoding/json"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/schedkit/schedkit/internal/jsonfast"
)

// splitTopFast is splitTop for the common case, a valid JSON object whose
// top-level keys carry no escapes, without encoding/json's Decoder: the
// Decoder copies every item twice (into its buffer, then into a
// RawMessage) and re-scans it, which made splitting a large file a
// sequential fifth of reading it. The object's own structure (braces,
// keys, colons, commas, the lists' brackets) is checked here, strictly;
// each value inside it is delimited by depth alone and then checked with
// json.Valid, in parallel. A document is valid JSON exactly when both
// hold, so that on the inputs it takes the structure is the Decoder's. The
// items are subslices of data (data must not change while they are used).
// ok is false for anything else (invalid JSON, several values, a key with
// an escape or invalid UTF-8), which splitTop reads with its exact errors.
func splitTopFast(data []byte) (lists map[string][]json.RawMessage, wrongKind map[string]string, unknown []string, extra map[string]json.RawMessage, ok bool) {
	fail := func() (map[string][]json.RawMessage, map[string]string, []string, map[string]json.RawMessage, bool) {
		return nil, nil, nil, nil, false
	}
	s := scan{b: data}
	s.space()
	if !s.is('{') {
		return fail()
	}
	lists = map[string][]json.RawMessage{}
	wrongKind = map[string]string{}
	extra = map[string]json.RawMessage{}
	unknownSet := map[string]bool{}
	// check validates every value found, beside the scan; depthOK is
	// false when one nests deeper than encoding/json's limit allows at its
	// place.
	check := &validator{}
	defer check.stop()
	depthOK := true
	value := func(s *scan, at int) (json.RawMessage, bool) {
		start := s.i
		if depth := s.value(); depth+at > maxNestingDepth {
			depthOK = false
		}
		if s.i == start || s.i > len(s.b) {
			return nil, false
		}
		raw := json.RawMessage(data[start:s.i:s.i])
		check.add(raw)
		return raw, true
	}
	member := func() bool {
		key, keyOK := s.plainString()
		if !keyOK {
			return false
		}
		s.space()
		if !s.is(':') {
			return false
		}
		s.i++
		s.space()
		start := s.i
		if s.is('[') {
			// A list's items are delimited here, each a value of its own.
			items := []json.RawMessage{} // not nil: present, if empty
			if !s.members(']', func() bool {
				item, ok := value(&s, 2)
				items = append(items, item)
				return ok
			}) {
				return false
			}
			if topLevelLists[key] || key == "items" {
				delete(wrongKind, key)
				lists[key] = items
			} else {
				unknownSet[key] = true
				extra[key] = json.RawMessage(data[start:s.i:s.i])
			}
			return true
		}
		raw, rawOK := value(&s, 1)
		if !rawOK {
			return false
		}
		if !topLevelLists[key] && key != "items" {
			unknownSet[key] = true
			extra[key] = raw
			return true
		}
		delete(lists, key)
		delete(wrongKind, key)
		switch raw[0] {
		case 'n':
		case '{':
			wrongKind[key] = "an object"
		case '"':
			wrongKind[key] = "a string"
		case 't', 'f':
			wrongKind[key] = "a boolean"
		default:
			wrongKind[key] = "a number"
		}
		return true
	}
	if !s.members('}', member) {
		return fail()
	}
	s.space()
	if s.i != len(data) || !depthOK || !check.allValid() {
		return fail()
	}
	for k := range unknownSet {
		unknown = append(unknown, k)
	}
	sort.Strings(unknown)
	return lists, wrongKind, unknown, extra, true
}

// maxNestingDepth is encoding/json's limit on nested lists and objects
// (its scanner's maxNestingDepth), beyond which a document is invalid.
const maxNestingDepth = 10000

// validator checks values for JSON validity while the scan that delimits
// them goes on: the scan is sequential, and checking the values after it
// (in parallel) was a fifth of reading a large scenario. The scan hands
// them over in batches to GOMAXPROCS-1 goroutines, started with the first
// batch; allValid checks what is left on the caller's goroutine, helps
// with the queued batches, and waits for the others. jsonfast.Valid
// answers first (the check took half the time on a 16 MB scenario); only
// a value it rejects is asked of json.Valid, which decides.
type validator struct {
	batch   []json.RawMessage
	work    chan []json.RawMessage
	bad     atomic.Bool
	wg      sync.WaitGroup
	stopped bool
}

// validateBatch is the number of values handed over at a time.
const validateBatch = 64

// add queues raw to be checked.
func (v *validator) add(raw json.RawMessage) {
	v.batch = append(v.batch, raw)
	if len(v.batch) < validateBatch {
		return
	}
	if v.work == nil && runtime.GOMAXPROCS(0) > 1 {
		v.work = make(chan []json.RawMessage, 1024)
		for range runtime.GOMAXPROCS(0) - 1 {
			v.wg.Add(1)
			go func() {
				defer v.wg.Done()
				for b := range v.work {
					v.checkAll(b)
				}
			}()
		}
	}
	select {
	case v.work <- v.batch: // a nil channel (one CPU) is never ready
	default:
		v.checkAll(v.batch)
	}
	v.batch = nil
}

// checkAll checks a batch, unless a value already failed.
func (v *validator) checkAll(b []json.RawMessage) {
	for _, raw := range b {
		if v.bad.Load() {
			return
		}
		if !valid(raw) {
			v.bad.Store(true)
		}
	}
}

// allValid reports whether every value added is valid JSON; the
// goroutines have stopped when it returns.
func (v *validator) allValid() bool {
	v.checkAll(v.batch)
	v.batch = nil
	if v.work != nil {
		close(v.work)
		for b := range v.work {
			v.checkAll(b)
		}
		v.wg.Wait()
	}
	v.stopped = true
	return !v.bad.Load()
}

// stop ends the goroutines when the scan failed before allValid.
func (v *validator) stop() {
	if v.stopped {
		return
	}
	v.bad.Store(true) // nothing left is worth checking
	v.allValid()
}

func valid(v []byte) bool { return jsonfast.Valid(v) || json.Valid(v) }

// scan walks JSON. Its methods other than plainString assume valid JSON;
// on invalid input they stop anywhere, and the caller checks the values
// they delimit.
type scan struct {
	b []byte
	i int
}

func (s *scan) is(c byte) bool { return s.i < len(s.b) && s.b[s.i] == c }

// members reads a list or an object whose opening delimiter is at s.i,
// through its closing delimiter end: member reads each member (an item, or
// a key and its value), and the members must be separated by commas.
// It reports whether the structure was well formed and every member read.
func (s *scan) members(end byte, member func() bool) bool {
	s.i++
	s.space()
	if s.is(end) {
		s.i++
		return true
	}
	for {
		if !member() {
			return false
		}
		s.space()
		if s.is(end) {
			s.i++
			return true
		}
		if !s.is(',') {
			return false
		}
		s.i++
		s.space()
	}
}

func (s *scan) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// plainString reads a string without escapes, in valid UTF-8; ok is
// false for any other token.
func (s *scan) plainString() (string, bool) {
	if !s.is('"') {
		return "", false
	}
	for j := s.i + 1; j < len(s.b); j++ {
		switch s.b[j] {
		case '\\':
			return "", false
		case '"':
			// The Decoder replaces invalid UTF-8 with U+FFFD.
			if !utf8.Valid(s.b[s.i+1 : j]) {
				return "", false
			}
			str := string(s.b[s.i+1 : j])
			s.i = j + 1
			return str, true
		default:
			if s.b[j] < 0x20 { // a control character must be escaped
				return "", false
			}
		}
	}
	return "", false
}

// value skips one value: a string, an object or a list (to its closing
// delimiter), or a literal (to the next delimiter or space). It returns
// the deepest nesting of lists and objects it passed. A string is skipped
// by searching for its closing quote (bytes.IndexByte) rather than byte by
// byte: a quote is the closing one when an even number of backslashes
// precedes it. Other bytes are told apart by one table lookup (scanClass).
// Both halve the sequential scan of a large scenario (41 to 21 ms at
// 16 MB); on valid JSON the result is the byte-by-byte walk's.
func (s *scan) value() (maxDepth int) {
	depth := 0
	b, i := s.b, s.i
	for i < len(b) {
		switch scanClass[b[i]] {
		case scanOther:
			i++
		case scanQuote:
			i++
			for {
				j := bytes.IndexByte(b[i:], '"')
				if j < 0 {
					s.i = len(b) + 1 // unterminated: past the end, as the caller checks
					return maxDepth
				}
				i += j
				k := i
				for k > s.i && b[k-1] == '\\' {
					k--
				}
				i++
				if (i-1-k)%2 == 0 {
					break
				}
			}
			if depth == 0 {
				s.i = i
				return maxDepth
			}
		case scanOpen:
			depth++
			maxDepth = max(maxDepth, depth)
			i++
		case scanClose:
			if depth == 0 {
				s.i = i
				return maxDepth
			}
			depth--
			i++
			if depth == 0 {
				s.i = i
				return maxDepth
			}
		case scanEnd:
			if depth == 0 {
				s.i = i
				return maxDepth
			}
			i++
		}
	}
	s.i = i
	return maxDepth
}

// scanClass sorts bytes for value.
var scanClass = func() (t [256]uint8) {
	t['"'] = scanQuote
	t['{'], t['['] = scanOpen, scanOpen
	t['}'], t[']'] = scanClose, scanClose
	for _, c := range []byte{',', ' ', '\t', '\n', '\r', ':'} {
		t[c] = scanEnd
	}
	return t
}()

const (
	scanOther uint8 = iota
	scanQuote
	scanOpen
	scanClose
	scanEnd // a separator or white space: ends a literal
)
