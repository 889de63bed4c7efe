// Package par runs a call's independent tasks on the calling goroutine and
// on helper goroutines that stay awake for a moment between calls.
//
// The scheduling queue is a chain of short fork-joins: every pod's
// PreFilter, filter pass and score pass take 20-100 us on 1000 nodes, and
// the next pod cannot start before the previous one is bound. A goroutine
// started per fork costs a wake-up of an idle core, which on small VMs
// (100 us and more) exceeds the work it would take over; so a fork-join
// there only pays if a helper is already running. Run therefore hands out
// a call's tasks from an atomic range that the caller draws from too (from
// the front; helpers from the back, so that a series of calls over the same
// range gives each core the same part): a helper that is spinning (it keeps
// looking for work for spinFor after its last task) picks its share within
// a microsecond; a parked one is woken but never waited for, since the
// caller claims whatever nobody has claimed yet. A call is never slower than
// running its tasks in order by more than the claiming, and the results
// cannot depend on who ran which task because tasks must not share the
// memory they write.
package par
