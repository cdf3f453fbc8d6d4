package diff

import (
	"bytes"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

const initJob = `apiVersion: batch/v1
kind: Job
metadata: {name: init, namespace: prod}
spec:
  template:
    spec:
      restartPolicy: OnFailure
      containers:
      - {name: init, image: redis:5, command: [sh, -c, "echo 3"]}
`

const zkSet = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: zk, namespace: prod}
spec:
  serviceName: zk-hs
  replicas: 3
  selector: {matchLabels: {app: zk}}
  template:
    metadata: {labels: {app: zk}}
    spec:
      containers: [{name: zk, image: zookeeper:3}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 5Gi}}}
`

const immutableSecret = `apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: prod}
immutable: true
stringData: {password: s3cr3t-one}
`

// decorated are items of docs, decorated for a target (nil: plain).
func decorated(t *testing.T, decorate func([]engine.Item), hook bool, docs ...string) []engine.Item {
	var out []engine.Item
	for _, d := range docs {
		out = append(out, item(t, d, 0, hook))
	}
	if decorate != nil {
		decorate(out)
	}
	return out
}

func TestUpdateRefused(t *testing.T) {
	cases := []struct {
		reason    string
		decorate  func([]engine.Item)
		recreates func(*object.Object) string
		hook      bool
		from, to  []string
		recreated string // per object, in order: "" refused, "-" no refusal
		refused   int
	}{
		{reason: "Argo CD recreates a Job whose template changed (Force=true, client-side apply)",
			decorate: argocd.Decorate, recreates: argocd.Recreates,
			from: []string{initJob}, to: []string{edit(initJob, "echo 3", "echo 4")},
			recreated: "Argo CD deletes and creates it (sync option Force=true with client-side apply)"},
		{reason: "Flux recreates it (force annotation)",
			decorate: flux.Decorate, recreates: flux.Recreates,
			from: []string{initJob}, to: []string{edit(initJob, "echo 3", "echo 4")},
			recreated: "Flux deletes and creates it (kustomize.toolkit.fluxcd.io/force: enabled)"},
		{reason: "kubectl apply (plain) does not: the update fails",
			from: []string{initJob}, to: []string{edit(initJob, "echo 3", "echo 4")}, refused: 1},
		{reason: "an Argo CD hook is created anew at every sync, never updated",
			decorate: argocd.Decorate, recreates: argocd.Recreates, hook: true,
			from: []string{initJob}, to: []string{edit(initJob, "echo 3", "echo 4")}, recreated: "-"},
		{reason: "nothing recreates a StatefulSet: a larger claim template fails for every target",
			decorate: argocd.Decorate, recreates: argocd.Recreates,
			from: []string{zkSet}, to: []string{edit(zkSet, "storage: 5Gi", "storage: 10Gi")}, refused: 1},
		{reason: "more replicas are an update the server accepts",
			decorate: flux.Decorate, recreates: flux.Recreates,
			from: []string{zkSet}, to: []string{edit(zkSet, "replicas: 3", "replicas: 5")}, recreated: "-"},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			from := decorated(t, c.decorate, c.hook, c.from...)
			to := decorated(t, c.decorate, c.hook, c.to...)
			rep, err := Compare(from, to, Options{Update: validate.New(nil, validate.Options{}).Update, Recreates: c.recreates})
			assert.NilError(t, err)
			assert.Assert(t, is.Len(rep.Objects, 1))
			u := rep.Objects[0].Update
			switch {
			case c.recreated == "-":
				assert.Assert(t, u == nil, "%+v", u)
			default:
				assert.Assert(t, u != nil)
				assert.Equal(t, u.Recreated, c.recreated)
				assert.Equal(t, u.Advice == "", c.recreated != "")
			}
			assert.Equal(t, rep.Counts().Refused, c.refused)
		})
	}
}

func TestUpdateRefusedReport(t *testing.T) {
	from := decorated(t, argocd.Decorate, false, zkSet, immutableSecret)
	to := decorated(t, argocd.Decorate, false, edit(zkSet, "storage: 5Gi", "storage: 10Gi"), edit(immutableSecret, "s3cr3t-one", "s3cr3t-two"))
	rep, err := Compare(from, to, Options{Update: validate.New(nil, validate.Options{}).Update, Recreates: argocd.Recreates})
	assert.NilError(t, err)
	assert.Equal(t, rep.Counts().Summary(), "0 to add, 2 to change, 0 to remove; the API server will refuse 1 update")

	var text bytes.Buffer
	assert.NilError(t, rep.Text(&text, false))
	for _, want := range []string{
		"    the API server will refuse this update: spec.volumeClaimTemplates: Invalid value: field is immutable\n",
		"    to apply it: delete it without its pods (kubectl delete -n prod statefulsets.apps zk --cascade=orphan)",
		"    recreated: the API server refuses to update it in place (data: Forbidden: field is immutable when `immutable` is set); Argo CD deletes and creates it",
	} {
		assert.Assert(t, strings.Contains(text.String(), want), "text report lacks %q:\n%s", want, text.String())
	}
	md := rep.Markdown("", 0)
	assert.Assert(t, strings.Contains(md, "> [!CAUTION]\n> **The API server will refuse 1 update**"), md)
	assert.Assert(t, strings.Contains(md, "<code>StatefulSet.apps prod/zk</code>: spec.volumeClaimTemplates: Invalid value: field is immutable<br>To apply it: delete it without its pods"), md)
	js, err := rep.JSON()
	assert.NilError(t, err)
	assert.Assert(t, strings.Contains(string(js), `"refused": 1`), string(js))
	assert.Assert(t, strings.Contains(string(js), `"recreatedBy": "Argo CD deletes and creates it (sync option Force=true with client-side apply)"`), string(js))
	for _, out := range []string{text.String(), md, string(js)} {
		assert.Assert(t, !strings.Contains(out, "s3cr3t"), "a Secret's value is shown:\n%s", out)
	}
}
