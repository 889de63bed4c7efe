package scenario

import (
	"encoding/json"
	"sort"
	"unicode/utf8"
)

// splitTopFast is splitTop for the common case, a valid JSON object whose
// top-level keys carry no escapes, without encoding/json's Decoder: the
// Decoder copies every item twice (into its buffer, then into a
// RawMessage) and re-scans it, which made splitting a large file a
// sequential fifth of reading it. On valid JSON the structure is the
// Decoder's, so the items are found by depth alone; they are subslices of
// data (data must not change while they are used). ok is false for
// anything else (invalid JSON, several values, a key with an escape or
// invalid UTF-8),
// which splitTop reads with its exact errors.
func splitTopFast(data []byte) (lists map[string][]json.RawMessage, wrongKind map[string]string, unknown []string, extra map[string]json.RawMessage, ok bool) {
	if !json.Valid(data) {
		return nil, nil, nil, nil, false
	}
	s := scan{b: data}
	s.space()
	if !s.is('{') {
		return nil, nil, nil, nil, false
	}
	s.i++
	lists = map[string][]json.RawMessage{}
	wrongKind = map[string]string{}
	extra = map[string]json.RawMessage{}
	unknownSet := map[string]bool{}
	for s.next('}') {
		key, keyOK := s.plainString()
		if !keyOK {
			return nil, nil, nil, nil, false
		}
		s.space()
		s.i++ // ':'
		s.space()
		start := s.i
		s.value()
		raw := json.RawMessage(data[start:s.i:s.i])
		if !topLevelLists[key] && key != "items" {
			unknownSet[key] = true
			extra[key] = raw
			continue
		}
		delete(lists, key)
		delete(wrongKind, key)
		switch data[start] {
		case '[':
			items := []json.RawMessage{} // not nil: present, if empty
			in := scan{b: data, i: start + 1}
			for in.next(']') {
				from := in.i
				in.value()
				items = append(items, json.RawMessage(data[from:in.i:in.i]))
			}
			lists[key] = items
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
	}
	for k := range unknownSet {
		unknown = append(unknown, k)
	}
	sort.Strings(unknown)
	return lists, wrongKind, unknown, extra, true
}

// scan walks valid JSON.
type scan struct {
	b []byte
	i int
}

func (s *scan) is(c byte) bool { return s.i < len(s.b) && s.b[s.i] == c }

// next moves to the next member of a list or object whose opening
// delimiter has been read, past a separating comma, and reports whether
// there is one (false at the closing delimiter end).
func (s *scan) next(end byte) bool {
	s.space()
	if s.is(end) {
		return false
	}
	if s.is(',') {
		s.i++
		s.space()
	}
	return true
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
		}
	}
	return "", false
}

// value skips one value: a string, an object or a list (to its closing
// delimiter), or a literal (to the next delimiter or space).
func (s *scan) value() {
	depth := 0
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '"':
			s.i++
			for s.i < len(s.b) && s.b[s.i] != '"' {
				if s.b[s.i] == '\\' {
					s.i++
				}
				s.i++
			}
			s.i++
			if depth == 0 {
				return
			}
		case '{', '[':
			depth++
			s.i++
		case '}', ']':
			if depth == 0 {
				return
			}
			depth--
			s.i++
			if depth == 0 {
				return
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return
			}
			s.i++
		default:
			s.i++
		}
	}
}
