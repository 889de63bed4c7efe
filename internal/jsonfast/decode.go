package jsonfast

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Unmarshal decodes data into the value v points to and reports whether it
// did (see the package doc): true means v holds exactly what encoding/json
// (a Decoder with DisallowUnknownFields) would have decoded into the zero
// value, without error. v must point to a zero value. On false, v's value
// is unspecified.
func Unmarshal(data []byte, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	dec := decoderFor(rv.Type().Elem())
	d := reader{b: data}
	d.space()
	if !dec(&d, rv.UnsafePointer()) {
		return false
	}
	d.space()
	return d.i == len(d.b)
}

// Valid reports whether data is one JSON value, white space around it
// allowed. When it reports true, encoding/json's Valid does too; it reports
// false for some valid documents (nested deeper than maxDepth), so a
// caller that must be exact asks json.Valid when it says no. It is
// Unmarshal's reader: loops over bytes, no state function per byte.
func Valid(data []byte) bool {
	d := reader{b: data}
	if _, ok := d.skip(0); !ok {
		return false
	}
	d.space()
	return d.i == len(d.b)
}

// reader is the document and the offset of the next byte to read.
type reader struct {
	b []byte
	i int
}

// decodeFunc decodes the value at the reader's offset (white space
// skipped) into the memory at p, which holds a zero value of its type, and
// reports whether it could.
type decodeFunc func(d *reader, p unsafe.Pointer) bool

var decoders sync.Map // reflect.Type -> decodeFunc

// decoderFor returns t's decoder, building it once. Building does not
// look at other types' decoders (fields, elements and pointers find theirs
// when first used), so a type that refers to itself is built like any
// other; two goroutines may build one type at once and keep either.
func decoderFor(t reflect.Type) decodeFunc {
	if f, ok := decoders.Load(t); ok {
		return f.(decodeFunc)
	}
	f, _ := decoders.LoadOrStore(t, build(t))
	return f.(decodeFunc)
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func decline(*reader, unsafe.Pointer) bool { return false }

// build makes t's decoder.
func build(t reflect.Type) decodeFunc {
	if t == timeType {
		return decodeTime
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return unmarshalerDecoder(t)
	}
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return decline
	}
	switch t.Kind() {
	case reflect.String:
		if t == reflect.TypeFor[json.Number]() {
			return decline // a number's text, checked
		}
		return decodeString
	case reflect.Bool:
		return decodeBool
	case reflect.Int:
		return intDecoder[int]()
	case reflect.Int8:
		return intDecoder[int8]()
	case reflect.Int16:
		return intDecoder[int16]()
	case reflect.Int32:
		return intDecoder[int32]()
	case reflect.Int64:
		return intDecoder[int64]()
	case reflect.Uint:
		return uintDecoder[uint]()
	case reflect.Uint8:
		return uintDecoder[uint8]()
	case reflect.Uint16:
		return uintDecoder[uint16]()
	case reflect.Uint32:
		return uintDecoder[uint32]()
	case reflect.Uint64:
		return uintDecoder[uint64]()
	case reflect.Uintptr:
		return uintDecoder[uintptr]()
	case reflect.Float32:
		return floatDecoder[float32]()
	case reflect.Float64:
		return floatDecoder[float64]()
	case reflect.Pointer:
		return pointerDecoder(t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return decline // base64 text in encoding/json
		}
		return sliceDecoder(t)
	case reflect.Map:
		return mapDecoder(t)
	case reflect.Struct:
		return structDecoder(t)
	}
	return decline
}

