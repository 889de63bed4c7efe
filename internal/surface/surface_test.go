package surface

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/schedkit/schedkit"

// internalRefs returns "file:line: Name = pkg.Sel" for every exported
// identifier of the file declared as an alias of (or initialised to) an
// identifier of an internal package.
func internalRefs(fset *token.FileSet, f *ast.File) []string {
	internal := map[string]bool{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !strings.HasPrefix(path, module+"/internal/") && !strings.Contains(path, "/internal/") {
			continue
		}
		name := filepath.Base(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		internal[name] = true
	}
	isInternal := func(e ast.Expr) (string, bool) {
		if s, ok := e.(*ast.StarExpr); ok {
			e = s.X
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return "", false
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || !internal[x.Name] {
			return "", false
		}
		return x.Name + "." + sel.Sel.Name, true
	}
	var out []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range g.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() && s.Assign.IsValid() {
					if ref, bad := isInternal(s.Type); bad {
						out = append(out, fset.Position(s.Pos()).String()+": type "+s.Name.Name+" = "+ref)
					}
				}
			case *ast.ValueSpec:
				for i, n := range s.Names {
					if !n.IsExported() || i >= len(s.Values) {
						continue
					}
					if ref, bad := isInternal(s.Values[i]); bad {
						out = append(out, fset.Position(n.Pos()).String()+": "+n.Name+" = "+ref)
					}
				}
			}
		}
	}
	return out
}

// TestNoInternalAliases fails for every exported alias of an internal
// identifier in a public package.
func TestNoInternalAliases(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var found []string
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "internal" || rel == "examples" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		found = append(found, internalRefs(fset, f)...)
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, checked, 50, "the walk found the public packages")
	assert.Empty(t, found, "exported aliases of internal identifiers in public packages")
}

// TestInternalRefsFindsAliases shows the check catching each form it looks
// for, and leaving public aliases and unexported names alone.
func TestInternalRefsFindsAliases(t *testing.T) {
	src := `package p

import (
	"github.com/schedkit/schedkit/internal/cluster"
	sch "github.com/schedkit/schedkit/internal/sched"
	"github.com/schedkit/schedkit/placement"
)

type Snapshot = cluster.Snapshot
type Ptr = *cluster.NodeInfo
type own struct{}
type private = cluster.Snapshot
type Public = placement.Snapshot
type Wrapper struct{ s cluster.Snapshot }

const Success = sch.Success
const Own = 1

var ErrX = cluster.ErrInvalidView
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	got := internalRefs(fset, f)
	for i := range got {
		got[i] = got[i][strings.Index(got[i], ": ")+2:]
	}
	assert.Equal(t, []string{
		"type Snapshot = cluster.Snapshot",
		"type Ptr = cluster.NodeInfo",
		"Success = sch.Success",
		"ErrX = cluster.ErrInvalidView",
	}, got)
}
