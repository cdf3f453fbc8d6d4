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

// row is one line of the table: kudo-render, and helm when compared.
type row struct {
	name       string
	kr, helm   result
	hasHelm    bool
	instances  int // scaling rows
	outputSize int
}

// kafkaRow renders kafka's deploy plan with kudo-render and the same
// templates as a chart with helm template.
func kafkaRow(bin, helm, ops, out string, runs int) (row, error) {
	pkg := filepath.Join(ops, "kafka")
	render := cmdSpec{args: []string{bin, "render", pkg, "--name", "kafka", "--namespace", "data", "--target", "plain"}}
	text, err := exec.Command(render.args[0], render.args[1:]...).Output()
	if err != nil {
		return row{}, fmt.Errorf("kudo-render render kafka: %w", err)
	}
	chart := filepath.Join(out, "kafka-chart")
	n, err := writeChart(pkg, chart, usedTemplates(text))
	if err != nil {
		return row{}, err
	}
	fmt.Fprintf(os.Stderr, "kafka: %d templates as a chart in %s\n", n, chart)
	tmpl := cmdSpec{args: []string{helm, "template", "kafka", chart, "--namespace", "data"}}
	rs, err := paired(runs, render, tmpl)
	if err != nil {
		return row{}, err
	}
	return row{name: fmt.Sprintf("kafka deploy plan (%d templates): render vs helm template", n), kr: rs[0], helm: rs[1], hasHelm: true}, nil
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

// startupRow is kudo-render version against helm version.
func startupRow(bin, helm string, runs int) row {
	rs, err := paired(runs*3, cmdSpec{args: []string{bin, "version"}}, cmdSpec{args: []string{helm, "version", "--short"}})
	if err != nil {
		return row{name: "start-up: " + err.Error()}
	}
	return row{name: "start-up: version", kr: rs[0], helm: rs[1], hasHelm: true}
}

// scalingRows run the KRM function on 10, 100 and 1,000 zookeeper
// Instance items.
func scalingRows(bin, ops, out string, runs int) ([]row, error) {
	var rows []row
	for _, n := range []int{10, 100, 1000} {
		in := benchinput.ZookeeperInstances(n, "zookeeper")
		if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("zookeeper-%d.yaml", n)), in, 0o644); err != nil {
			return nil, err
		}
		c := cmdSpec{args: []string{bin}, dir: ops, stdin: in}
		rs, err := paired(runs, c)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{name: fmt.Sprintf("KRM: %d zookeeper Instance items", n), kr: rs[0], instances: n})
	}
	return rows, nil
}

// bulkRows are the 50,000 ConfigMaps passed through and the template
// rendering 100,000 documents.
func bulkRows(bin, out string, runs int) ([]row, error) {
	dir, err := filepath.Abs(filepath.Join(out, "packages"))
	if err != nil {
		return nil, err
	}
	if err := benchinput.WritePackage(filepath.Join(dir, "small"), "small", benchinput.SmallPackage); err != nil {
		return nil, err
	}
	if err := benchinput.WritePackage(filepath.Join(dir, "many"), "many", benchinput.ManyDocuments(100_000)); err != nil {
		return nil, err
	}
	cms := benchinput.ConfigMaps(50_000, "small")
	rs, err := paired(runs, cmdSpec{args: []string{bin}, dir: dir, stdin: cms},
		cmdSpec{args: []string{bin, "render", filepath.Join(dir, "many"), "--name", "many", "--target", "plain"}})
	if err != nil {
		return nil, err
	}
	return []row{
		{name: fmt.Sprintf("KRM: 50,000 ConfigMaps passed through (%.1f MB)", float64(len(cms))/1e6), kr: rs[0]},
		{name: "one template rendering 100,000 documents", kr: rs[1]},
	}, nil
}

// markdown is the table of the rows.
func markdown(rows []row) string {
	var b bytes.Buffer
	b.WriteString("| work | kudo-render | helm | ratio (wall, memory) |\n|---|---|---|---|\n")
	for _, r := range rows {
		h, ratio := "", ""
		if r.hasHelm {
			h = fmt.Sprintf("%s, %s", ms(r.helm.wall), mib(r.helm.rss))
			ratio = fmt.Sprintf("%.2fx, %.2fx", float64(r.kr.wall)/float64(r.helm.wall), float64(r.kr.rss)/float64(r.helm.rss))
		}
		fmt.Fprintf(&b, "| %s | %s, %s | %s | %s |\n", r.name, ms(r.kr.wall), mib(r.kr.rss), h, ratio)
	}
	return b.String()
}

func ms(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}

func mib(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }
