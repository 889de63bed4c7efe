package preemption

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// Victim is one pod the preemptor would evict.
type Victim struct {
	Pod      *corev1.Pod // the bound pod, as in the snapshot (not modified)
	Key      string      // namespace/name
	Node     string      // the node it runs on
	Priority int32       // its priority (spec.priority, 0 when unset)
	// StartTime is the start time preemption used for the pod: status.startTime,
	// else Options.Now; zero when neither is known (then the pod counts as
	// started after every pod that has a start time).
	StartTime time.Time
	// BrokenPDBs lists the budgets (namespace/name) that this eviction
	// breaks, counting the evictions of the more important victims first.
	BrokenPDBs []string
}

// Criterion is one step of pickOneNodeForPreemption, in upstream order.
type Criterion int8

const (
	// ChosenNode marks the candidate that won.
	ChosenNode Criterion = iota
	// FewestPDBViolations: fewer victims that break a budget.
	FewestPDBViolations
	// LowestHighestPriority: the most important victim has lower priority.
	LowestHighestPriority
	// SmallestPrioritySum: smaller sum of (priority + 2^31) over the victims.
	SmallestPrioritySum
	// FewestVictims: fewer victims.
	FewestVictims
	// LatestStartTime: the earliest start time among the highest-priority
	// victims is later.
	LatestStartTime
	// LowestNodeName: schedkit's deterministic last tie-break (upstream takes
	// whichever candidate its map iteration reaches first).
	LowestNodeName
)

var criterionNames = [...]string{"Chosen", "FewestPDBViolations", "LowestHighestPriority",
	"SmallestPrioritySum", "FewestVictims", "LatestStartTime", "LowestNodeName"}

// String returns the criterion's name.
func (c Criterion) String() string {
	if int(c) < len(criterionNames) && c >= 0 {
		return criterionNames[c]
	}
	return "Unknown"
}

// MarshalText makes the criterion readable in JSON.
func (c Criterion) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// Candidate is a node where evicting Victims lets the preemptor fit.
type Candidate struct {
	Node string // the candidate node
	// Victims in decreasing importance (priority, then earlier start).
	Victims []Victim
	// NumPDBViolations is how many victims a PodDisruptionBudget does not
	// allow to be disrupted.
	NumPDBViolations int
	// LostAt is the criterion that eliminated this candidate (ChosenNode for
	// the winner); LostReason explains it.
	LostAt Criterion
	// best is the candidate this one was compared with at LostAt: one of
	// the best at that criterion (for LowestNodeName, the winner). Scores
	// are recomputed from the victims when a reason is asked for, so that
	// a candidate (one per node and preemptor in a queue's report) stays
	// small.
	best *Candidate
}

// LostReason explains why the candidate lost, with the values compared
// ("" for the chosen candidate).
func (c *Candidate) LostReason() string {
	if c.best == nil {
		return ""
	}
	m, b := keyOf(c), keyOf(c.best)
	switch c.LostAt {
	case FewestPDBViolations:
		return fmt.Sprintf("%d PDB violation(s), another candidate has %d", m.pdb, b.pdb)
	case LowestHighestPriority:
		return fmt.Sprintf("highest victim priority %d, another candidate's is %d", m.highest, b.highest)
	case SmallestPrioritySum:
		const shift = int64(math.MaxInt32) + 1
		return fmt.Sprintf("victim priorities sum to %d over %d pod(s), another candidate's to %d over %d (compared with 2^31 added per pod)",
			m.sum-m.count*shift, m.count, b.sum-b.count*shift, b.count)
	case FewestVictims:
		return fmt.Sprintf("%d victim(s), another candidate has %d", m.count, b.count)
	case LatestStartTime:
		return fmt.Sprintf("its highest-priority victims started earlier (%s) than another candidate's (%s)",
			fmtNanos(m.latestStart), fmtNanos(b.latestStart))
	case LowestNodeName:
		return fmt.Sprintf("tied on every criterion with %s, which has the lower name", c.best.Node)
	}
	return ""
}

// candidate scores, precomputed once per candidate.
type candidateKey struct {
	pdb         int64
	highest     int64
	sum         int64
	count       int64
	latestStart int64
}

