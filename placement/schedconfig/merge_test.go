package schedconfig

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMergePluginSet(t *testing.T) {
	def := PluginSet{Enabled: []Plugin{{Name: "A", Weight: 3}, {Name: "B"}, {Name: "C", Weight: 1}}}
	tests := []struct {
		name     string
		defaults PluginSet
		custom   PluginSet
		want     PluginSet
	}{
		{name: "no custom set keeps the defaults", defaults: def, want: PluginSet{Enabled: def.Enabled}},
		{name: "disabled plugins are removed and recorded",
			defaults: def, custom: PluginSet{Disabled: []Plugin{{Name: "B"}}},
			want: PluginSet{Enabled: []Plugin{{Name: "A", Weight: 3}, {Name: "C", Weight: 1}}, Disabled: []Plugin{{Name: "B"}}}},
		{name: "star removes every default plugin",
			defaults: def, custom: PluginSet{Disabled: []Plugin{{Name: "*"}}, Enabled: []Plugin{{Name: "C"}, {Name: "X"}}},
			want: PluginSet{Enabled: []Plugin{{Name: "C"}, {Name: "X"}}, Disabled: []Plugin{{Name: "*"}}}},
		{name: "a re-enabled default plugin replaces it in place, weight included",
			defaults: def, custom: PluginSet{Enabled: []Plugin{{Name: "X"}, {Name: "C", Weight: 9}, {Name: "A"}}},
			want: PluginSet{Enabled: []Plugin{{Name: "A"}, {Name: "B"}, {Name: "C", Weight: 9}, {Name: "X"}}}},
		{name: "a disabled and re-enabled plugin moves to the end",
			defaults: def, custom: PluginSet{Disabled: []Plugin{{Name: "A"}}, Enabled: []Plugin{{Name: "A", Weight: 5}}},
			want: PluginSet{Enabled: []Plugin{{Name: "B"}, {Name: "C", Weight: 1}, {Name: "A", Weight: 5}}, Disabled: []Plugin{{Name: "A"}}}},
		{name: "duplicates are kept for the framework to refuse",
			defaults: def, custom: PluginSet{Enabled: []Plugin{{Name: "X"}, {Name: "X"}}},
			want: PluginSet{Enabled: []Plugin{{Name: "A", Weight: 3}, {Name: "B"}, {Name: "C", Weight: 1}, {Name: "X"}, {Name: "X"}}}},
		{name: "a duplicated default plugin: the last entry replaces it, the first is appended",
			defaults: def, custom: PluginSet{Enabled: []Plugin{{Name: "B", Weight: 1}, {Name: "B", Weight: 2}}},
			want: PluginSet{Enabled: []Plugin{{Name: "A", Weight: 3}, {Name: "B", Weight: 2}, {Name: "C", Weight: 1}, {Name: "B", Weight: 1}}}},
		{name: "the default set's disabled plugins are kept after the custom ones",
			defaults: PluginSet{Enabled: []Plugin{{Name: "A"}, {Name: "B"}}, Disabled: []Plugin{{Name: "B"}}},
			custom:   PluginSet{Disabled: []Plugin{{Name: "Z"}}},
			want:     PluginSet{Enabled: []Plugin{{Name: "A"}}, Disabled: []Plugin{{Name: "Z"}, {Name: "B"}}}},
		{name: "empty default set: the custom plugins in order",
			custom: PluginSet{Enabled: []Plugin{{Name: "P", Weight: 5}, {Name: "Q"}}},
			want:   PluginSet{Enabled: []Plugin{{Name: "P", Weight: 5}, {Name: "Q"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, MergePluginSet(tc.defaults, tc.custom))
		})
	}
}
