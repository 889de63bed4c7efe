// Package wrap converts between schedkit's internal types and the public
// types that present them to callers.
//
// A public type such as placement.NodeInfo is declared as a struct whose
// only field is the internal value (struct{ n cluster.NodeInfo }): its
// methods are the public, read-only surface, and the internal fields stay
// out of reach of callers. Both types then have the same size, alignment
// and pointer layout, so a pointer to one is a pointer to the other. The
// packages of this module convert with Cast at their boundaries, which
// costs nothing: no copy, no allocation, so a public *NodeInfo handed to a
// filter reaches the same memory the snapshot indexes.
//
// Cast is only correct for such pairs; each public package tests its pairs
// with SameLayout.
package wrap

import (
	"reflect"
	"unsafe"
)

// Cast returns p as a pointer to To. To and From must be a public wrapper
// and the type it wraps (in either order); nil stays nil.
func Cast[To, From any](p *From) *To { return (*To)(unsafe.Pointer(p)) }

// Slice returns s as a slice of pointers to To, sharing s's backing array
// (see Cast).
func Slice[To, From any](s []*From) []*To {
	if s == nil {
		return nil
	}
	return unsafe.Slice((**To)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// SameLayout reports whether Public is a struct whose only field has type
// Internal, the condition under which Cast between them is sound.
func SameLayout[Public, Internal any]() bool {
	p := reflect.TypeFor[Public]()
	return p.Kind() == reflect.Struct && p.NumField() == 1 &&
		p.Field(0).Type == reflect.TypeFor[Internal]() && p.Field(0).Offset == 0
}
