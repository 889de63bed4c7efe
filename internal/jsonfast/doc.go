// Package jsonfast decodes the common case of a JSON document into Go values
// two to three times faster than encoding/json (BenchmarkPods: the bundled
// scenarios' pods), and declines everything else.
//
// The model is a fast path beside an exact slow path. Unmarshal reports
// whether it decoded the document; when it did, the value is what
// encoding/json's Decoder with DisallowUnknownFields would have produced
// (equal under reflect.DeepEqual) and that Decoder would have returned no
// error. When it declines, the value is in no particular state and the
// caller decodes the same bytes again with encoding/json, which gives the
// exact value or the exact error. Declining is always safe; succeeding with
// a different value is a defect, which the package's differential tests
// look for (the same bytes through both decoders, over the Kubernetes
// objects of the bundled scenarios and random mutations of them).
//
// What it decodes: objects into structs (fields named as encoding/json
// names them, embedded structs' fields promoted), maps with string keys,
// slices, pointers, strings, booleans, integers and floats, and any type
// with its own UnmarshalJSON (resource.Quantity, metav1.Time,
// intstr.IntOrString), which is called with the value's bytes exactly as
// encoding/json calls it. What it declines, so that encoding/json decides:
// an object key that is not exactly a field's name (unknown, or matching
// only case-insensitively), a key repeated in one object, a value of the
// wrong JSON type for its field, an integer that is not a plain integer or
// overflows its field, a string with an escape sequence or invalid UTF-8,
// interface, array and []byte fields, fields tagged ",string", types with
// only an UnmarshalText, embedded pointers, structs whose promoted names
// collide, an UnmarshalJSON that returns an error, invalid JSON, and
// anything after the value but white space.
//
// Valid is the same reader as a validator: it never accepts what json.Valid
// rejects, and may reject what it accepts (nesting deeper than maxDepth),
// so an exact caller asks json.Valid when it says no.
//
// Why it is faster: encoding/json reads each document twice (once to find
// the value's end and check it, once to decode it) through a scanner that
// calls a state function per byte, and finds every field through
// reflection. Here each document is read once, by loops over bytes, and
// each type's decoder is built once (per reflect.Type, cached) as a tree of
// closures that write fields through their offsets.
package jsonfast
