package diff

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/engine"
)

// The secret values of these objects must never reach any output.
const (
	secretOld = `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: prod
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","kind":"Secret","data":{"password":"T0xELVBBU1NXT1JE"}}'
    kudorender.dev/resource-version: sha256:digest-of-old-values
data:
  password: T0xELVBBU1NXT1JE
  removed-key: R09ORS1TT09O
  same: U0FNRS1WQUxVRQ==
stringData:
  token: old-token-value
`
	secretNew = `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: prod
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","kind":"Secret","data":{"password":"TkVXLVBBU1NXT1JE"}}'
    kudorender.dev/resource-version: sha256:digest-of-new-values
data:
  password: TkVXLVBBU1NXT1JE
  added-key: QURERUQtVkFMVUU=
  same: U0FNRS1WQUxVRQ==
stringData:
  token: |
    new-token-line-1
    new-token-line-2
`
	copyOld = `apiVersion: v1
kind: ConfigMap
metadata:
  name: copy
  annotations:
    example.com/snapshot: '{"apiVersion":"v1","kind":"Secret","stringData":{"k":"copied-old-secret"}}'
`
	copyNew = `apiVersion: v1
kind: ConfigMap
metadata:
  name: copy
  annotations:
    example.com/snapshot: '{"apiVersion":"v1","kind":"Secret","stringData":{"k":"copied-new-secret"}}'
`
	addedSecret = "apiVersion: v1\nkind: Secret\nmetadata: {name: fresh}\nstringData: {key: brand-new-secret}\n"
	goneSecret  = "apiVersion: v1\nkind: Secret\nmetadata: {name: gone}\ndata: {key: R09ORS1TRUNSRVQ=}\n"
)

var secretValues = []string{
	"T0xELVBBU1NXT1JE", "TkVXLVBBU1NXT1JE", "R09ORS1TT09O", "QURERUQtVkFMVUU=", "U0FNRS1WQUxVRQ==",
	"old-token-value", "new-token-line", "copied-old-secret", "copied-new-secret", "brand-new-secret",
	"R09ORS1TRUNSRVQ=", "digest-of-old-values", "digest-of-new-values",
}

// outputs are the report in every format.
func outputs(t *testing.T, r *Report) map[string]string {
	t.Helper()
	var text, color bytes.Buffer
	if err := r.Text(&text, false); err != nil {
		t.Fatal(err)
	}
	if err := r.Text(&color, true); err != nil {
		t.Fatal(err)
	}
	js, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"text": text.String(), "color": color.String(), "markdown": r.Markdown("", 0), "json": string(js)}
}

func secretRenders(t *testing.T) (from, to []engine.Item) {
	from = []engine.Item{item(t, secretOld, 0, false), item(t, copyOld, 0, false), item(t, goneSecret, 0, false)}
	to = []engine.Item{item(t, secretNew, 0, false), item(t, copyNew, 0, false), item(t, addedSecret, 0, false)}
	return from, to
}

// TestSecretsNeverPrinted: no value of a Secret, of an annotation copying
// an object, or a digest of a Secret's values reaches any format, with
// bookkeeping shown or not; the changed keys are still named.
func TestSecretsNeverPrinted(t *testing.T) {
	for _, opts := range []Options{{}, {ShowBookkeeping: true}} {
		from, to := secretRenders(t)
		r, err := Compare(from, to, opts)
		if err != nil {
			t.Fatal(err)
		}
		if c := r.Counts(); c.Changed != 2 || c.Added != 1 || c.Removed != 1 {
			t.Errorf("counts %+v: changed Secrets must still count as changed", c)
		}
		for format, out := range outputs(t, r) {
			for _, v := range secretValues {
				if strings.Contains(out, v) {
					t.Errorf("%s output (bookkeeping %t) shows the secret %q:\n%s", format, opts.ShowBookkeeping, v, out)
				}
			}
			for _, key := range []string{"data.password", "data.added-key", "data.removed-key", "stringData.token"} {
				if !strings.Contains(out, key) {
					t.Errorf("%s output does not name the changed key %s", format, key)
				}
			}
			if strings.Contains(out, "data.same") {
				t.Errorf("%s output names an unchanged key", format)
			}
		}
	}
}

