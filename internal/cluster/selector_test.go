package cluster

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"pgregory.net/rapid"
)

// labelChars draws strings over the characters that decide label syntax.
var labelChars = rapid.StringOfN(rapid.SampledFrom([]rune("aZ09-_./ A")), 0, 8, -1)

// TestIsExtendedResourceNameProperty: IsExtendedResourceName decides as
// v1helper.IsExtendedResourceName (with validation.IsQualifiedName) on names
// drawn from the characters that matter.
func TestIsExtendedResourceNameProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := labelChars.Draw(t, "domain") + rapid.SampledFrom([]string{"/", "", "kubernetes.io/", "/x/"}).Draw(t, "sep") + labelChars.Draw(t, "name")
		want := strings.Contains(s, "/") && !strings.Contains(s, "kubernetes.io/") && !strings.HasPrefix(s, "requests.") &&
			len(validation.IsQualifiedName("requests."+s)) == 0
		assert.Equal(t, want, IsExtendedResourceName(corev1.ResourceName(s)), "%q", s)
	})
}
