package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/test/benchinput"
)

// row is one line of the table: kudo-render, the -base build when given,
// and each Helm when compared.
type row struct {
	name      string
	kr        result
	base      *result
	helm      []result // one per helms, or none
	instances int      // scaling rows
}

// measure runs a row: kr (and the same command by the -base build) and,
// when helm is set, the command of each Helm, in paired rounds.
func measure(c *config, name string, runs int, kr cmdSpec, helm func(bin string) cmdSpec) (row, error) {
	cmds := []cmdSpec{kr}
	if c.base != "" {
		cmds = append(cmds, kr.with(c.base))
	}
	if helm != nil {
		if err := c.findHelms(); err != nil {
			return row{}, err
		}
		for _, h := range c.helm {
			cmds = append(cmds, helm(h))
		}
	}
	fmt.Fprintf(os.Stderr, "measuring %s: %d rounds of %d commands\n", name, runs, len(cmds))
	rs, err := paired(runs, cmds...)
	if err != nil {
		return row{}, err
	}
	r := row{name: name, kr: rs[0]}
	rs = rs[1:]
	if c.base != "" {
		r.base, rs = &rs[0], rs[1:]
	}
	r.helm = rs
	return r, nil
}

// findHelms installs the helms when missing, once.
func (c *config) findHelms() error {
	if c.helm != nil {
		return nil
	}
	for _, h := range helms {
		p, err := ensureHelm(h)
		if err != nil {
			return err
		}
		c.helm = append(c.helm, p)
	}
	return nil
}

// measureAll measures every row -rows selects; the scaling rows are also
// returned apart, for the plot.
func measureAll(c *config) (rows, scaling []row, err error) {
	ops := filepath.Join(c.corpus, "kudo-operators")
	slow := max(3, c.runs/3)
	type maker func() (row, error)
	for _, m := range []struct {
		name string
		make maker
	}{
		{"kafka", func() (row, error) { return kafkaRow(c, ops) }},
		{"cmp generate", func() (row, error) { return argocdRow(c, ops) }},
		{"start-up: version", func() (row, error) {
			version := cmdSpec{args: []string{c.bin, "version"}}
			helmVersion := func(h string) cmdSpec { return cmdSpec{args: []string{h, "version", "--short"}} }
			return measure(c, "start-up: version", c.runs*3, version, helmVersion)
		}},
	} {
		if !c.only.MatchString(m.name) {
			continue
		}
		r, err := m.make()
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, r)
	}
	for _, n := range []int{10, 100, 1000} {
		name := fmt.Sprintf("KRM: %d zookeeper Instance items", n)
		if !c.only.MatchString(name) {
			continue
		}
		in := benchinput.ZookeeperInstances(n, "zookeeper")
		if err := os.WriteFile(filepath.Join(c.out, fmt.Sprintf("zookeeper-%d.yaml", n)), in, 0o644); err != nil {
			return nil, nil, err
		}
		r, err := measure(c, name, slow, cmdSpec{args: []string{c.bin}, dir: ops, stdin: in}, nil)
		if err != nil {
			return nil, nil, err
		}
		r.instances = n
		rows, scaling = append(rows, r), append(scaling, r)
	}
	more, err := bulkRows(c, slow)
	return append(rows, more...), scaling, err
}

// kafkaRow renders kafka's deploy plan (validated, as every render is)
// with kudo-render and the same templates as a chart with helm template.
func kafkaRow(c *config, ops string) (row, error) {
	pkg := filepath.Join(ops, "kafka")
	chart, n, err := kafkaChart(c, pkg)
	if err != nil {
		return row{}, err
	}
	render := cmdSpec{args: []string{c.bin, "render", pkg, "--name", "kafka", "--namespace", "data", "--target", "plain"}}
	return measure(c, fmt.Sprintf("kafka deploy plan (%d templates), validated: render vs helm template", n), c.runs, render, helmTemplate(chart))
}

// helmTemplate is helm template of the kafka chart.
func helmTemplate(chart string) func(string) cmdSpec {
	return func(h string) cmdSpec {
		return cmdSpec{args: []string{h, "template", "kafka", chart, "--namespace", "data"}}
	}
}

// kafkaChart writes the kafka templates that the deploy plan renders as a
// chart (bench-out/kafka-chart).
func kafkaChart(c *config, pkg string) (string, int, error) {
	text, err := exec.Command(c.bin, "render", pkg, "--name", "kafka", "--namespace", "data", "--target", "plain").Output()
	if err != nil {
		return "", 0, fmt.Errorf("kudo-render render kafka: %w", err)
	}
	chart, err := filepath.Abs(filepath.Join(c.out, "kafka-chart"))
	if err != nil {
		return "", 0, err
	}
	n, err := writeChart(pkg, chart, usedTemplates(text))
	if err != nil {
		return "", 0, err
	}
	fmt.Fprintf(os.Stderr, "kafka: %d templates as a chart in %s\n", n, chart)
	return chart, n, nil
}

// argocdRow is the Argo CD plugin's path: cmp generate in an application
// folder holding kafka and a kudo-render.yaml, with the environment Argo
// CD gives it, against helm template of the same chart.
func argocdRow(c *config, ops string) (row, error) {
	pkg := filepath.Join(ops, "kafka")
	app, err := filepath.Abs(filepath.Join(c.out, "argocd-kafka"))
	if err != nil {
		return row{}, err
	}
	if err := os.RemoveAll(app); err != nil {
		return row{}, err
	}
	if err := os.CopyFS(app, os.DirFS(pkg)); err != nil {
		return row{}, err
	}
	fc := "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {}\nspec:\n  framework:\n    path: .\n"
	if err := os.WriteFile(filepath.Join(app, "kudo-render.yaml"), []byte(fc), 0o644); err != nil {
		return row{}, err
	}
	chart, _, err := kafkaChart(c, pkg)
	if err != nil {
		return row{}, err
	}
	gen := cmdSpec{args: []string{c.bin, "cmp", "generate"}, dir: app, env: []string{"ARGOCD_APP_NAME=kafka", "ARGOCD_APP_NAMESPACE=data"}}
	return measure(c, "Argo CD: cmp generate of kafka vs helm template", c.runs, gen, helmTemplate(chart))
}