func startNanos(t time.Time) int64 {
	if t.IsZero() {
		return math.MaxInt64 // unknown: upstream uses time.Now(), later than any recorded start
	}
	return t.UnixNano()
}

func keyOf(c *Candidate) candidateKey {
	k := victimsKey(c.Victims)
	k.pdb = int64(c.NumPDBViolations)
	return k
}

// victimsKey is keyOf for a candidate with these victims and no PDB
// violation. A dry run computes it once with its victims (victimSet.key),
// which a queue's memo then shares among its preemptors.
func victimsKey(victims []Victim) candidateKey {
	k := candidateKey{count: int64(len(victims))}
	if len(victims) == 0 {
		return k
	}
	maxPrio := victims[0].Priority
	earliest := startNanos(victims[0].StartTime)
	for _, v := range victims {
		k.sum += int64(v.Priority) + int64(math.MaxInt32) + 1
		s := startNanos(v.StartTime)
		switch {
		case v.Priority == maxPrio:
			if s < earliest {
				earliest = s
			}
		case v.Priority > maxPrio:
			maxPrio, earliest = v.Priority, s
		}
	}
	k.highest = int64(maxPrio)
	k.latestStart = earliest
	return k
}

// pickCandidate applies pickOneNodeForPreemption's criteria (DefaultPreemption,
// v1.36) to candidates sorted by node name, records on each loser the
// criterion that eliminated it, and returns the winner's index (-1 when
// there is none). Each criterion keeps only the best-scoring candidates; the
// first criterion that leaves a single candidate decides; remaining ties go
// to the lowest node name.
func pickCandidate(cands []Candidate) int {
	sc := pickScratches.Get().(*pickScratch)
	defer pickScratches.Put(sc)
	sc.keys = slices.Grow(sc.keys[:0], len(cands))[:len(cands)]
	for i := range cands {
		sc.keys[i] = keyOf(&cands[i])
	}
	return pickKeyed(cands, sc.keys, sc)
}

// pickKeyed is pickCandidate with each candidate's keyOf given in keys,
// and sc's alive array to work in.
func pickKeyed(cands []Candidate, keys []candidateKey, sc *pickScratch) int {
	if len(cands) == 0 {
		return -1
	}
	alive := slices.Grow(sc.alive[:0], len(cands))[:len(cands)]
	sc.alive = alive
	for i := range cands {
		cands[i].LostAt, cands[i].best = ChosenNode, nil
		alive[i] = i
	}
	for c := FewestPDBViolations; c <= LatestStartTime && len(alive) > 1; c++ {
		best, bi := int64(math.MinInt64), -1
		for _, i := range alive {
			if s := keys[i].score(c); s > best {
				best, bi = s, i
			}
		}
		kept := alive[:0]
		for _, i := range alive {
			if keys[i].score(c) == best {
				kept = append(kept, i)
				continue
			}
			cands[i].LostAt, cands[i].best = c, &cands[bi]
		}
		alive = kept
	}
	win := alive[0] // candidates are in node-name order
	for _, i := range alive[1:] {
		cands[i].LostAt, cands[i].best = LowestNodeName, &cands[win]
	}
	return win
}

// pickScratch is pickCandidate's per-call arrays, reused call after call
// (a queue of preemptors picks among hundreds of candidates per pod).
type pickScratch struct {
	keys  []candidateKey
	alive []int
}

var pickScratches = sync.Pool{New: func() any { return new(pickScratch) }}

// score is the candidate's score under one criterion; higher is better.
func (k *candidateKey) score(c Criterion) int64 {
	switch c {
	case FewestPDBViolations:
		return -k.pdb
	case LowestHighestPriority:
		return -k.highest
	case SmallestPrioritySum:
		return -k.sum
	case FewestVictims:
		return -k.count
	case LatestStartTime:
		return k.latestStart
	}
	return 0
}

func fmtNanos(n int64) string {
	if n == math.MaxInt64 {
		return "unknown"
	}
	return time.Unix(0, n).UTC().Format(time.RFC3339)
}
