package placement

import (
	"strings"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// ImageLocality (pkg/scheduler/framework/plugins/imagelocality, v1.36): the
// Score favours nodes that already hold the pod's images, each image's size
// scaled by the share of nodes holding it. score.go runs it.

// imageScore is ImageLocality's Score: the sizes of the pod's images present
// on the node, each scaled by the share of nodes that have it, clamped to
// [23MiB, 1000MiB × containers] and mapped linearly onto [0, 100].
func (c *Compiled) imageScore(n *cluster.NodeInfo, totalNodes int) int64 {
	var sum int64
	if len(n.ImageStates) > 0 && totalNodes > 0 {
		for _, img := range c.images {
			if st, ok := n.ImageStates[img]; ok {
				// The count is the snapshot's (a snapshot's own NodeInfos
				// leave NumNodes 0; see cluster.ImageNodesOf).
				spread := float64(cluster.ImageNodesOf(c.snap, img)) / float64(totalNodes)
				sum += int64(float64(st.Size) * spread)
			}
		}
	}
	maxThreshold := maxContainerThreshold * int64(c.numContainers)
	if sum < minImageThreshold {
		sum = minImageThreshold
	} else if sum > maxThreshold {
		sum = maxThreshold
	}
	if maxThreshold == minImageThreshold {
		return 0
	}
	return sched.MaxNodeScore * (sum - minImageThreshold) / (maxThreshold - minImageThreshold)
}

// normalizedImageName is imagelocality's normalizedImageName: a reference
// without a tag gets ":latest".
func normalizedImageName(name string) string {
	if strings.LastIndex(name, ":") <= strings.LastIndex(name, "/") {
		name += ":latest"
	}
	return name
}
