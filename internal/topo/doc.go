// Package topo implements kube-scheduler's two topology plugins,
// PodTopologySpread and InterPodAffinity, over the internal snapshot, for
// placement's pipeline and preemption's dry runs. Package topology presents
// them to callers and documents the model, the skips and the deliberate
// differences from upstream.
package topo
