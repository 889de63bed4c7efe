package schedconfig

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
)

// runtime.Object for the wire types, so that apimachinery's serializer can
// decode them (it does not copy them: a shallow copy is enough).
func (c *kubeSchedulerConfiguration) DeepCopyObject() runtime.Object          { x := *c; return &x }
func (a *defaultPreemptionArgs) DeepCopyObject() runtime.Object               { x := *a; return &x }
func (a *interPodAffinityArgs) DeepCopyObject() runtime.Object                { x := *a; return &x }
func (a *nodeResourcesFitArgs) DeepCopyObject() runtime.Object                { x := *a; return &x }
func (a *podTopologySpreadArgs) DeepCopyObject() runtime.Object               { x := *a; return &x }
func (a *nodeResourcesBalancedAllocationArgs) DeepCopyObject() runtime.Object { x := *a; return &x }
func (a *nodeAffinityArgs) DeepCopyObject() runtime.Object                    { x := *a; return &x }
func (a *volumeBindingArgs) DeepCopyObject() runtime.Object                   { x := *a; return &x }
func (a *dynamicResourcesArgs) DeepCopyObject() runtime.Object                { x := *a; return &x }

// newArgs returns an empty args value for the in-tree plugins that take
// args (the kinds kube-scheduler's v1 scheme registers), or nil.
func newArgs(plugin string) runtime.Object {
	switch plugin {
	case "DefaultPreemption":
		return &defaultPreemptionArgs{}
	case "InterPodAffinity":
		return &interPodAffinityArgs{}
	case "NodeResourcesFit":
		return &nodeResourcesFitArgs{}
	case "PodTopologySpread":
		return &podTopologySpreadArgs{}
	case "NodeResourcesBalancedAllocation":
		return &nodeResourcesBalancedAllocationArgs{}
	case "NodeAffinity":
		return &nodeAffinityArgs{}
	case "VolumeBinding":
		return &volumeBindingArgs{}
	case "DynamicResources":
		return &dynamicResourcesArgs{}
	}
	return nil
}

var argPlugins = []string{"DefaultPreemption", "InterPodAffinity", "NodeResourcesFit", "PodTopologySpread",
	"NodeResourcesBalancedAllocation", "NodeAffinity", "VolumeBinding", "DynamicResources"}

var (
	scheme  = newScheme()
	decoder = json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme, scheme,
		json.SerializerOptions{Yaml: true, Strict: true})
)

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	s.AddKnownTypeWithName(groupVersion.WithKind("KubeSchedulerConfiguration"), &kubeSchedulerConfiguration{})
	for _, p := range argPlugins {
		s.AddKnownTypeWithName(groupVersion.WithKind(p+"Args"), newArgs(p))
	}
	return s
}

// decode reads the configuration strictly, as kube-scheduler's
// cmd/kube-scheduler/app/options loadConfig does with its codec: YAML or
// JSON, apiVersion and kind required, unknown or duplicate fields refused
// (also inside plugin args, decoded as KubeSchedulerConfiguration's
// DecodeNestedObjects does). The args of plugins without a registered args
// kind stay raw.
func decode(data []byte) (*kubeSchedulerConfiguration, map[int]runtime.Object, error) {
	obj, gvk, err := decoder.Decode(data, nil, nil)
	if err != nil && !runtime.IsStrictDecodingError(err) {
		return nil, nil, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	cfg, ok := obj.(*kubeSchedulerConfiguration)
	if !ok {
		return nil, nil, fmt.Errorf("%w: couldn't decode as KubeSchedulerConfiguration, got %s", ErrDecode, gvk)
	}
	var strictErrs []error
	if se, ok := runtime.AsStrictDecodingError(err); ok {
		strictErrs = append(strictErrs, se.Errors()...)
	}
	args := map[int]runtime.Object{}
	for i := range cfg.Profiles {
		for j := range cfg.Profiles[i].PluginConfig {
			pc := &cfg.Profiles[i].PluginConfig[j]
			if newArgs(pc.Name) == nil || pc.Args.Raw == nil {
				continue
			}
			gvk := groupVersion.WithKind(pc.Name + "Args")
			a, parsed, aerr := decoder.Decode(pc.Args.Raw, &gvk, nil)
			if aerr != nil {
				// PluginConfig.decodeNestedObjects and
				// KubeSchedulerConfiguration.DecodeNestedObjects.
				argsErr := fmt.Errorf("decoding args for plugin %s: %w", pc.Name, aerr)
				if a == nil || !runtime.IsStrictDecodingError(aerr) {
					return nil, nil, fmt.Errorf("%w: decoding .profiles[%d].pluginConfig[%d]: %w", ErrDecode, i, j, argsErr)
				}
				strictErrs = append(strictErrs, fmt.Errorf("decoding .profiles[%d].pluginConfig[%d]: %w", i, j,
					runtime.NewStrictDecodingError([]error{argsErr})))
			}
			if parsed == nil || parsed.GroupKind() != gvk.GroupKind() {
				got := ""
				if parsed != nil {
					got = parsed.GroupKind().String()
				}
				return nil, nil, fmt.Errorf("%w: decoding .profiles[%d].pluginConfig[%d]: args for plugin %s were not of type %s, got %s",
					ErrDecode, i, j, pc.Name, gvk.GroupKind(), got)
			}
			args[i<<16|j] = a
		}
	}
	if len(strictErrs) > 0 {
		return nil, nil, fmt.Errorf("%w: %w", ErrDecode, runtime.NewStrictDecodingError(strictErrs))
	}
	return cfg, args, nil
}

// ErrDecode is wrapped by Read's errors for bytes that are not a strictly
// valid kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration.
var ErrDecode = errors.New("schedconfig: cannot decode")