// TestSecretsShown: --show-secrets prints them.
func TestSecretsShown(t *testing.T) {
	from, to := secretRenders(t)
	r, err := Compare(from, to, Options{ShowSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	out := outputs(t, r)["text"]
	for _, v := range []string{"TkVXLVBBU1NXT1JE", "copied-new-secret", "brand-new-secret"} {
		if !strings.Contains(out, v) {
			t.Errorf("--show-secrets: %q missing from\n%s", v, out)
		}
	}
}

// TestMaskedSecretChangeIsDecidedOnRawValues: a Secret whose only change
// is a value is changed, although both masked values look the same.
func TestMaskedSecretChangeIsDecidedOnRawValues(t *testing.T) {
	a := "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {k: QUFB}\n"
	b := "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {k: QkJC}\n"
	r, err := Compare([]engine.Item{item(t, a, 0, false)}, []engine.Item{item(t, b, 0, false)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.HasChanges() || len(r.Objects) != 1 || !r.Objects[0].Fields[0].Masked {
		t.Fatalf("want one changed, masked field: %+v", r.Objects)
	}
}

// TestDependenciesHashNeverPrinted: a pod template's
// kudo.dev/dependencies-hash is KUDO's unsalted MD5 of the Secrets the
// pods mount (a short password can be found back from it): no format
// prints it, and the change is still reported.
func TestDependenciesHashNeverPrinted(t *testing.T) {
	dep := func(hash string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    metadata:\n      annotations: {kudo.dev/dependencies-hash: " + hash + "}\n"
	}
	const oldHash, newHash = "5f4dcc3b5aa765d61d8327deb882cf99", "0d107d09f5bbe40cade3de5c71e9e9b7"
	r, err := Compare([]engine.Item{item(t, dep(oldHash), 0, false)}, []engine.Item{item(t, dep(newHash), 0, false)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Counts(); c.Changed != 1 {
		t.Errorf("counts %+v: a changed hash is a change (pods roll)", c)
	}
	for format, out := range outputs(t, r) {
		if strings.Contains(out, oldHash) || strings.Contains(out, newHash) {
			t.Errorf("%s output shows the dependencies hash:\n%s", format, out)
		}
		if !strings.Contains(out, "kudo.dev/dependencies-hash") {
			t.Errorf("%s output does not name the changed annotation:\n%s", format, out)
		}
	}
}

// TestDerivedSecretsNeverPrinted: values that reach other objects out of
// a Secret are masked in every format however they got there: a map
// copied whole ({.stringData}), base64 and JSON transforms, a chain of
// ConfigMaps (the values refs reports, Options.SecretValues), a
// template's base64 or digest of a Secret's value (found without any
// reference), and in an object's name. The changes are still reported.
func TestDerivedSecretsNeverPrinted(t *testing.T) {
	const pw, user = "hunter2hunter2", "orders"
	sum := sha256.Sum256([]byte("old-" + pw))
	secret := func(v string) string {
		return "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: " + v + ", username: " + user + "}\n"
	}
	cm := func(name, v string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + "}\ndata: " + v + "\n"
	}
	oldJSON := `{"password":"old-` + pw + `","username":"orders"}`
	from := []engine.Item{
		item(t, secret("old-"+pw), 0, false),
		item(t, cm("whole", "{password: old-"+pw+", username: orders}"), 0, false),
		item(t, cm("json", "{j: '"+oldJSON+"'}"), 0, false),
		item(t, cm("b64", "{b: "+base64.StdEncoding.EncodeToString([]byte("old-"+pw))+"}"), 0, false),
		item(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, annotations: {checksum/secret: "+hex.EncodeToString(sum[:])+"}}\n", 0, false),
	}
	to := []engine.Item{
		item(t, secret("new-"+pw), 0, false),
		item(t, cm("whole", "{password: new-"+pw+", username: orders}"), 0, false),
		item(t, cm("json", "{j: '"+strings.ReplaceAll(oldJSON, "old-", "new-")+"'}"), 0, false),
		item(t, cm("b64", "{b: "+base64.StdEncoding.EncodeToString([]byte("new-"+pw))+"}"), 0, false),
		item(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n", 0, false),
		item(t, cm("new-"+pw+"-named", "{}"), 0, false),
	}
	copied := []any{
		map[string]any{"password": "old-" + pw, "username": user}, map[string]any{"password": "new-" + pw, "username": user},
		oldJSON, strings.ReplaceAll(oldJSON, "old-", "new-"), "new-" + pw,
	}
	r, err := Compare(from, to, Options{SecretValues: copied})
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Counts(); c.Changed != 5 || c.Added != 1 {
		t.Errorf("counts %+v: every change must still count", c)
	}
	for format, out := range outputs(t, r) {
		for _, v := range []string{pw, base64.StdEncoding.EncodeToString([]byte("new-" + pw))[:12], hex.EncodeToString(sum[:])} {
			if strings.Contains(out, v) {
				t.Errorf("%s output shows %q:\n%s", format, v, out)
			}
		}
		for _, path := range []string{"data.password", "data.j", "data.b", "checksum/secret"} {
			if !strings.Contains(out, path) {
				t.Errorf("%s output does not name the changed field %s", format, path)
			}
		}
	}
}

// TestDigestsOfSecretsNeverPrinted: the digests kudo-render writes over
// secret data are masked with --show-bookkeeping too (a Secret's and a
// holder's resource version and processed-by marker, which ends with
// it), and so is the dependencies hash of an added workload.
func TestDigestsOfSecretsNeverPrinted(t *testing.T) {
	holder := func(v, rv string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, annotations: {kudorender.dev/resource-version: " + rv +
			", kudorender.dev/processed-by: marker-" + rv + "}}\ndata: {pw: " + v + "}\n"
	}
	s := "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {pw: copied-secret-1}\n"
	added := "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cron}\nspec:\n  jobTemplate:\n    spec:\n      template:\n        metadata:\n          annotations: {kudo.dev/dependencies-hash: 0d107d09f5bbe40cade3de5c71e9e9b7}\n"
	from := []engine.Item{item(t, s, 0, false), item(t, holder("copied-secret-1", "sha256:aaaa1111"), 0, false)}
	to := []engine.Item{item(t, s, 0, false), item(t, holder("copied-secret-2", "sha256:bbbb2222"), 0, false), item(t, added, 0, false)}
	r, err := Compare(from, to, Options{ShowBookkeeping: true, SecretValues: []any{"copied-secret-1", "copied-secret-2"}})
	if err != nil {
		t.Fatal(err)
	}
	for format, out := range outputs(t, r) {
		for _, v := range []string{"aaaa1111", "bbbb2222", "0d107d09f5bbe40cade3de5c71e9e9b7", "copied-secret"} {
			if strings.Contains(out, v) {
				t.Errorf("%s output shows the digest %q:\n%s", format, v, out)
			}
		}
	}
}
