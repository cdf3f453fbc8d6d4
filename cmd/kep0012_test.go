package cmd

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/extend"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

// TestKEP0012Example is KEP-0012's graduation criterion: its example
// extension of the mysql framework renders.
func TestKEP0012Example(t *testing.T) {
	res, err := extend.Load(context.Background(), location.Local{Dir: "../examples/mysql-extension"}, extend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Bundle
	var plans []string
	for _, p := range b.Plans {
		plans = append(plans, p.Name)
	}
	if want := []string{"backup", "clear", "deploy", "load", "resize-pv", "restore"}; !slices.Equal(plans, want) {
		t.Errorf("plans = %v, want the base's plus load, clear, resize-pv: %v", plans, want)
	}
	bf := b.Param("backupFile")
	if bf == nil || bf.Default != "shop-backup.sql" || bf.Description != "The name of the backup file." {
		t.Errorf("backupFile not merged field by field: %+v", bf)
	}
	for _, name := range []string{"data-location", "backup-pvc-size", "password", "storage"} {
		if b.Param(name) == nil {
			t.Errorf("parameter %s missing", name)
		}
	}

	for _, plan := range []string{"backup", "restore"} {
		out, _, err := run("render", "../examples/mysql-extension/render.yaml", "--plan", plan)
		if err != nil {
			t.Fatalf("%s: %v", plan, err)
		}
		job := objectDoc(out, "name: shop-db-"+plan+"-job")
		if !strings.Contains(job, "name: scratch") || !strings.Contains(job, "storage: 1Gi") {
			t.Errorf("%s job does not carry the pvc-size patch:\n%s", plan, job)
		}
		if !strings.Contains(job, "kudorender.dev/source: shop-mysql@5.7 <- mysql@5.7") {
			t.Errorf("%s job: no provenance of the chain", plan)
		}
	}

	out, _, err := run("render", "../examples/mysql-extension/render.yaml", "--plan", "load")
	if err != nil {
		t.Fatal(err)
	}
	job := objectDoc(out, "name: shop-db-load-job")
	for _, want := range []string{
		"kudorender.dev/template: base/templates/init.yaml", // built from base/init.yaml
		"curl -fsS \"https://s3.aws.com/bucket/data.sql\"",  // plus its patch
		"name: shop-db-credentials",                         // kept from the base template
		"argocd.argoproj.io/hook: Sync",                     // the cleanup step deletes it
	} {
		if !strings.Contains(job, want) {
			t.Errorf("load-data job lacks %q:\n%s", want, job)
		}
	}
	if _, _, err := run("render", "../examples/mysql-extension/render.yaml", "--plan", "resize-pv"); err != nil {
		t.Errorf("resize-pv: %v", err)
	}
}

// objectDoc returns the document of a YAML stream that contains marker.
func objectDoc(stream, marker string) string {
	for _, doc := range strings.Split(stream, "\n---\n") {
		if strings.Contains(doc, marker) {
			return doc
		}
	}
	return ""
}
