// Package par runs a call's independent tasks on the calling goroutine and
// on helper goroutines, in one of two ways, neither of which leaves anything
// running once it is done.
//
// Run starts its helpers for the one call: they and the caller claim the
// tasks from a shared atomic range (the caller from the front, helpers from
// the back), a helper exits as soon as no task is left to claim, and the
// caller, once it finds none left, waits (blocked, not spinning) for the
// tasks a helper is still running. A helper that starts after the caller
// claimed everything exits at once without running anything. A call is
// never slower than running its tasks in order by more than starting the
// helpers, and no helper outlives the call by more than its exit.
//
// A Group is for a chain of short fork-joins, such as a scheduling queue,
// where every pod's PreFilter, filter pass and score pass take 20-100 us on
// 1000 nodes and the next pod cannot start before the previous one is
// bound: a goroutine started per fork costs a wake-up of an idle core,
// which on small VMs (100 us and more) exceeds the work it would take over.
// A Group's helpers are started by its first Run and stay until Close: they
// keep looking for work for spinFor after their last task (yielding their
// processor every spinChecks looks), then park until a Run wakes them; the caller
// claims whatever nobody has claimed yet, so it never waits for a core to
// wake up. The owner of a Group (a call that creates and closes it, or a
// caller holding placement.Workers) decides how long it lives; Close
// returns once every helper has exited.
//
// A Group also takes background work (Start): tasks its helpers run only
// when no Run has a task left for them, one at a time so that a Run
// published meanwhile waits for at most one, and which nobody waits for
// until the owner asks for them (Wait runs what no helper took; Drop and
// Cancel give up what no helper started). A scheduling queue does the next
// pod's node-local work so, while the calling goroutine runs the current
// pod's topology PreFilters, which RunReserving keeps on it.
//
// In all of them, the results cannot depend on who ran which task because
// tasks must not share the memory they write.
package par
