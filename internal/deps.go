//go:build tools

// Package internal pins the module's allowed dependencies until each is used
// by real code (see DEVELOPERS.md: k8s.io/api, k8s.io/apimachinery,
// golang.org/x/sync, testify, rapid, sigs.k8s.io/yaml).
package internal

import (
	_ "github.com/stretchr/testify/assert"
	_ "golang.org/x/sync/errgroup"
	_ "k8s.io/api/core/v1"
	_ "k8s.io/apimachinery/pkg/labels"
	_ "pgregory.net/rapid"
	_ "sigs.k8s.io/yaml"
)
