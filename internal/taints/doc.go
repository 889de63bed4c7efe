// Package taints decides whether tolerations tolerate taints, as
// corev1.Toleration.ToleratesTaint does (k8s.io/api v0.36) with the v1.36
// default feature gates: TaintTolerationComparisonOperators is off (alpha),
// so the Lt and Gt operators never match. It is shared by placement
// (TaintToleration and NodeUnschedulable, kubelet admission), topology
// (PodTopologySpread's nodeTaintsPolicy) and eviction (taint-based
// eviction, node pressure). Nothing here modifies its arguments or allocates.
package taints
