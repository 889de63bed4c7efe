package placement_test

import (
	"fmt"

	"github.com/schedkit/schedkit/placement"
)

// ExampleParseVersion selects the rules of an older release, as
// simulate -kubernetes-version does.
func ExampleParseVersion() {
	for _, s := range []string{"1.35", "v1.34.4", "1.33"} {
		v, err := placement.ParseVersion(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		p := v.Profile()
		fmt.Printf("%s: %d filters, NodeDeclaredFeatures %t, balance improvement %t, image volumes %t\n",
			v, len(p.FilterPlugins), p.Gates.NodeDeclaredFeatures, p.BalancedAllocationScoresImprovement, p.ImageLocalityCountsImageVolumes)
	}
	var zero placement.Options
	fmt.Println("zero Options:", zero.Version, len(zero.Version.Profile().FilterPlugins), "filters")
	// Output:
	// v1.35: 8 filters, NodeDeclaredFeatures false, balance improvement false, image volumes false
	// v1.34: 8 filters, NodeDeclaredFeatures false, balance improvement false, image volumes false
	// placement: unsupported Kubernetes version "1.33": supported versions are 1.36, 1.35 and 1.34
	// zero Options: v1.36 9 filters
}
