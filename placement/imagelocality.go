package placement

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// ImageLocality (pkg/scheduler/framework/plugins/imagelocality, v1.36): the
// Score favours nodes that already hold the pod's images, each image's size
// scaled by the share of nodes holding it. score.go runs it.

// imageScore is ImageLocality's Score: the sizes of the pod's images present
// on the node, each scaled by the share of nodes that have it, clamped to
// [23MiB, 1000MiB × containers] and mapped linearly onto [0, 100].
// imageSpread[i] is the fraction of the snapshot's nodes that hold image i,
// for every node's score.
func (c *Compiled) imageScore(n *cluster.NodeInfo, imageSpread []float64) int64 {
	var sum int64
	if len(n.ImageStates) > 0 && len(imageSpread) > 0 {
		for i, img := range c.images {
			if st, ok := n.ImageStates[img]; ok {
				sum += int64(float64(st.Size) * imageSpread[i])
			}
		}
	}
	return c.imageScoreOfSum(sum)
}

// imageScoreOfSum is imageScore for a node whose scaled image sizes add up
// to sum.
func (c *Compiled) imageScoreOfSum(sum int64) int64 {
	maxThreshold := maxContainerThreshold * int64(c.numContainers)
	if sum < minImageThreshold {
		sum = minImageThreshold
	} else if sum > maxThreshold {
		sum = maxThreshold
	}
	if maxThreshold == minImageThreshold {
		return 0
	}
	return sched.Quotient(sched.MaxNodeScore*(sum-minImageThreshold), maxThreshold-minImageThreshold)
}

// imageSpreads returns, for each of the pod's images, the fraction of the
// snapshot's nodes that hold it: ImageLocality's scaledImageScore spread,
// the same for every node. The count is the snapshot's (a snapshot's own
// NodeInfos leave NumNodes 0; see cluster.ImageNodesOf). Nil when the
// snapshot has no node.
func (c *Compiled) imageSpreads(totalNodes int) []float64 {
	if totalNodes == 0 {
		return nil
	}
	out := make([]float64, len(c.images))
	for i, img := range c.images {
		out[i] = float64(cluster.ImageNodesOf(c.snap, img)) / float64(totalNodes)
	}
	return out
}

// imageScores are imageScore's answers on every node slot of a snapshot,
// for one set of images: nodes[i] is the Node slot i held (a slot whose
// node is another object is scored afresh), raw[i] its score.
type imageScores struct {
	nodes []*corev1.Node
	raw   []int64
}

// imageScoresOf returns the pod's images' scores on every node slot, kept
// per set of images (and containers, and node count) among the snapshots
// sharing c's image counts (cluster.ImageMemo): replicas and pods of other
// workloads that run the same images score a node with one load. Nil when
// the pod has no image or the memo is full.
func (c *Compiled) imageScoresOf(imageSpread []float64) *imageScores {
	if len(c.images) == 0 || imageSpread == nil {
		return nil
	}
	slots := cluster.SlotsOf(c.snap)
	numNodes := strconv.Itoa(len(cluster.NodesOf(c.snap)))
	v := cluster.ImageMemo(c.snap, numNodes+c.imageKey, func() any {
		// Each image's sizes come from its column (a few images make
		// the many sets the pods ask for); a slot the column has for
		// another node object is read from the node.
		cols := make([]*imageColumn, len(c.images))
		for j, img := range c.images {
			cols[j] = imageColumnOf(c.snap, slots, numNodes, img)
		}
		s := &imageScores{nodes: make([]*corev1.Node, len(slots)), raw: make([]int64, len(slots))}
		for i, n := range slots {
			if n == nil {
				continue
			}
			var sum int64
			if len(n.ImageStates) > 0 {
				for j, col := range cols {
					if col != nil && i < len(col.nodes) && col.nodes[i] == n.Node {
						if col.has[i] {
							sum += int64(float64(col.size[i]) * imageSpread[j])
						}
					} else if st, ok := n.ImageStates[c.images[j]]; ok {
						sum += int64(float64(st.Size) * imageSpread[j])
					}
				}
			}
			s.nodes[i], s.raw[i] = n.Node, c.imageScoreOfSum(sum)
		}
		return s
	})
	if v == nil {
		return nil
	}
	return v.(*imageScores)
}

// imageColumn is one image's size on every node slot of a snapshot:
// nodes[i] is the Node slot i held, has[i] whether it lists the image,
// size[i] the size it lists.
type imageColumn struct {
	nodes []*corev1.Node
	has   []bool
	size  []int64
}

// imageColumnOf returns image img's column over slots, kept among the
// snapshots sharing snap's image counts as imageScoresOf's sets are, or nil
// when the memo is full.
func imageColumnOf(snap *cluster.Snapshot, slots []*cluster.NodeInfo, numNodes, img string) *imageColumn {
	v := cluster.ImageMemo(snap, "image "+numNodes+" "+img, func() any {
		col := &imageColumn{nodes: make([]*corev1.Node, len(slots)), has: make([]bool, len(slots)), size: make([]int64, len(slots))}
		for i, n := range slots {
			if n != nil {
				st, ok := n.ImageStates[img]
				col.nodes[i], col.has[i], col.size[i] = n.Node, ok, st.Size
			}
		}
		return col
	})
	if v == nil {
		return nil
	}
	return v.(*imageColumn)
}

// imageKeyOf names a pod's images and containers for imageScoresOf, each
// image length-prefixed so that no two lists spell one key.
func imageKeyOf(images []string, numContainers int) string {
	key := "/" + strconv.Itoa(numContainers)
	for _, img := range images {
		key += "/" + strconv.Itoa(len(img)) + ":" + img
	}
	return key
}

// normalizedImageName is imagelocality's normalizedImageName: a reference
// without a tag gets ":latest".
func normalizedImageName(name string) string {
	if strings.LastIndex(name, ":") <= strings.LastIndex(name, "/") {
		name += ":latest"
	}
	return name
}
