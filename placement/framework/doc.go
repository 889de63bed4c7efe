// Package framework is the vocabulary of kube-scheduler's scheduling
// framework that every schedkit package speaks: a plugin's verdict (Status,
// with its Code and upstream's reason texts), the names of the default
// profile's plugins and the score range. It mirrors
// k8s.io/kube-scheduler/framework's Code and Status as of v1.36, without
// the error wrapping and logging, and holds nothing else, so that
// placement, topology and preemption return one Status type.
//
// A Status is a value: the zero Status is Success, and a Status a schedkit
// call returns is the caller's (its Reasons slice is not shared with any
// other result).
package framework
