package verify

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/yaml/lazy"
)

var yamlLineRE = lazy.Regexp(`^yaml: line (\d+): (.*)$`)

// checkYAML reports whether rendered output is a valid YAML stream, with
// the template line of the first problem. go-yaml's parser (not its
// scanner) reports the 0-based line where the enclosing block starts; as
// in package tmpl, one is added for those messages.
func checkYAML(out *tmpl.Output) (int, string) {
	dec := yaml.NewDecoder(bytes.NewReader(out.Text))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return 0, ""
		}
		if err == nil {
			continue
		}
		m := yamlLineRE().FindStringSubmatch(err.Error())
		if m == nil {
			return 0, "invalid YAML after rendering: " + strings.TrimPrefix(err.Error(), "yaml: ")
		}
		line, _ := strconv.Atoi(m[1])
		problem := m[2]
		if strings.HasPrefix(problem, "did not find expected") || strings.HasPrefix(problem, "found duplicate %") ||
			problem == "found incompatible YAML document" || problem == "found undefined tag handle" {
			line++
		}
		return out.SourceLine(line), "invalid YAML after rendering: " + problem
	}
}
