package schedconfig

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The wire types below mirror k8s.io/kube-scheduler/config/v1 (types.go and
// types_pluginargs.go, v0.36) field for field, so that strict decoding
// refuses exactly what kube-scheduler's refuses. They are unexported: the
// package's output is placement.Options and Profile.

// groupVersion is the API group and version of the configurations Read
// accepts.
var groupVersion = schema.GroupVersion{Group: "kubescheduler.config.k8s.io", Version: "v1"}

type kubeSchedulerConfiguration struct {
	metav1.TypeMeta `json:",inline"`

	Parallelism              *int32           `json:"parallelism,omitempty"`
	LeaderElection           leaderElection   `json:"leaderElection"`
	ClientConnection         clientConnection `json:"clientConnection"`
	debugging                `json:",inline"`
	PercentageOfNodesToScore *int32     `json:"percentageOfNodesToScore,omitempty"`
	PodInitialBackoffSeconds *int64     `json:"podInitialBackoffSeconds,omitempty"`
	PodMaxBackoffSeconds     *int64     `json:"podMaxBackoffSeconds,omitempty"`
	Profiles                 []profile  `json:"profiles,omitempty"`
	Extenders                []extender `json:"extenders,omitempty"`
	DelayCacheUntilActive    bool       `json:"delayCacheUntilActive,omitempty"`
}

// debugging mirrors componentbaseconfigv1alpha1.DebuggingConfiguration.
type debugging struct {
	EnableProfiling           *bool `json:"enableProfiling,omitempty"`
	EnableContentionProfiling *bool `json:"enableContentionProfiling,omitempty"`
}

// leaderElection mirrors componentbaseconfigv1alpha1.LeaderElectionConfiguration.
type leaderElection struct {
	LeaderElect       *bool           `json:"leaderElect"`
	LeaseDuration     metav1.Duration `json:"leaseDuration"`
	RenewDeadline     metav1.Duration `json:"renewDeadline"`
	RetryPeriod       metav1.Duration `json:"retryPeriod"`
	ResourceLock      string          `json:"resourceLock"`
	ResourceName      string          `json:"resourceName"`
	ResourceNamespace string          `json:"resourceNamespace"`
}

// clientConnection mirrors componentbaseconfigv1alpha1.ClientConnectionConfiguration.
type clientConnection struct {
	Kubeconfig         string  `json:"kubeconfig"`
	AcceptContentTypes string  `json:"acceptContentTypes"`
	ContentType        string  `json:"contentType"`
	QPS                float32 `json:"qps"`
	Burst              int32   `json:"burst"`
}

type profile struct {
	SchedulerName            *string        `json:"schedulerName,omitempty"`
	PercentageOfNodesToScore *int32         `json:"percentageOfNodesToScore,omitempty"`
	Plugins                  *plugins       `json:"plugins,omitempty"`
	PluginConfig             []pluginConfig `json:"pluginConfig,omitempty"`
}

type plugins struct {
	PreEnqueue        pluginSet `json:"preEnqueue,omitempty"`
	QueueSort         pluginSet `json:"queueSort,omitempty"`
	PreFilter         pluginSet `json:"preFilter,omitempty"`
	Filter            pluginSet `json:"filter,omitempty"`
	PostFilter        pluginSet `json:"postFilter,omitempty"`
	PreScore          pluginSet `json:"preScore,omitempty"`
	Score             pluginSet `json:"score,omitempty"`
	Reserve           pluginSet `json:"reserve,omitempty"`
	Permit            pluginSet `json:"permit,omitempty"`
	PreBind           pluginSet `json:"preBind,omitempty"`
	Bind              pluginSet `json:"bind,omitempty"`
	PostBind          pluginSet `json:"postBind,omitempty"`
	MultiPoint        pluginSet `json:"multiPoint,omitempty"`
	PlacementGenerate pluginSet `json:"placementGenerate,omitempty"`
	PlacementScore    pluginSet `json:"placementScore,omitempty"`
}

type pluginSet struct {
	Enabled  []plugin `json:"enabled,omitempty"`
	Disabled []plugin `json:"disabled,omitempty"`
}

type plugin struct {
	Name   string `json:"name"`
	Weight *int32 `json:"weight,omitempty"`
}

type pluginConfig struct {
	Name string               `json:"name"`
	Args runtime.RawExtension `json:"args,omitempty"`
}

type extender struct {
	URLPrefix        string             `json:"urlPrefix"`
	FilterVerb       string             `json:"filterVerb,omitempty"`
	PreemptVerb      string             `json:"preemptVerb,omitempty"`
	PrioritizeVerb   string             `json:"prioritizeVerb,omitempty"`
	Weight           int64              `json:"weight,omitempty"`
	BindVerb         string             `json:"bindVerb,omitempty"`
	EnableHTTPS      bool               `json:"enableHTTPS,omitempty"`
	TLSConfig        *extenderTLSConfig `json:"tlsConfig,omitempty"`
	HTTPTimeout      metav1.Duration    `json:"httpTimeout,omitempty"`
	NodeCacheCapable bool               `json:"nodeCacheCapable,omitempty"`
	ManagedResources []struct {
		Name               string `json:"name"`
		IgnoredByScheduler bool   `json:"ignoredByScheduler,omitempty"`
	} `json:"managedResources,omitempty"`
	Ignorable bool `json:"ignorable,omitempty"`
}

type extenderTLSConfig struct {
	Insecure   bool   `json:"insecure,omitempty"`
	ServerName string `json:"serverName,omitempty"`
	CertFile   string `json:"certFile,omitempty"`
	KeyFile    string `json:"keyFile,omitempty"`
	CAFile     string `json:"caFile,omitempty"`
	CertData   []byte `json:"certData,omitempty"`
	KeyData    []byte `json:"keyData,omitempty"`
	CAData     []byte `json:"caData,omitempty"`
}

// Plugin args (types_pluginargs.go).

type defaultPreemptionArgs struct {
	metav1.TypeMeta             `json:",inline"`
	MinCandidateNodesPercentage *int32 `json:"minCandidateNodesPercentage,omitempty"`
	MinCandidateNodesAbsolute   *int32 `json:"minCandidateNodesAbsolute,omitempty"`
}

type interPodAffinityArgs struct {
	metav1.TypeMeta                    `json:",inline"`
	HardPodAffinityWeight              *int32 `json:"hardPodAffinityWeight,omitempty"`
	IgnorePreferredTermsOfExistingPods bool   `json:"ignorePreferredTermsOfExistingPods"`
}

type nodeResourcesFitArgs struct {
	metav1.TypeMeta       `json:",inline"`
	IgnoredResources      []string         `json:"ignoredResources,omitempty"`
	IgnoredResourceGroups []string         `json:"ignoredResourceGroups,omitempty"`
	ScoringStrategy       *scoringStrategy `json:"scoringStrategy,omitempty"`
}

type podTopologySpreadArgs struct {
	metav1.TypeMeta    `json:",inline"`
	DefaultConstraints []corev1.TopologySpreadConstraint `json:"defaultConstraints,omitempty"`
	DefaultingType     string                            `json:"defaultingType,omitempty"`
}

type nodeResourcesBalancedAllocationArgs struct {
	metav1.TypeMeta `json:",inline"`
	Resources       []resourceSpec `json:"resources,omitempty"`
}

type scoringStrategy struct {
	Type                     string                         `json:"type,omitempty"`
	Resources                []resourceSpec                 `json:"resources,omitempty"`
	RequestedToCapacityRatio *requestedToCapacityRatioParam `json:"requestedToCapacityRatio,omitempty"`
}

type requestedToCapacityRatioParam struct {
	Shape []utilizationShapePoint `json:"shape,omitempty"`
}

type utilizationShapePoint struct {
	Utilization int32 `json:"utilization"`
	Score       int32 `json:"score"`
}

type resourceSpec struct {
	Name   string `json:"name"`
	Weight int64  `json:"weight,omitempty"`
}

type nodeAffinityArgs struct {
	metav1.TypeMeta `json:",inline"`
	AddedAffinity   *corev1.NodeAffinity `json:"addedAffinity,omitempty"`
}

type volumeBindingArgs struct {
	metav1.TypeMeta    `json:",inline"`
	BindTimeoutSeconds *int64                  `json:"bindTimeoutSeconds,omitempty"`
	Shape              []utilizationShapePoint `json:"shape,omitempty"`
}

type dynamicResourcesArgs struct {
	metav1.TypeMeta `json:",inline"`
	FilterTimeout   *metav1.Duration `json:"filterTimeout"`
	BindingTimeout  *metav1.Duration `json:"bindingTimeout,omitempty"`
}
