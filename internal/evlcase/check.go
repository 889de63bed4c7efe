package evlcase

import "testing"

// Check answers every case of files whose kind is one of kinds, in a subtest
// per file, and reports each disagreement with upstream (Compare on the
// normalized answer) as an error naming the case. A file without such a case,
// an unreadable file or an answer that fails is fatal, so the check cannot
// pass vacuously.
func Check(t *testing.T, files []string, kinds []string, answer func(c Case) (any, error)) {
	t.Helper()
	want := map[string]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			cases, err := Load(file)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, c := range cases {
				if !want[c.Kind] {
					continue
				}
				n++
				got, err := answer(c)
				if err != nil {
					t.Fatalf("%s: %v", c.Name, err)
				}
				act, err := Normalize(got)
				if err != nil {
					t.Fatalf("%s: %v", c.Name, err)
				}
				if d := Compare(c.Kind, c.Expected, act); d != "" {
					t.Errorf("%s: disagrees with upstream: %s", c.Name, d)
				}
			}
			if n == 0 {
				t.Fatalf("no case of kinds %v in %s", kinds, file)
			}
		})
	}
}
