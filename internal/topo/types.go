package topo

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/internal/cluster"
	"github.com/schedkit/schedkit/internal/sched"
)

// Short names for the internal types the plugins read. The public topology
// package presents them as placement.Snapshot, placement.NodeInfo,
// placement.PodInfo, placement.SnapshotInput and framework.Status.
type (
	// Snapshot is the indexed cluster (placement.NewSnapshot builds one).
	Snapshot = cluster.Snapshot
	// SnapshotInput is what a Snapshot is built from.
	SnapshotInput = cluster.Input
	// NodeInfo is one node of a Snapshot with its bound pods.
	NodeInfo = cluster.NodeInfo
	// PodInfo is a pod compiled for the snapshot (placement.NewPodInfo).
	PodInfo = cluster.PodInfo
	// Status is a plugin's verdict with upstream's reason texts.
	Status = sched.Status
	// Code is a verdict's code (Success, Unschedulable, ...).
	Code = sched.Code
)

// NewPodInfo compiles a pod for NewSpread and NewInterPodAffinity: its
// requests, host ports and affinity terms, as the scheduler cache's PodInfo
// holds them. It returns an error (a field.ErrorList aggregate with paths)
// for an unparsable affinity term. The pod is not modified and is kept by
// reference: do not modify it while the PodInfo is in use.
func NewPodInfo(pod *corev1.Pod) (*PodInfo, error) { return cluster.NewPodInfo(pod) }
