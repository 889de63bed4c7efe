package safety

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrInvalidEvent is wrapped by every error Apply returns for an event that
// names an unknown node or identity or carries a bad value.
var ErrInvalidEvent = errors.New("safety: invalid event")

// ErrInvalidConfig is wrapped by the errors of New.
var ErrInvalidConfig = errors.New("safety: invalid config")

// ErrNotSettled is wrapped by the error of New or Apply when the controllers
// and kubelets still change the model after a bounded number of rounds
// (64). Every actor moves objects forward only, so this marks a defect of
// the model, never a property of the events: the cluster must be
// discarded.
var ErrNotSettled = errors.New("safety: model did not settle")

// EventKind names what happens to the cluster.
type EventKind string

// The events of the model. Unsafe ones (they can let two instances run) are
// marked; each is a statement by a person or controller that a pod or node
// is gone which nobody has confirmed.
const (
	// Partition cuts a node off the control plane: its kubelet can neither
	// report nor learn about deletions, its containers keep running.
	Partition EventKind = "Partition"
	// Heal reconnects a partitioned node.
	Heal EventKind = "Heal"
	// CrashKubelet stops a node's kubelet; containers keep running and any
	// kill sequence in progress is forgotten.
	CrashKubelet EventKind = "CrashKubelet"
	// RestartKubelet starts it again; kill sequences begin anew.
	RestartKubelet EventKind = "RestartKubelet"
	// GracefulDelete is a DELETE of the identity's pod with
	// GracePeriodSeconds (nil = the pod's terminationGracePeriodSeconds).
	// With grace 0 it is a force deletion (unsafe).
	GracefulDelete EventKind = "GracefulDelete"
	// ForceDelete is a DELETE with grace 0: the object is removed without
	// the kubelet's confirmation (unsafe).
	ForceDelete EventKind = "ForceDelete"
	// DeleteNode removes the Node object; the pod garbage collector then
	// force-deletes its pods. Safe only when the machine is really gone: it
	// is taken as confirmation of a permanent partition (unsafe otherwise).
	DeleteNode EventKind = "DeleteNode"
	// Fence powers the machine off (or cuts it from storage): its containers
	// are dead for sure. Fencing alone deletes nothing.
	Fence EventKind = "Fence"
	// MarkOutOfService adds the node.kubernetes.io/out-of-service taint
	// (non-graceful node shutdown): pods are evicted, the pod garbage
	// collector force-deletes terminating pods of the not-ready node and
	// volumes are detached at once. Safe after Fence, unsafe otherwise.
	MarkOutOfService EventKind = "MarkOutOfService"
	// Advance moves the clock forward by Duration.
	Advance EventKind = "Advance"
)

// Event is one step a user (or a test) drives the model with.
type Event struct {
	// Kind selects the step; the other fields are its arguments.
	Kind EventKind
	// Node for Partition, Heal, CrashKubelet, RestartKubelet, DeleteNode,
	// Fence, MarkOutOfService.
	Node string
	// Identity for GracefulDelete and ForceDelete.
	Identity string
	// GracePeriodSeconds for GracefulDelete (nil = the pod's default).
	GracePeriodSeconds *int64
	// Duration for Advance.
	Duration time.Duration
}

// String renders the event compactly, e.g. "ForceDelete(web-0)".
func (e Event) String() string {
	switch e.Kind {
	case GracefulDelete:
		if e.GracePeriodSeconds != nil {
			return fmt.Sprintf("GracefulDelete(%s, %ds)", e.Identity, *e.GracePeriodSeconds)
		}
		return fmt.Sprintf("GracefulDelete(%s)", e.Identity)
	case ForceDelete:
		return fmt.Sprintf("ForceDelete(%s)", e.Identity)
	case Advance:
		return fmt.Sprintf("Advance(%s)", e.Duration)
	default:
		return fmt.Sprintf("%s(%s)", e.Kind, e.Node)
	}
}

// IsForceDeletion reports whether the event removes a pod object without
// waiting for its kubelet: ForceDelete, or GracefulDelete with grace 0.
func (e Event) IsForceDeletion() bool {
	return e.Kind == ForceDelete || (e.Kind == GracefulDelete && e.GracePeriodSeconds != nil && *e.GracePeriodSeconds == 0)
}

// Convenience constructors.

// PartitionNode returns Partition(node).
func PartitionNode(node string) Event { return Event{Kind: Partition, Node: node} }

// HealNode returns Heal(node).
func HealNode(node string) Event { return Event{Kind: Heal, Node: node} }