// space skips JSON white space.
func (d *reader) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// next skips white space and returns the next byte (0 at the end).
func (d *reader) next() byte {
	d.space()
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// literal consumes word (null, true, false) and reports whether it was
// there, followed by a byte that can end a value.
func (d *reader) literal(word string) bool {
	if len(d.b)-d.i < len(word) || string(d.b[d.i:d.i+len(word)]) != word {
		return false
	}
	d.i += len(word)
	return d.i == len(d.b) || !isWordByte(d.b[d.i])
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' || c == '+'
}

// open reads a null (isNull) or the given opening delimiter of a list or
// an object; ok is false for anything else.
func (d *reader) open(delim byte) (isNull, ok bool) {
	if d.null() {
		return true, true
	}
	if d.next() != delim {
		return false, false
	}
	d.i++
	return false, true
}

// lazy is a type's decoder, found on first use (so that building a
// decoder never builds another: a type may contain itself).
type lazy struct {
	t    reflect.Type
	once sync.Once
	dec  decodeFunc
}

func (l *lazy) get() decodeFunc {
	l.once.Do(func() { l.dec = decoderFor(l.t) })
	return l.dec
}

// null consumes a null literal if one is next.
func (d *reader) null() bool {
	if d.next() == 'n' {
		return d.literal("null")
	}
	return false
}

// stringBytes reads a string literal at the offset (white space skipped)
// and returns its content; ok is false when there is none, or when it
// holds an escape, a control character or invalid UTF-8 (which
// encoding/json unescapes or replaces: declined).
func (d *reader) stringBytes() (s []byte, ok bool) {
	if d.next() != '"' {
		return nil, false
	}
	start := d.i + 1
	ascii := true
	for i := start; i < len(d.b); i++ {
		switch c := d.b[i]; {
		case c == '"':
			s = d.b[start:i]
			if !ascii && !utf8.Valid(s) {
				return nil, false
			}
			d.i = i + 1
			return s, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false
}

// number reads a JSON number literal and returns its text.
func (d *reader) number() ([]byte, bool) {
	d.space()
	b, i := d.b, d.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && isWordByte(b[i]) {
		return nil, false
	}
	s := b[d.i:i]
	d.i = i
	return s, true
}

// skip reads any JSON value, checking its syntax, and returns its bytes.
func (d *reader) skip(depth int) ([]byte, bool) {
	if depth > maxDepth {
		return nil, false
	}
	c := d.next()
	start := d.i
	ok := false
	switch {
	case c == '{':
		d.i++
		ok = d.members('}', func() bool {
			if _, _, ok := d.key(); !ok {
				return false
			}
			_, ok := d.skip(depth + 1)
			return ok
		})
	case c == '[':
		d.i++
		ok = d.members(']', func() bool {
			_, ok := d.skip(depth + 1)
			return ok
		})
	case c == '"':
		ok = d.skipString()
	case c == 'n':
		ok = d.literal("null")
	case c == 't':
		ok = d.literal("true")
	case c == 'f':
		ok = d.literal("false")
	default:
		_, ok = d.number()
	}
	if !ok {
		return nil, false
	}
	return d.b[start:d.i], true
}

// maxDepth bounds the nesting skip follows (encoding/json allows 10000;
// deeper values are declined, not rejected).
const maxDepth = 1000

// skipString reads a string literal, escapes included, checking that each
// escape is one JSON allows.
func (d *reader) skipString() bool {
	for i := d.i + 1; i < len(d.b); i++ {
		switch c := d.b[i]; {
		case c == '"':
			d.i = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			i++
			if i >= len(d.b) {
				return false
			}
			switch d.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d.b) {
					return false
				}
				for _, h := range d.b[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				i += 4
			default:
				return false
			}
		}
	}
	return false
}

// members reads the members of an object or a list whose opening
// delimiter was just read, through the closing one: member reads one
// (for an object, its key, colon and value).
func (d *reader) members(end byte, member func() bool) bool {
	if d.next() == end {
		d.i++
		return true
	}
	for {
		if !member() {
			return false
		}
		switch d.next() {
		case ',':
			d.i++
		case end:
			d.i++
			return true
		default:
			return false
		}
	}
}

// key reads an object key and its colon. plain is false for a key with an
// escape or invalid UTF-8, which is read (and its syntax checked) but not
// returned: callers that need the key decline it.
func (d *reader) key() (k []byte, plain, ok bool) {
	if d.next() != '"' {
		return nil, false, false
	}
	if k, plain = d.stringBytes(); !plain && !d.skipString() {
		return nil, false, false
	}
	if d.next() != ':' {
		return nil, false, false
	}
	d.i++
	return k, plain, true
}

func decodeString(d *reader, p unsafe.Pointer) bool {
	if d.null() {
		return true
	}
	s, ok := d.stringBytes()
	if !ok {
		return false
	}
	*(*string)(p) = string(s)
	return true
}

func decodeBool(d *reader, p unsafe.Pointer) bool {
	switch d.next() {
	case 't':
		*(*bool)(p) = true
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	}
	return false
}

// integer reads a number literal that is a plain integer (encoding/json
// parses integers with strconv and rejects fractions and exponents).
func (d *reader) integer() ([]byte, bool) {
	s, ok := d.number()
	if !ok || len(s) == 0 {
		return nil, false
	}
	for _, c := range s {
		if c == '.' || c == 'e' || c == 'E' {
			return nil, false
		}
	}
	return s, true
}

// numberDecoder reads a literal with read (null leaves the zero value),
// converts it with parse as encoding/json does (strconv, at the field's
// size) and stores it with store; a literal that does not read or parse is
// declined (encoding/json rejects it).
func numberDecoder[T any](read func(*reader) ([]byte, bool), parse func(string) (T, error), store func(unsafe.Pointer, T)) decodeFunc {
	return func(d *reader, p unsafe.Pointer) bool {
		if d.next() == 'n' {
			return d.literal("null")
		}
		s, ok := read(d)
		if !ok {
			return false
		}
		v, err := parse(string(s))
		if err != nil {
			return false
		}
		store(p, v)
		return true
	}
}

// intDecoder, uintDecoder and floatDecoder decode into a field of T's
// size (a named type's too: the same memory), parsed at that size.
func intDecoder[T int | int8 | int16 | int32 | int64]() decodeFunc {
	bits := int(unsafe.Sizeof(T(0))) * 8
	return numberDecoder((*reader).integer,
		func(s string) (T, error) { n, err := strconv.ParseInt(s, 10, bits); return T(n), err },
		func(p unsafe.Pointer, v T) { *(*T)(p) = v })
}

func uintDecoder[T uint | uint8 | uint16 | uint32 | uint64 | uintptr]() decodeFunc {
	bits := int(unsafe.Sizeof(T(0))) * 8
	return numberDecoder((*reader).integer,
		func(s string) (T, error) { n, err := strconv.ParseUint(s, 10, bits); return T(n), err },
		func(p unsafe.Pointer, v T) { *(*T)(p) = v })
}

func floatDecoder[T float32 | float64]() decodeFunc {
	bits := int(unsafe.Sizeof(T(0))) * 8
	return numberDecoder((*reader).number,
		func(s string) (T, error) { f, err := strconv.ParseFloat(s, bits); return T(f), err },
		func(p unsafe.Pointer, v T) { *(*T)(p) = v })
}

// unmarshalerDecoder calls the type's own UnmarshalJSON with the value's
// bytes, null included, as encoding/json does for a value that is not a
// pointer.
func unmarshalerDecoder(t reflect.Type) decodeFunc {
	return func(d *reader, p unsafe.Pointer) bool {
		raw, ok := d.skip(0)
		if !ok {
			return false
		}
		u := reflect.NewAt(t, p).Interface().(json.Unmarshaler)
		return u.UnmarshalJSON(raw) == nil
	}
}

// timeType is metav1.Time, which every object's metadata and a pod's
// status carry several of.
var timeType = reflect.TypeFor[metav1.Time]()

// decodeUnmarshaledTime is metav1.Time's own UnmarshalJSON.
var decodeUnmarshaledTime = unmarshalerDecoder(timeType)

// decodeTime is metav1.Time's UnmarshalJSON (meta/v1 time.go) for its
// common form, a string without escapes: the same RFC 3339 time.Parse of
// the string and the same Local time, a parse error declining as the
// method's error does. UnmarshalJSON reads the string through
// encoding/json's Unmarshal, which was most of its cost; any other form
// (null, an escape, not a string) goes to UnmarshalJSON itself.
func decodeTime(d *reader, p unsafe.Pointer) bool {
	if d.next() == '"' {
		at := d.i
		if s, ok := d.stringBytes(); ok {
			pt, err := time.Parse(time.RFC3339, string(s))
			if err != nil {
				return false
			}
			(*metav1.Time)(p).Time = pt.Local()
			return true
		}
		d.i = at
	}
	return decodeUnmarshaledTime(d, p)
}

// pointerDecoder leaves the pointer nil for null and otherwise points it
// at a new value decoded as its element type.
func pointerDecoder(t reflect.Type) decodeFunc {
	elem := t.Elem()
	if elem.Kind() == reflect.Pointer {
		return decline
	}
	one := reflect.SliceOf(elem) // a new value is allocated as an array of one
	lz := &lazy{t: elem}
	return func(d *reader, p unsafe.Pointer) bool {
		if d.null() {
			return true
		}
		v := reflect.MakeSlice(one, 1, 1).UnsafePointer()
		if !lz.get()(d, v) {
			return false
		}
		*(*unsafe.Pointer)(p) = v
		return true
	}
}

// sliceHeader is the layout of a slice value.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// sliceDecoder decodes a list; null leaves the slice nil and [] makes it
// empty, not nil, as encoding/json does. The array doubles as it fills,
// from one element.
func sliceDecoder(t reflect.Type) decodeFunc {
	elem := &lazy{t: t.Elem()}
	size := t.Elem().Size()
	return func(d *reader, p unsafe.Pointer) bool {
		if isNull, ok := d.open('['); isNull || !ok {
			return ok
		}
		dec := elem.get()
		var s reflect.Value
		var data unsafe.Pointer
		n := 0
		if !d.members(']', func() bool {
			if !s.IsValid() || n == s.Cap() {
				grown := reflect.MakeSlice(t, n, max(1, 2*n))
				if n > 0 {
					reflect.Copy(grown, s.Slice(0, n))
				}
				s, data = grown, grown.UnsafePointer()
			}
			n++
			return dec(d, unsafe.Add(data, uintptr(n-1)*size))
		}) {
			return false
		}
		if !s.IsValid() {
			s = reflect.MakeSlice(t, 0, 0)
			data = s.UnsafePointer()
		}
		*(*sliceHeader)(p) = sliceHeader{data, n, s.Cap()}
		return true
	}
}

// mapDecoder decodes an object into a map with string keys; null leaves
// the map nil and {} makes it empty. A repeated key is declined
// (encoding/json would decode it again into the same entry). As in
// encoding/json, each entry is decoded into one zeroed value and copied
// into the map.
func mapDecoder(t reflect.Type) decodeFunc {
	key, elem := t.Key(), t.Elem()
	if key.Kind() != reflect.String || reflect.PointerTo(key).Implements(textUnmarshalerType) {
		return decline
	}
	if t == reflect.TypeFor[map[string]string]() {
		return decodeStringMap
	}
	lz := &lazy{t: elem}
	return func(d *reader, p unsafe.Pointer) bool {
		if isNull, ok := d.open('{'); isNull || !ok {
			return ok
		}
		dec := lz.get()
		m := reflect.MakeMap(t)
		kv := reflect.New(key).Elem()
		ev := reflect.New(elem).Elem()
		if !d.members('}', func() bool {
			k, plain, ok := d.key()
			if !ok || !plain {
				return false
			}
			kv.SetString(string(k))
			ev.SetZero()
			if !dec(d, ev.Addr().UnsafePointer()) {
				return false
			}
			n := m.Len()
			m.SetMapIndex(kv, ev)
			return m.Len() > n
		}) {
			return false
		}
		reflect.NewAt(t, p).Elem().Set(m)
		return true
	}
}

// decodeStringMap is mapDecoder for map[string]string (labels,
// annotations, node selectors), without reflection.
func decodeStringMap(d *reader, p unsafe.Pointer) bool {
	if isNull, ok := d.open('{'); isNull || !ok {
		return ok
	}
	m := map[string]string{}
	if !d.members('}', func() bool {
		k, plain, ok := d.key()
		if !ok || !plain {
			return false
		}
		if _, dup := m[string(k)]; dup {
			return false
		}
		var v string
		if !decodeString(d, unsafe.Pointer(&v)) {
			return false
		}
		m[string(k)] = v
		return true
	}) {
		return false
	}
	*(*map[string]string)(p) = m
	return true
}

// field is one JSON name of a struct: where its value goes (the offset
// from the outer struct, through embedded structs) and how it is decoded.
type field struct {
	name   string
	offset uintptr
	dec    lazy
}

// structDecoder decodes an object into a struct. Fields are named as
// encoding/json names them (typeFields): the tag's name, else the Go name;
// exported fields only; "-" omits one; an untagged embedded struct's fields
// are promoted. Where that would give two fields one name (encoding/json's
// dominance rules) the struct is declined altogether.
func structDecoder(t reflect.Type) decodeFunc {
	fields, ok := structFields(t, 0, 0)
	if !ok {
		return decline
	}
	byName := make(map[string]int, len(fields))
	for i, f := range fields {
		if _, dup := byName[f.name]; dup {
			return decline
		}
		byName[f.name] = i
	}
	return func(d *reader, p unsafe.Pointer) bool {
		if isNull, ok := d.open('{'); isNull || !ok {
			return ok
		}
		var seenSmall uint64
		var seen []bool
		if len(fields) > 64 {
			seen = make([]bool, len(fields))
		}
		return d.members('}', func() bool {
			k, plain, ok := d.key()
			if !ok || !plain {
				return false
			}
			i, ok := byName[string(k)]
			if !ok {
				return false
			}
			if seen != nil {
				if seen[i] {
					return false
				}
				seen[i] = true
			} else {
				if seenSmall&(1<<i) != 0 {
					return false
				}
				seenSmall |= 1 << i
			}
			f := fields[i]
			return f.dec.get()(d, unsafe.Add(p, f.offset))
		})
	}
}

// structFields lists t's JSON fields at the given offset, promoting
// untagged embedded structs' fields; ok is false for what is declined (an
// embedded pointer, a ",string" field).
func structFields(t reflect.Type, offset uintptr, depth int) (out []*field, ok bool) {
	if depth > 16 {
		return nil, false
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				if name == "" && ft.Elem().Kind() == reflect.Struct {
					return nil, false
				}
			}
			if !sf.IsExported() && ft.Kind() != reflect.Struct {
				continue
			}
			if name == "" && ft.Kind() == reflect.Struct {
				sub, ok := structFields(ft, offset+sf.Offset, depth+1)
				if !ok {
					return nil, false
				}
				out = append(out, sub...)
				continue
			}
		} else if !sf.IsExported() {
			continue
		}
		for _, o := range strings.Split(opts, ",") {
			if o == "string" {
				return nil, false
			}
		}
		for _, c := range []byte(name + sf.Name) {
			if c >= 0x80 {
				return nil, false // encoding/json's Unicode rules for names: declined
			}
		}
		if !validTagName(name) {
			name = sf.Name
		}
		out = append(out, &field{name: name, offset: offset + sf.Offset, dec: lazy{t: sf.Type}})
	}
	return out, true
}

// validTagName is encoding/json's isValidTag: a tag name it does not
// accept leaves the field its Go name.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !isLetterOrDigit(c):
			return false
		}
	}
	return true
}

func isLetterOrDigit(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
