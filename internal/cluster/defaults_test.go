package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestImageTag(t *testing.T) {
	for image, want := range map[string]string{
		"nginx":                      "latest",
		"nginx:1.25":                 "1.25",
		"registry:5000/team/app":     "latest",
		"registry:5000/team/app:v2":  "v2",
		"app@sha256:abc":             "",
		"app:v1@sha256:abc":          "v1",
		"example.com/app:latest":     "latest",
		"localhost:5000/app@sha256:": "",
	} {
		assert.Equal(t, want, imageTag(image), image)
	}
}
