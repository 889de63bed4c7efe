// Package hostile is what schedkit's tests do to its entry points as a
// hostile caller would: freeze the API objects handed in (deep copies to
// compare with afterwards) and scramble every slice and map of a result the
// caller could change.
package hostile

import (
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
)

// Frozen holds objects given to a call and deep copies taken before it.
type Frozen struct {
	objs, copies []runtime.Object
}

// Freeze records deep copies of objs (nil entries are skipped).
func Freeze(objs ...runtime.Object) *Frozen {
	f := &Frozen{}
	f.Add(objs...)
	return f
}

// Add records more objects.
func (f *Frozen) Add(objs ...runtime.Object) {
	for _, o := range objs {
		if o == nil || reflect.ValueOf(o).IsNil() {
			continue
		}
		f.objs = append(f.objs, o)
		f.copies = append(f.copies, o.DeepCopyObject())
	}
}

// Changed names the objects that are no longer semantically equal
// (equality.Semantic.DeepEqual) to their copies, in the order given.
func (f *Frozen) Changed() []string {
	var out []string
	for i, o := range f.objs {
		if !equality.Semantic.DeepEqual(f.copies[i], o) {
			out = append(out, fmt.Sprintf("%T %s", o, name(o)))
		}
	}
	return out
}

func name(o runtime.Object) string {
	v := reflect.ValueOf(o).Elem()
	meta := v.FieldByName("ObjectMeta")
	if !meta.IsValid() {
		return "?"
	}
	ns, n := meta.FieldByName("Namespace").String(), meta.FieldByName("Name").String()
	if ns == "" {
		return n
	}
	return ns + "/" + n
}

// Scramble changes, in place, everything a caller could change in v
// through exported fields: every slice's elements are zeroed (after their
// own contents are scrambled), every map gets a new key and loses its
// others, every string becomes "scrambled", numbers and bools flip. It
// does not follow pointers to API objects (types of k8s.io/api), which are
// the caller's own inputs handed back, but does scramble slices and maps of
// API types held by value (a []corev1.Taint shared with an input shows).
func Scramble(v any) {
	scramble(reflect.ValueOf(v), map[uintptr]bool{}, nil)
}

// Scramble is Scramble that also changes the API objects of v that are
// not among f's (the new objects an answer holds, which must share nothing
// with the inputs).
func (f *Frozen) Scramble(v any) {
	inputs := map[uintptr]bool{}
	for _, o := range f.objs {
		inputs[reflect.ValueOf(o).Pointer()] = true
	}
	scramble(reflect.ValueOf(v), map[uintptr]bool{}, inputs)
}

func isAPIType(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.HasPrefix(t.PkgPath(), "k8s.io/api/")
}

// scramble changes v; API objects are left alone when inputs is nil, else
// those in inputs are.
func scramble(v reflect.Value, seen, inputs map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] || isAPIType(v.Type()) && (inputs == nil || inputs[v.Pointer()]) {
			return
		}
		seen[v.Pointer()] = true
		scramble(v.Elem(), seen, inputs)
	case reflect.Interface:
		// errors and the like: not the caller's to change
	case reflect.Struct:
		if v.Type().PkgPath() == "time" || v.Type().PkgPath() == "k8s.io/apimachinery/pkg/api/resource" {
			if v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				scramble(v.Field(i), seen, inputs)
			}
		}
	case reflect.Slice:
		if v.IsNil() || v.Len() == 0 {
			return
		}
		for i := range v.Len() {
			scramble(v.Index(i), seen, inputs)
		}
		for i := range v.Len() {
			v.Index(i).Set(reflect.Zero(v.Type().Elem()))
		}
	case reflect.Array:
		for i := range v.Len() {
			scramble(v.Index(i), seen, inputs)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			scramble(v.MapIndex(k), seen, inputs) // a copy for value types; pointers reach the shared value
			v.SetMapIndex(k, reflect.Value{})
		}
		if k := v.Type().Key(); k.Kind() == reflect.String {
			v.SetMapIndex(reflect.ValueOf("scrambled").Convert(k), reflect.Zero(v.Type().Elem()))
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString("scrambled")
		}
	case reflect.Bool:
		if v.CanSet() {
			v.SetBool(!v.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.CanSet() {
			v.SetInt(^v.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if v.CanSet() {
			v.SetUint(^v.Uint())
		}
	case reflect.Float32, reflect.Float64:
		if v.CanSet() {
			v.SetFloat(-v.Float() - 1)
		}
	}
}
