package placement

import (
	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement/framework"
)

// verdictTable is Evaluate's per-pod table of the distinct statuses each
// Filter plugin gives across the nodes. A node's verdicts become one small
// ID per plugin, packed into a row key; nodes with equal keys (most of them,
// as a rule) share one Filters list and one recorded status, built once.
// Comparing keys replaces comparing nine statuses and their reason texts per
// node, and no [NumFilters]Status array is copied per node.
//
// The IDs depend only on the statuses (their code and reason texts), so two
// nodes share a row exactly when the old content comparison said they were
// equal: the report is unchanged. A table belongs to one Evaluate call.
type verdictTable struct {
	c *Compiled
	// distinct[p] holds plugin p's distinct statuses with Plugin set; a
	// status's ID is its index.
	distinct [numFilters][]sched.Status
	rows     []verdictRow
	keys     []uint64         // rows[i]'s key
	byKey    map[uint64]int32 // keys indexed, once there are more than linearRows
	lastKey  uint64
	last     int32 // index of the row of lastKey, -1 before the first row
	limit    int   // at most maxIDs distinct statuses per plugin
	// eval lists the plugins computed per node: not skipped, and not
	// passing on every node for this pod (those keep ID 0, Success).
	eval []int8
	// localID[p][code] is 1 + the ID of node-local plugin p's status for
	// a local code (localCode), 0 until first seen.
	localID [numFilters][maxLocalCode]uint8
}

// verdictRow is what the nodes of one row key share.
type verdictRow struct {
	filters  []framework.Status // every included plugin's verdict, profile order
	first    sched.Status       // the recorded status: first failure, the absent status, or Success
	status   framework.Status   // first, owned by the report
	excluded bool               // outside PreFilter's node restriction
}

const (
	// idBits is the width of one plugin's ID in a row key; numFilters of
	// them leave the top bit free for the "excluded" flag.
	idBits = 7
	// maxIDs bounds a plugin's distinct statuses. Past it (a pod short of
	// many scalar resources in many combinations) a node's row is built on
	// its own, unshared.
	maxIDs      = 1<<idBits - 1
	excludedBit = uint64(1) << 63
)

func newVerdictTable(c *Compiled, limit int) *verdictTable {
	t := &verdictTable{c: c, last: -1, limit: min(max(limit, 1), maxIDs)}
	for p := range numFilters {
		if c.skip[p] {
			t.distinct[p] = []sched.Status{{Code: sched.Skip, Plugin: filterNames[p]}}
			continue
		}
		// Success is ID 0 of every plugin that runs.
		t.distinct[p] = []sched.Status{{Plugin: filterNames[p]}}
		switch {
		case p == fNodeName && c.pod.Spec.NodeName == "":
		case p == fNodeUnschedulable && c.toleratesUnschedulable:
		default:
			t.eval = append(t.eval, int8(p))
		}
	}
	return t
}

// sameVerdict reports whether two statuses of one plugin are equal by code
// and reason texts. Reason slices are mostly shared package-level values,
// so a pointer compare settles nearly every case.
func sameVerdict(a, b *sched.Status) bool {
	if a.Code != b.Code || len(a.Reasons) != len(b.Reasons) {
		return false
	}
	if len(a.Reasons) == 0 || &a.Reasons[0] == &b.Reasons[0] {
		return true
	}
	for k := range a.Reasons {
		if a.Reasons[k] != b.Reasons[k] {
			return false
		}
	}
	return true
}

// id returns st's ID among plugin p's statuses, adding it when new; ok is
// false when the plugin has t.limit statuses already.
func (t *verdictTable) id(p int, st *sched.Status) (uint64, bool) {
	list := t.distinct[p]
	for i := range list {
		if sameVerdict(&list[i], st) {
			return uint64(i), true
		}
	}
	if len(list) >= t.limit {
		return 0, false
	}
	s := *st
	s.Plugin = filterNames[p]
	t.distinct[p] = append(list, s)
	return uint64(len(list)), true
}

// row returns the shared row of node n, computing every Filter plugin on it
// (no short-circuit) as FilterEach does.
func (t *verdictTable) row(n *cluster.NodeInfo) *verdictRow {
	c := t.c
	var key uint64
	for _, p8 := range t.eval {
		p := int(p8)
		var id uint64
		code, ok := uint8(0), false
		if isLocal(p) && !c.noState[p] {
			code, ok = c.localCode(p, n)
		}
		if ok {
			if code == 0 {
				continue // ID 0
			}
			x := t.localID[p][code]
			if x == 0 {
				st := localStatus(p, code)
				i, ok := t.id(p, &st)
				if !ok {
					return t.unshared(n)
				}
				x = uint8(i) + 1
				t.localID[p][code] = x
			}
			id = uint64(x - 1)
		} else {
			// A topology plugin, or extended-resource shortfalls.
			st := c.filterOne(p, n)
			i, ok := t.id(p, &st)
			if !ok {
				return t.unshared(n)
			}
			id = i
		}
		key |= id << (idBits * p)
	}
	if !c.InPreFilterResult(n.Name) {
		key |= excludedBit
	}
	if t.last >= 0 && key == t.lastKey {
		return &t.rows[t.last]
	}
	k, ok := t.find(key)
	if !ok {
		var each [numFilters]*sched.Status
		for p := range numFilters {
			each[p] = &t.distinct[p][(key>>(idBits*p))&maxIDs]
		}
		k = int32(len(t.rows))
		t.rows = append(t.rows, t.newRow(&each, key&excludedBit != 0))
		t.keys = append(t.keys, key)
		if t.byKey != nil {
			t.byKey[key] = k
		} else if len(t.keys) > linearRows {
			t.byKey = make(map[uint64]int32, 2*len(t.keys))
			for i, x := range t.keys {
				t.byKey[x] = int32(i)
			}
		}
	}
	t.lastKey, t.last = key, k
	return &t.rows[k]
}

// linearRows is how many rows are searched linearly before a map is built.
const linearRows = 16

// find returns the index of key's row.
func (t *verdictTable) find(key uint64) (int32, bool) {
	if t.byKey != nil {
		k, ok := t.byKey[key]
		return k, ok
	}
	for i, x := range t.keys {
		if x == key {
			return int32(i), true
		}
	}
	return 0, false
}

// unshared builds a row for one node from FilterEach, for a pod whose
// statuses overflowed the table.
func (t *verdictTable) unshared(n *cluster.NodeInfo) *verdictRow {
	all := t.c.filterEach(n)
	var each [numFilters]*sched.Status
	for p := range all {
		each[p] = &all[p]
	}
	r := t.newRow(&each, !t.c.InPreFilterResult(n.Name))
	return &r
}

// newRow is the report part shared by the nodes whose plugins gave each:
// the Filters list of the profile's plugins and the recorded status (the
// first failing plugin in profile order, or the absent-node status).
func (t *verdictTable) newRow(each *[numFilters]*sched.Status, excluded bool) verdictRow {
	c := t.c
	r := verdictRow{filters: make([]framework.Status, 0, numFilters), excluded: excluded}
	for _, p := range c.order {
		if !c.includesFilter(p) {
			continue
		}
		st := each[p]
		r.filters = append(r.filters, toPluginStatus(*st))
		if r.first.Code.Passes() && !st.Code.Passes() {
			r.first = *st
			if c.noState[p] {
				r.first = noStateRun[p]
			}
		}
	}
	if excluded {
		r.first = c.absent
	}
	r.status = toPluginStatus(r.first)
	return r
}