// CrashKubeletOn returns CrashKubelet(node).
func CrashKubeletOn(node string) Event { return Event{Kind: CrashKubelet, Node: node} }

// RestartKubeletOn returns RestartKubelet(node).
func RestartKubeletOn(node string) Event { return Event{Kind: RestartKubelet, Node: node} }

// DeletePod returns GracefulDelete(identity) with the pod's grace period.
func DeletePod(identity string) Event { return Event{Kind: GracefulDelete, Identity: identity} }

// DeletePodWithGrace returns GracefulDelete(identity, seconds).
func DeletePodWithGrace(identity string, seconds int64) Event {
	return Event{Kind: GracefulDelete, Identity: identity, GracePeriodSeconds: &seconds}
}

// ForceDeletePod returns ForceDelete(identity).
func ForceDeletePod(identity string) Event { return Event{Kind: ForceDelete, Identity: identity} }

// DeleteNodeObject returns DeleteNode(node).
func DeleteNodeObject(node string) Event { return Event{Kind: DeleteNode, Node: node} }

// FenceNode returns Fence(node).
func FenceNode(node string) Event { return Event{Kind: Fence, Node: node} }

// MarkNodeOutOfService returns MarkOutOfService(node).
func MarkNodeOutOfService(node string) Event { return Event{Kind: MarkOutOfService, Node: node} }

// AdvanceBy returns Advance(d).
func AdvanceBy(d time.Duration) Event { return Event{Kind: Advance, Duration: d} }

// ParseEvent parses the form String writes: "Partition(node-a)",
// "GracefulDelete(web-0)", "GracefulDelete(web-0, 5s)", "ForceDelete(web-0)",
// "Advance(10m)" (a Go duration). It checks the syntax only; Apply checks
// that the node or identity exists. The error wraps ErrInvalidEvent.
func ParseEvent(s string) (Event, error) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") {
		return Event{}, fmt.Errorf("%w: %q is not of the form Kind(argument)", ErrInvalidEvent, s)
	}
	kind := EventKind(s[:open])
	args := strings.Split(s[open+1:len(s)-1], ",")
	for i := range args {
		args[i] = strings.TrimSpace(args[i])
	}
	if args[0] == "" {
		return Event{}, fmt.Errorf("%w: %q has an empty argument", ErrInvalidEvent, s)
	}
	one := func() error {
		if len(args) != 1 {
			return fmt.Errorf("%w: %q takes one argument", ErrInvalidEvent, s)
		}
		return nil
	}
	switch kind {
	case Partition, Heal, CrashKubelet, RestartKubelet, DeleteNode, Fence, MarkOutOfService:
		if err := one(); err != nil {
			return Event{}, err
		}
		return Event{Kind: kind, Node: args[0]}, nil
	case ForceDelete:
		if err := one(); err != nil {
			return Event{}, err
		}
		return Event{Kind: kind, Identity: args[0]}, nil
	case GracefulDelete:
		e := Event{Kind: kind, Identity: args[0]}
		switch len(args) {
		case 1:
			return e, nil
		case 2:
			d, err := time.ParseDuration(args[1])
			if err != nil || d%time.Second != 0 {
				return Event{}, fmt.Errorf("%w: %q: grace period %q is not a whole number of seconds", ErrInvalidEvent, s, args[1])
			}
			g := int64(d / time.Second)
			e.GracePeriodSeconds = &g
			return e, nil
		}
		return Event{}, fmt.Errorf("%w: %q takes one or two arguments", ErrInvalidEvent, s)
	case Advance:
		if err := one(); err != nil {
			return Event{}, err
		}
		d, err := time.ParseDuration(args[0])
		if err != nil || d < 0 {
			return Event{}, fmt.Errorf("%w: %q: %q is not a non-negative duration", ErrInvalidEvent, s, args[0])
		}
		return Event{Kind: kind, Duration: d}, nil
	}
	return Event{}, fmt.Errorf("%w: unknown event kind %q", ErrInvalidEvent, kind)
}

// ParseEvents parses a script of events separated by newlines or
// semicolons; blank lines and lines starting with # are skipped. Errors name
// the 1-based position of the bad event.
func ParseEvents(script string) ([]Event, error) {
	var out []Event
	n := 0
	for _, line := range strings.Split(script, "\n") {
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		for _, part := range strings.Split(line, ";") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			n++
			e, err := ParseEvent(part)
			if err != nil {
				return nil, fmt.Errorf("event %d: %w", n, err)
			}
			out = append(out, e)
		}
	}
	return out, nil
}
