package main

import "encoding/json"

// answerEviction answers the kinds of the eviction package: eviction,
// pdb-status, drain-filter, memory-ranking, pid-ranking, taint-eviction-time.
// ok is false for any other kind.
func answerEviction(kind string, input json.RawMessage) (out any, ok bool, err error) {
	return nil, false, nil
}
