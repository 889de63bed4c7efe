package placement

// The verdicts placement returns are framework.Status values (package
// placement/framework), the type topology and preemption return too.

// NumFilters is the number of Filter plugins of the profile, the length of
// Compiled.FilterEach's array ([NumFilters]framework.Status).
const NumFilters = numFilters

// FilterPlugins returns the Filter plugins' names in the order upstream runs
// them, which is the order of Compiled.FilterEach's verdicts. The array is a
// copy.
func FilterPlugins() [NumFilters]string { return filterNames }
