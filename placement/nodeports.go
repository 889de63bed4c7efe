package placement

import (
	"github.com/schedkit/schedkit/internal/cluster"
)

// NodePorts (pkg/scheduler/framework/plugins/nodeports, v1.36): the Filter
// rejects a node where a host port the pod wants is in use (Unschedulable:
// evicting the pod holding it may help). Compile reads the wanted ports
// (schedutil.GetHostPorts); filter.go dispatches (localCode).

// reasonPorts is the Filter's reason (nodeports.ErrReason).
var reasonPorts = []string{"node(s) didn't have free ports for the requested pod ports"}

// portsConflict is fitsPorts / HostPortInfo.CheckConflict: a wildcard wanted
// port clashes with the same protocol and port on any IP; a specific IP
// clashes with the wildcard or the same IP.
func (c *Compiled) portsConflict(used []cluster.HostPort) bool {
	for _, want := range c.ports {
		for _, u := range used {
			if u.Port != want.Port || u.Protocol != want.Protocol {
				continue
			}
			if want.IP == "0.0.0.0" || u.IP == "0.0.0.0" || u.IP == want.IP {
				return true
			}
		}
	}
	return false
}
