// Package sched holds the vocabulary shared by every scheduling package: the
// plugin status codes, the Status value and the plugin names of kube-scheduler's
// default profile. It mirrors k8s.io/kube-scheduler/framework's Code and Status
// as of v1.36, without the error wrapping and logging.
package sched