var templateAnn = regexp.MustCompile(`kudorender\.dev/template: (templates/\S+)`)

// usedTemplates are the templates a render's objects came from.
func usedTemplates(stream []byte) []string {
	seen := map[string]bool{}
	for _, m := range templateAnn.FindAllSubmatch(stream, -1) {
		seen[string(m[1])] = true
	}
	var out []string
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// kudoVar is a KUDO template variable; in the chart it reads .Values.
var kudoVar = regexp.MustCompile(`(^|[^\w.$])(\$?)\.(Params|Name|Namespace|OperatorName|OperatorVersion|AppVersion)\b`)

// writeChart writes a chart of the templates, values from params.yaml's
// defaults and the instance kafka in data.
func writeChart(pkg, chart string, templates []string) (int, error) {
	if err := os.MkdirAll(filepath.Join(chart, "templates"), 0o755); err != nil {
		return 0, err
	}
	var params struct {
		Parameters []struct {
			Name    string `json:"name"`
			Default any    `json:"default"`
		} `json:"parameters"`
	}
	data, err := os.ReadFile(filepath.Join(pkg, "params.yaml"))
	if err != nil {
		return 0, err
	}
	if err := yaml.Unmarshal(data, &params); err != nil {
		return 0, err
	}
	values := map[string]any{"Name": "kafka", "Namespace": "data", "OperatorName": "kafka", "OperatorVersion": "1", "AppVersion": "1"}
	p := map[string]any{}
	for _, x := range params.Parameters {
		if x.Default == nil {
			x.Default = ""
		}
		p[x.Name] = x.Default
	}
	values["Params"] = p
	vdata, err := yaml.Marshal(values)
	if err != nil {
		return 0, err
	}
	files := map[string][]byte{
		"Chart.yaml":  []byte("apiVersion: v2\nname: kafka\nversion: 0.1.0\n"),
		"values.yaml": vdata,
	}
	for _, t := range templates {
		src, err := os.ReadFile(filepath.Join(pkg, t))
		if err != nil {
			return 0, err
		}
		files[t] = kudoVar.ReplaceAll(src, []byte("${1}${2}.Values.${3}"))
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(chart, name), content, 0o644); err != nil {
			return 0, err
		}
	}
	return len(templates), nil
}

// bulkRows are the 50,000 ConfigMaps passed through and the template
// rendering 100,000 ConfigMaps.
func bulkRows(c *config, runs int) ([]row, error) {
	dir, err := filepath.Abs(filepath.Join(c.out, "packages"))
	if err != nil {
		return nil, err
	}
	var rows []row
	if name := "KRM: 50,000 ConfigMaps passed through"; c.only.MatchString(name) {
		if err := benchinput.WritePackage(filepath.Join(dir, "small"), "small", benchinput.SmallPackage); err != nil {
			return nil, err
		}
		cms := benchinput.ConfigMaps(50_000, "small")
		r, err := measure(c, fmt.Sprintf("%s (%.1f MB)", name, float64(len(cms))/1e6), runs, cmdSpec{args: []string{c.bin}, dir: dir, stdin: cms}, nil)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	if name := "one template rendering 100,000 ConfigMaps"; c.only.MatchString(name) {
		if err := benchinput.WritePackage(filepath.Join(dir, "many"), "many", benchinput.ManyDocuments(100_000)); err != nil {
			return nil, err
		}
		r, err := measure(c, name, runs, cmdSpec{args: []string{c.bin, "render", filepath.Join(dir, "many"), "--name", "many", "--target", "plain"}}, nil)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// markdown is the table of the rows: each command's medians (wall, CPU,
// peak memory), and kudo-render's ratios to the -base build and to each
// Helm (wall, CPU, memory).
func markdown(c config, rows []row) string {
	var b bytes.Buffer
	b.WriteString("| work | kudo-render (wall, CPU, memory) |")
	sep := "|---|---|"
	if c.base != "" {
		b.WriteString(" base | kudo-render / base |")
		sep += "---|---|"
	}
	for _, h := range helms {
		fmt.Fprintf(&b, " %s | kudo-render / %s |", h.name, h.name)
		sep += "---|---|"
	}
	b.WriteString("\n" + sep + "\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s |", r.name, figures(r.kr))
		if c.base != "" {
			fmt.Fprintf(&b, " %s | %s |", figures(*r.base), ratios(r.kr, *r.base))
		}
		for i := range helms {
			if i < len(r.helm) {
				fmt.Fprintf(&b, " %s | %s |", figures(r.helm[i]), ratios(r.kr, r.helm[i]))
			} else {
				b.WriteString(" | |")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func figures(r result) string {
	return fmt.Sprintf("%s, %s, %s", ms(r.wall), ms(r.cpu), mib(r.rss))
}

func ratios(a, b result) string {
	return fmt.Sprintf("%.2fx, %.2fx, %.2fx", float64(a.wall)/float64(b.wall), float64(a.cpu)/float64(b.cpu), float64(a.rss)/float64(b.rss))
}

func ms(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}

func mib(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }
