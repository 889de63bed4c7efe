package schedconfig_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedkit/schedkit/placement/schedconfig"
)

// FuzzRead: Read never panics; it either fails with one of its sentinel
// errors or returns a profile whose options placement accepts.
func FuzzRead(f *testing.F) {
	for _, dir := range []string{"../../testdata/conformance/configs", "../../testdata/conformance/profiles"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(header))
	f.Add([]byte(`{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration","profiles":[{"plugins":{"score":{"enabled":[{"name":"ImageLocality","weight":3}]}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := schedconfig.Read(data)
		if err != nil {
			if !errors.Is(err, schedconfig.ErrDecode) && !errors.Is(err, schedconfig.ErrInvalid) && !errors.Is(err, schedconfig.ErrUnsupported) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		if p.SchedulerName == "" {
			t.Fatal("a profile without a name")
		}
		if err := p.Options.Check(); err != nil {
			t.Fatalf("options placement refuses: %v", err)
		}
	})
}
