// gen-sdk writes the SDKs of a Pulumi package schema with Pulumi's own code generators, the ones
// the Pulumi CLI of the same version uses (`pulumi package gen-sdk` needs language hosts that
// implement GeneratePackage; the ones built here do not).
//
//	gen-sdk <schema.json> <out dir> <language>...   (languages: nodejs, python, go)
//
// Each language's SDK replaces <out dir>/<language>.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-svc gen-sdk"

// noReferences answers every load with an error: the schema refers to no other package.
type noReferences struct{}

func (noReferences) fail(name string) error {
	return fmt.Errorf("package %s: this schema refers to no other package", name)
}

func (l noReferences) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, l.fail(pkg)
}

func (l noReferences) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, l.fail(d.Name)
}

func (l noReferences) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, l.fail(pkg)
}

func (l noReferences) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, l.fail(d.Name)
}

// bind reads and validates the schema; each generator gets a package of its own (they annotate it).
func bind(path string) (*schema.Package, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noReferences{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		for _, diag := range diags {
			fmt.Fprintf(os.Stderr, "%s: %s: %s\n", path, diag.Summary, diag.Detail)
		}
		return nil, fmt.Errorf("%s: %d problems", path, len(diags))
	}
	return pkg, nil
}

func generate(language string, pkg *schema.Package) (map[string][]byte, error) {
	switch language {
	case "nodejs":
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, noReferences{})
	case "python":
		return python.GeneratePackage(tool, pkg, nil, noReferences{})
	case "go":
		return gogen.GeneratePackage(tool, pkg, nil)
	}
	return nil, fmt.Errorf("unknown language %q (nodejs, python, go)", language)
}

func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func run(args []string) error {
	if len(args) < 3 {
		return fmt.Errorf("usage: gen-sdk <schema.json> <out dir> <language>...")
	}
	for _, language := range args[2:] {
		pkg, err := bind(args[0])
		if err != nil {
			return err
		}
		files, err := generate(language, pkg)
		if err != nil {
			return fmt.Errorf("%s: %w", language, err)
		}
		if err := write(filepath.Join(args[1], language), files); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen-sdk:", err)
		os.Exit(1)
	}
}
