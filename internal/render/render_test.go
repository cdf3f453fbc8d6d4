package render_test

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/render"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
)

func toMap(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// canon makes a map comparable whatever number types produced it.
func canon(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	data, err := yaml.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return toMap(t, string(data))
}

type rendered struct {
	Template string
	Hook     bool
	Obj      map[string]any
}

func views(t *testing.T, rs []render.Rendered) []rendered {
	var out []rendered
	for _, r := range rs {
		out = append(out, rendered{Template: r.Template, Hook: r.Hook, Obj: canon(t, r.Obj.Map)})
	}
	return out
}

const deploymentTmpl = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Name }}
spec:
  replicas: {{ .Params.REPLICAS }}
  template:
    spec:
      containers:
        - name: app
          image: nginx:{{ .AppVersion }}
`

const serviceTmpl = `apiVersion: v1
kind: Service
metadata:
  name: {{ .Name }}
spec:
  ports: [{port: 80}]
`

func patchBundle(extra map[string]string) *bundle.Bundle {
	b := &bundle.Bundle{
		Name: "web", Version: "1.0.0", AppVersion: "1.25", Format: bundle.FormatFramework,
		Templates: map[string][]byte{
			"deployment.yaml": []byte(deploymentTmpl),
			"service.yaml":    []byte(serviceTmpl),
		},
	}
	for k, v := range extra {
		b.Templates[k] = []byte(v)
	}
	return b
}

func TestTask(t *testing.T) {
	values := params.Values{"REPLICAS": "3"}
	inst := render.Instance{Name: "shop", Namespace: "prod"}
	step := render.Step{Plan: "deploy", Phase: "deploy", Step: "app", Task: "app"}
	type want struct {
		objs  []rendered
		patch string // PatchError.Patch
		msg   string // part of the error
	}
	cases := map[string]struct {
		reason string
		b      *bundle.Bundle
		task   *bundle.Task
		want   want
	}{
		"NoPatches": {
			reason: "Resources render with KUDO's variables, in order, each remembering its template.",
			b:      patchBundle(nil),
			task:   &bundle.Task{Name: "app", Resources: []string{"service.yaml", "deployment.yaml"}},
			want: want{objs: []rendered{
				{Template: "templates/service.yaml", Obj: toMap(t, "apiVersion: v1\nkind: Service\nmetadata: {name: shop}\nspec: {ports: [{port: 80}]}\n")},
				{Template: "templates/deployment.yaml", Obj: toMap(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: shop}\nspec: {replicas: 3, template: {spec: {containers: [{name: app, image: 'nginx:1.25'}]}}}\n")},
			}},
		},
		"StrategicMerge": {
			reason: "A strategic merge patch (a template too) merges containers by name; objects keep their templates.",
			b: patchBundle(map[string]string{"smp.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Name }}
spec:
  template:
    spec:
      priorityClassName: {{ .OperatorName }}-high
      containers:
        - name: app
          readinessProbe: {httpGet: {path: /, port: 80}}
`}),
			task: &bundle.Task{Name: "app", Resources: []string{"service.yaml", "deployment.yaml"}, PatchesStrategicMerge: []string{"smp.yaml"}},
			want: want{objs: []rendered{
				{Template: "templates/service.yaml", Obj: toMap(t, "apiVersion: v1\nkind: Service\nmetadata: {name: shop}\nspec: {ports: [{port: 80}]}\n")},
				{Template: "templates/deployment.yaml", Obj: toMap(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: shop}
spec:
  replicas: 3
  template:
    spec:
      priorityClassName: web-high
      containers:
        - name: app
          image: nginx:1.25
          readinessProbe: {httpGet: {path: /, port: 80}}
`)},
			}},
		},
		"JSON6902WithTemplatedTarget": {
			reason: "A JSON 6902 patch with a target whose name is a template applies to that object only.",
			b:      patchBundle(map[string]string{"json.yaml": "- op: replace\n  path: /spec/replicas\n  value: 5\n"}),
			task: &bundle.Task{Name: "app", Resources: []string{"deployment.yaml"}, Patches: []bundle.Patch{
				{Path: "json.yaml", Target: &bundle.PatchTarget{Kind: "Deployment", Name: "{{ .Name }}"}},
			}},
			want: want{objs: []rendered{
				{Template: "templates/deployment.yaml", Obj: toMap(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: shop}\nspec: {replicas: 5, template: {spec: {containers: [{name: app, image: 'nginx:1.25'}]}}}\n")},
			}},
		},
		"PatchesInOrder": {
			reason: "patches apply before patchesStrategicMerge, each in order, so the last one wins.",
			b: patchBundle(map[string]string{
				"one.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: shop}\nspec: {replicas: 1}\n",
				"two.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: shop}\nspec: {replicas: 2}\n",
			}),
			task: &bundle.Task{Name: "app", Resources: []string{"deployment.yaml"}, PatchesStrategicMerge: []string{"one.yaml"}, Patches: []bundle.Patch{{Path: "two.yaml"}}},
			want: want{objs: []rendered{
				{Template: "templates/deployment.yaml", Obj: toMap(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: shop}\nspec: {replicas: 1, template: {spec: {containers: [{name: app, image: 'nginx:1.25'}]}}}\n")},
			}},
		},
		"PatchMatchesNothing": {
			reason: "A patch whose object is not among the task's resources is a *render.PatchError naming the patch file.",
			b:      patchBundle(map[string]string{"smp.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: other}\nspec: {replicas: 1}\n"}),
			task:   &bundle.Task{Name: "app", Resources: []string{"deployment.yaml"}, PatchesStrategicMerge: []string{"smp.yaml"}},
			want:   want{patch: "templates/smp.yaml", msg: "other"},
		},
		"JSON6902WithoutTarget": {
			reason: "A JSON 6902 patch without target cannot be applied: a *render.PatchError.",
			b:      patchBundle(map[string]string{"json.yaml": "- op: replace\n  path: /spec/replicas\n  value: 5\n"}),
			task:   &bundle.Task{Name: "app", Resources: []string{"deployment.yaml"}, Patches: []bundle.Patch{{Path: "json.yaml"}}},
			want:   want{patch: "templates/json.yaml"},
		},
		"MissingPatchFile": {
			reason: "A patch that is not in templates/ (only possible in memory) is an error naming it.",
			b:      patchBundle(nil),
			task:   &bundle.Task{Name: "app", Resources: []string{"deployment.yaml"}, PatchesStrategicMerge: []string{"gone.yaml"}},
			want:   want{msg: `patch "gone.yaml" is not in templates/`},
		},
		"MissingParam": {
			reason: "A template error names the task and step and keeps the *tmpl.Error.",
			b:      patchBundle(map[string]string{"bad.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: {{ .Params.NOPE }}}\n"}),
			task:   &bundle.Task{Name: "app", Resources: []string{"bad.yaml"}},
			want:   want{msg: "NOPE"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := render.New(tc.b, values, inst, render.Options{})
			got, err := r.Task(step, tc.task)
			if tc.want.objs != nil {
				if err != nil {
					t.Fatalf("\n%s\nTask(...): %v", tc.reason, err)
				}
				assert.Check(t, is.DeepEqual(tc.want.objs, views(t, got)), "%s\nTask(...)", tc.reason)
				return
			}
			var re *render.Error
			if !errors.As(err, &re) {
				t.Fatalf("\n%s\nTask(...): want *render.Error, got %T %v", tc.reason, err, err)
			}
			if re.Task != "app" || re.Where != "deploy.deploy.app" {
				t.Errorf("\n%s\nTask(...): want task app at deploy.deploy.app, got %q at %q", tc.reason, re.Task, re.Where)
			}
			if tc.want.patch != "" {
				var pe *render.PatchError
				if !errors.As(err, &pe) {
					t.Fatalf("\n%s\nTask(...): want *render.PatchError, got %T %v", tc.reason, err, err)
				}
				if pe.Patch != tc.want.patch {
					t.Errorf("\n%s\nTask(...): want patch %q, got %q", tc.reason, tc.want.patch, pe.Patch)
				}
				if strings.Contains(pe.Error(), "/task/") {
					t.Errorf("\n%s\nTask(...): kustomize's in-memory paths leak into %q", tc.reason, pe.Error())
				}
			}
			if !strings.Contains(err.Error(), tc.want.msg) {
				t.Errorf("\n%s\nTask(...): want error containing %q, got %v", tc.reason, tc.want.msg, err)
			}
			if name == "MissingParam" {
				var te *tmpl.Error
				if !errors.As(err, &te) || te.Template != "templates/bad.yaml" || te.Line != 3 {
					t.Errorf("\n%s\nTask(...): want *tmpl.Error at templates/bad.yaml:3, got %v", tc.reason, te)
				}
			}
		})
	}
}

func TestVars(t *testing.T) {
	b := &bundle.Bundle{Name: "zookeeper", Version: "0.3.0", AppVersion: "3.4.14"}
	r := render.New(b, params.Values{"NODE_COUNT": "3"}, render.Instance{Name: "zk", Namespace: "data"}, render.Options{})
	got := r.Vars(render.Step{Plan: "deploy", Phase: "zookeeper", Step: "deploy", Task: "infra"})
	want := map[string]any{
		"OperatorName": "zookeeper", "OperatorVersion": "0.3.0", "AppVersion": "3.4.14",
		"Name": "zk", "Namespace": "data",
		"PlanName": "deploy", "PhaseName": "zookeeper", "StepName": "deploy",
		"Params":    map[string]any{"NODE_COUNT": "3"},
		"Pipes":     map[string]string{},
		"Resources": map[string]any{},
	}
	assert.Check(t, is.DeepEqual(want, got), "Vars(...)")
}

func TestCommon(t *testing.T) {
	b := &bundle.Bundle{Name: "mysql", Version: "5.7", AppVersion: "5.7.44", Common: map[string][]byte{
		"z.yaml":     []byte("apiVersion: v1\nkind: Namespace\nmetadata: {name: {{ .OperatorName }}-shared}\n"),
		"a/pc.yaml":  []byte("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: {{ .OperatorName }}-{{ .OperatorVersion }}}\nvalue: 1000\n"),
		"empty.yaml": []byte("# nothing\n"),
	}}
	r := render.New(b, nil, render.Instance{Name: "i", Namespace: "n"}, render.Options{})
	got, err := r.Common()
	if err != nil {
		t.Fatal(err)
	}
	want := []rendered{
		{Template: "common/a/pc.yaml", Obj: toMap(t, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: mysql-5.7}\nvalue: 1000\n")},
		{Template: "common/z.yaml", Obj: toMap(t, "apiVersion: v1\nkind: Namespace\nmetadata: {name: mysql-shared}\n")},
	}
	assert.Check(t, is.DeepEqual(want, views(t, got)), "Common()")
	// common/ sees the framework's variables only.
	b.Common = map[string][]byte{"bad.yaml": []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: {{ .Name }}}\n")}
	_, err = render.New(b, nil, render.Instance{Name: "i", Namespace: "n"}, render.Options{}).Common()
	var re *render.Error
	if !errors.As(err, &re) || re.Task != "" || !strings.Contains(err.Error(), "cannot render common/") {
		t.Errorf("Common() with .Name: want a common/ *render.Error, got %v", err)
	}
}

const pipePod = `apiVersion: v1
kind: Pod
metadata:
  labels: {app: gen}
spec:
  volumes:
    - name: shared-data
      emptyDir: {}
  initContainers:
    - name: init
      image: busybox
      command: ["/bin/sh", "-c"]
      args: ["echo hi > /tmp/index.html"]
      volumeMounts:
        - name: shared-data
          mountPath: /tmp
`

func pipeBundle(pod string) *bundle.Bundle {
	return &bundle.Bundle{Name: "cowsay", Version: "0.2.0", Templates: map[string][]byte{"pipe-pod.yaml": []byte(pod)}}
}

func pipeTask(files ...bundle.PipeFile) *bundle.Task {
	if len(files) == 0 {
		files = []bundle.PipeFile{{File: "/tmp/index.html", Kind: "ConfigMap", Key: "indexHtml"}}
	}
	return &bundle.Task{Name: "genwww", Kind: bundle.KindPipe, Pod: "pipe-pod.yaml", Pipe: files}
}

func TestPipe(t *testing.T) {
	r := render.New(pipeBundle(pipePod), nil, render.Instance{Name: "moo", Namespace: "farm"}, render.Options{PublisherImage: "kubectl:test"})
	step := render.Step{Plan: "deploy", Phase: "main", Step: "genfiles", Task: "genwww",
		Pipes: map[string]string{"indexHtml": "moo.deploy.main.genfiles.genwww.indexhtml", "key": "moo.deploy.main.genfiles.genwww.key"}}
	got, err := r.Pipe(step, pipeTask(
		bundle.PipeFile{File: "/tmp/index.html", Kind: "ConfigMap", Key: "indexHtml"},
		bundle.PipeFile{File: "/tmp/sub/key.pem", Kind: "Secret", Key: "key"},
	))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, o := range got {
		kinds = append(kinds, o.Obj.Kind())
	}
	assert.Assert(t, is.DeepEqual([]string{"Job", "ServiceAccount", "Role", "RoleBinding"}, kinds), "Pipe(...)")
	job := got[0]
	if !job.Hook || job.Template != "templates/pipe-pod.yaml" {
		t.Errorf("Pipe(...): want the Job as a hook from templates/pipe-pod.yaml, got hook %t template %q", job.Hook, job.Template)
	}
	for _, o := range got[1:] {
		if o.Hook || o.Obj.Name() != "moo-pipe-publisher" {
			t.Errorf("Pipe(...): want %s moo-pipe-publisher in the desired state, got %q hook %t", o.Obj.Kind(), o.Obj.Name(), o.Hook)
		}
	}
	j := job.Obj
	if j.Name() != "moo-genwww-pipe" || j.APIVersion() != "batch/v1" {
		t.Errorf("Job: want batch/v1 moo-genwww-pipe, got %s %s", j.APIVersion(), j.Name())
	}
	spec := j.MapAt("spec", "template", "spec")
	wantSpec := map[string]any{
		"restartPolicy":      "OnFailure",
		"serviceAccountName": "moo-pipe-publisher",
		"volumes":            []any{map[string]any{"name": "shared-data", "emptyDir": map[string]any{}}},
		"initContainers": []any{map[string]any{
			"name": "init", "image": "busybox",
			"command":      []any{"/bin/sh", "-c"},
			"args":         []any{"echo hi > /tmp/index.html"},
			"volumeMounts": []any{map[string]any{"name": "shared-data", "mountPath": "/tmp"}},
		}},
	}
	containers := spec["containers"]
	delete(spec, "containers")
	assert.Check(t, is.DeepEqual(wantSpec, spec), "Job pod spec")
	cs, _ := containers.([]any)
	if len(cs) != 1 {
		t.Fatalf("Job: want one publisher container, got %v", containers)
	}
	c := cs[0].(map[string]any)
	if c["image"] != "kubectl:test" {
		t.Errorf("publisher image: want kubectl:test, got %v", c["image"])
	}
	assert.Check(t, is.DeepEqual([]any{map[string]any{"name": "shared-data", "mountPath": "/tmp"}}, c["volumeMounts"]), "publisher mounts")
	script := c["command"].([]any)[2].(string)
	for _, s := range []string{
		"kubectl create configmap 'moo.deploy.main.genfiles.genwww.indexhtml' --namespace 'farm' --from-file='index.html=/tmp/index.html'",
		"kubectl create secret generic 'moo.deploy.main.genfiles.genwww.key' --namespace 'farm' --from-file='key.pem=/tmp/sub/key.pem'",
		"kudo.dev/operator='cowsay' kudo.dev/instance='moo'",
	} {
		if !strings.Contains(script, s) {
			t.Errorf("publish script: want %q in\n%s", s, script)
		}
	}
	assert.Check(t, is.DeepEqual(map[string]any{"labels": map[string]any{"app": "gen"}}, j.MapAt("spec", "template", "metadata")), "Job pod metadata")
	rb := got[3].Obj
	assert.Check(t, is.DeepEqual([]any{map[string]any{"kind": "ServiceAccount", "name": "moo-pipe-publisher", "namespace": "farm"}}, rb.Map["subjects"]), "RoleBinding subjects")
	role := got[2].Obj
	rules, _ := role.Map["rules"].([]any)
	if len(rules) != 1 || !strings.Contains(toYAML(t, rules), "configmaps") || !strings.Contains(toYAML(t, rules), "secrets") {
		t.Errorf("Role rules: want access to secrets and configmaps, got %v", rules)
	}
}

func toYAML(t *testing.T, v any) string {
	data, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestPipePodRules(t *testing.T) {
	cases := map[string]struct {
		reason string
		pod    string
		task   *bundle.Task
		msg    string
	}{
		"Containers": {
			reason: "A pipe pod must not have containers: the artifacts are made by the init container.",
			pod:    strings.Replace(pipePod, "  initContainers:", "  containers: [{name: c, image: x}]\n  initContainers:", 1),
			msg:    "should not have containers",
		},
		"TwoInitContainers": {
			reason: "A pipe pod has exactly one init container.",
			pod:    pipePod + "    - name: second\n      image: busybox\n",
			msg:    "one init container",
		},
		"NoInitContainer": {
			reason: "A pipe pod without init container has nothing to run.",
			pod:    "apiVersion: v1\nkind: Pod\nspec:\n  volumes: [{name: v, emptyDir: {}}]\n",
			msg:    "one init container",
		},
		"NoEmptyDir": {
			reason: "A pipe pod needs one emptyDir volume for the artifacts.",
			pod:    strings.Replace(pipePod, "      emptyDir: {}", "      hostPath: {path: /tmp}", 1),
			msg:    "one emptyDir shared volume",
		},
		"TwoEmptyDirs": {
			reason: "Two emptyDir volumes are ambiguous.",
			pod:    strings.Replace(pipePod, "  initContainers:", "    - name: other\n      emptyDir: {}\n  initContainers:", 1),
			msg:    "one emptyDir shared volume",
		},
		"NotMounted": {
			reason: "The init container must mount the emptyDir.",
			pod:    strings.Replace(pipePod, "        - name: shared-data\n          mountPath: /tmp", "        - name: other\n          mountPath: /tmp", 1),
			msg:    `should save generated artifacts in volume "shared-data"`,
		},
		"FileOutsideMount": {
			reason: "A pipe file must be below the emptyDir's mount path.",
			pod:    pipePod,
			task:   pipeTask(bundle.PipeFile{File: "/var/index.html", Kind: "ConfigMap", Key: "k"}),
			msg:    "pipe file /var/index.html should be a child of the /tmp mount path",
		},
		"FileClimbsOut": {
			reason: "A pipe file path that climbs out of the mount path with .. is outside it.",
			pod:    pipePod,
			task:   pipeTask(bundle.PipeFile{File: "/tmp/../etc/passwd", Kind: "Secret", Key: "k"}),
			msg:    "should be a child of the /tmp mount path",
		},
		"FileIsMountPath": {
			reason: "The mount path itself is not a file.",
			pod:    pipePod,
			task:   pipeTask(bundle.PipeFile{File: "/tmp/", Kind: "Secret", Key: "k"}),
			msg:    "should be a child of the /tmp mount path",
		},
		"FileWithSimilarPrefix": {
			reason: "/tmpfoo is not below /tmp.",
			pod:    pipePod,
			task:   pipeTask(bundle.PipeFile{File: "/tmpfoo/x", Kind: "Secret", Key: "k"}),
			msg:    "should be a child of the /tmp mount path",
		},
		"RestartPolicy": {
			reason: "A pipe pod's restartPolicy, if set, is OnFailure.",
			pod:    strings.Replace(pipePod, "spec:\n", "spec:\n  restartPolicy: Never\n", 1),
			msg:    "restartPolicy should be OnFailure",
		},
		"NotAPod": {
			reason: "The pod template must render a Pod.",
			pod:    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n",
			msg:    "must render exactly one Pod",
		},
		"TwoPods": {
			reason: "The pod template must render exactly one object.",
			pod:    pipePod + "---\n" + pipePod,
			msg:    "must render exactly one Pod",
		},
		"NoSpec": {
			reason: "A Pod without spec is refused.",
			pod:    "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n",
			msg:    "pipe pod has no spec",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			task := tc.task
			if task == nil {
				task = pipeTask()
			}
			r := render.New(pipeBundle(tc.pod), nil, render.Instance{Name: "moo", Namespace: "farm"}, render.Options{})
			_, err := r.Pipe(render.Step{Plan: "deploy", Phase: "main", Step: "gen", Task: "genwww"}, task)
			var re *render.Error
			if !errors.As(err, &re) {
				t.Fatalf("\n%s\nPipe(...): want *render.Error, got %T %v", tc.reason, err, err)
			}
			if re.Task != "genwww" || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("\n%s\nPipe(...): want task genwww and message containing %q, got %v", tc.reason, tc.msg, err)
			}
			if name != "NotAPod" && name != "TwoPods" && !strings.Contains(err.Error(), "templates/pipe-pod.yaml") {
				t.Errorf("\n%s\nPipe(...): the error should name the pod template, got %v", tc.reason, err)
			}
		})
	}
}

func TestPipeNames(t *testing.T) {
	long := strings.Repeat("a", 60)
	r := render.New(pipeBundle(pipePod), nil, render.Instance{Name: long, Namespace: "farm"}, render.Options{})
	got, err := r.Pipe(render.Step{Plan: "p", Phase: "p", Step: "s", Task: "Gen_WWW"}, &bundle.Task{
		Name: "Gen_WWW", Kind: bundle.KindPipe, Pod: "pipe-pod.yaml",
		Pipe: []bundle.PipeFile{{File: "/tmp/x", Kind: "Secret", Key: "k"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range got {
		n := o.Obj.Name()
		if len(n) > 63 || strings.Trim(n, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" || strings.HasPrefix(n, "-") || strings.HasSuffix(n, "-") {
			t.Errorf("%s name %q is not a DNS-1123 label", o.Obj.Kind(), n)
		}
	}
	if got[0].Obj.Name() == got[1].Obj.Name() && got[0].Obj.Kind() == got[1].Obj.Kind() {
		t.Errorf("names collide: %q", got[0].Obj.Name())
	}
}

func TestErrorMessage(t *testing.T) {
	cases := map[string]struct {
		reason string
		err    error
		want   string
	}{
		"Task": {
			reason: "A task error names the task and where it runs.",
			err:    &render.Error{Task: "app", Where: "deploy.main.app", Err: errors.New("boom")},
			want:   `cannot render task "app" (deploy.main.app): boom`,
		},
		"Common": {
			reason: "A common/ error has no task.",
			err:    &render.Error{Err: errors.New("boom")},
			want:   "cannot render common/: boom",
		},
		"Patch": {
			reason: "A patch error names the patch file.",
			err:    &render.PatchError{Patch: "templates/p.yaml", Err: errors.New("boom")},
			want:   "patch templates/p.yaml: boom",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, is.DeepEqual(tc.want, tc.err.Error()), "%s\nError()", tc.reason)
		})
	}
}

// TestPatchErrorDiagnostics: a patch's problem is located in the patch
// file, unless it names another place (issue 25.3).
func TestPatchErrorDiagnostics(t *testing.T) {
	err := &render.Error{Task: "app", Where: "deploy.main.app", Err: &render.PatchError{Patch: "templates/p.yaml", Err: errors.New("no resource matches")}}
	want := []*diag.Diagnostic{{File: "templates/p.yaml", Msg: "task app in deploy.main.app: no resource matches"}}
	assert.Check(t, is.DeepEqual(want, diag.From(err)), "diag.From")
}
