package fn

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/params"
)

// ConfigFileName is the FunctionConfig file the Argo CD plugin discovers
// and reads in the application's folder.
const ConfigFileName = "kudo-render.yaml"

// ArgoParameter is one entry of ARGOCD_APP_PARAMETERS.
type ArgoParameter struct {
	Name   string            `json:"name"`
	String *string           `json:"string,omitempty"`
	Array  []string          `json:"array,omitempty"`
	Map    map[string]string `json:"map,omitempty"`
}

// ArgoAnnouncement is one parameter announced to Argo CD (the output of
// the plugin's dynamic parameters command).
type ArgoAnnouncement struct {
	Name           string            `json:"name"`
	Title          string            `json:"title,omitempty"`
	Tooltip        string            `json:"tooltip,omitempty"`
	Required       bool              `json:"required,omitempty"`
	ItemType       string            `json:"itemType,omitempty"`
	CollectionType string            `json:"collectionType,omitempty"`
	String         string            `json:"string,omitempty"`
	Array          []string          `json:"array,omitempty"`
	Map            map[string]string `json:"map,omitempty"`
}

// ApplyArgoEnv applies what Argo CD gives a config-management plugin to
// the config: ARGOCD_APP_NAME and ARGOCD_APP_NAMESPACE as defaults for
// the instance name and namespace; ARGOCD_ENV_<NAME> (the Application's
// plugin env) for package parameters, PLAN and TARGET; then the
// Application's plugin parameters, from ARGOCD_APP_PARAMETERS (JSON) or,
// when that is unset, from the PARAM_* variables. Parameters named plan
// (or plans) and target set those; a map parameter named params sets
// package parameters; any other name is a package parameter.
func (c *Config) ApplyArgoEnv(environ []string, b *bundle.Bundle) error {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	if c.Metadata.Name == "" {
		c.Metadata.Name = env["ARGOCD_APP_NAME"]
	}
	if c.Metadata.Namespace == "" {
		c.Metadata.Namespace = env["ARGOCD_APP_NAMESPACE"]
	}
	byNorm := map[string]string{}
	for _, p := range b.Params {
		byNorm[normalize(p.Name)] = p.Name
	}
	set := func(name string, v any) {
		if c.Spec.Params == nil {
			c.Spec.Params = map[string]Node{}
		}
		c.Spec.Params[name] = valueNode(v)
	}

	// ARGOCD_ENV_*: only names that mean something to us.
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name, ok := strings.CutPrefix(k, "ARGOCD_ENV_")
		if !ok {
			continue
		}
		switch {
		case name == "PLAN" || name == "PLANS":
			c.Spec.Plans = splitList(env[k])
		case name == "TARGET":
			c.Spec.Target = env[k]
		case b.Param(name) != nil:
			set(name, env[k])
		case byNorm[normalize(name)] != "":
			set(byNorm[normalize(name)], env[k])
		}
	}

	if raw, ok := env["ARGOCD_APP_PARAMETERS"]; ok && strings.TrimSpace(raw) != "" {
		var ps []ArgoParameter
		if err := json.Unmarshal([]byte(raw), &ps); err != nil {
			return fmt.Errorf("cannot read ARGOCD_APP_PARAMETERS: %w", err)
		}
		for _, p := range ps {
			var v any
			switch {
			case p.Map != nil:
				m := map[string]any{}
				for k, x := range p.Map {
					m[k] = x
				}
				v = m
			case p.Array != nil:
				l := make([]any, len(p.Array))
				for i, x := range p.Array {
					l[i] = x
				}
				v = l
			case p.String != nil:
				v = *p.String
			default:
				continue
			}
			if err := c.applyParameter(p.Name, v, set); err != nil {
				return err
			}
		}
		return nil
	}
	return c.applyParamEnv(env, keys, byNorm, set)
}

func (c *Config) applyParameter(name string, v any, set func(string, any)) error {
	switch name {
	case "plan", "plans":
		switch t := v.(type) {
		case string:
			c.Spec.Plans = splitList(t)
		case []any:
			c.Spec.Plans = nil
			for _, x := range t {
				c.Spec.Plans = append(c.Spec.Plans, x.(string))
			}
		default:
			return fmt.Errorf("plugin parameter %s: want a string or an array", name)
		}
	case "target":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("plugin parameter target: want a string")
		}
		c.Spec.Target = s
	case "params":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("plugin parameter params: want a map")
		}
		for k, x := range m {
			set(k, x)
		}
	default:
		set(name, v)
	}
	return nil
}

var paramEnvRE = regexp.MustCompile(`^PARAM_(.+?)(?:_(\d+))?$`)

// applyParamEnv reads the PARAM_* variables Argo CD sets for plugin
// parameters. Their names are normalised (upper case, anything but
// letters and digits turned into _), so they are matched against the
// normalised names of the package's parameters; arrays come as
// PARAM_<NAME>_<INDEX> and maps as PARAM_<NAME>_<KEY>.
func (c *Config) applyParamEnv(env map[string]string, keys []string, byNorm map[string]string, set func(string, any)) error {
	arrays := map[string]map[int]string{}
	var unknown []string
	for _, k := range keys {
		rest, ok := strings.CutPrefix(k, "PARAM_")
		if !ok {
			continue
		}
		v := env[k]
		switch {
		case rest == "PLAN" || rest == "PLANS":
			c.Spec.Plans = splitList(v)
		case rest == "TARGET":
			c.Spec.Target = v
		case byNorm[rest] != "":
			set(byNorm[rest], v)
		case strings.HasPrefix(rest, "PARAMS_") && byNorm[strings.TrimPrefix(rest, "PARAMS_")] != "":
			set(byNorm[strings.TrimPrefix(rest, "PARAMS_")], v)
		default:
			if m := paramEnvRE.FindStringSubmatch(k); m != nil && m[2] != "" {
				i, _ := strconv.Atoi(m[2])
				if arrays[m[1]] == nil {
					arrays[m[1]] = map[int]string{}
				}
				arrays[m[1]][i] = v
				continue
			}
			unknown = append(unknown, k)
		}
	}
	for name, items := range arrays {
		idx := make([]int, 0, len(items))
		for i := range items {
			idx = append(idx, i)
		}
		sort.Ints(idx)
		var list []any
		for _, i := range idx {
			list = append(list, items[i])
		}
		switch {
		case name == "PLAN" || name == "PLANS":
			c.Spec.Plans = nil
			for _, x := range list {
				c.Spec.Plans = append(c.Spec.Plans, x.(string))
			}
		case byNorm[name] != "":
			set(byNorm[name], list)
		default:
			for i := range items {
				unknown = append(unknown, fmt.Sprintf("PARAM_%s_%d", name, i))
			}
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("plugin parameters that the package does not define: %s", strings.Join(unknown, ", "))
	}
	return nil
}

var nonAlnum = regexp.MustCompile(`[^A-Z0-9]+`)

// normalize is Argo CD's environment-variable form of a parameter name.
func normalize(s string) string { return nonAlnum.ReplaceAllString(strings.ToUpper(s), "_") }

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// valueNode turns a value into a parameter node.
func valueNode(v any) Node {
	if s, ok := v.(string); ok {
		return StringNode(s)
	}
	var n yaml.Node
	_ = n.Encode(v)
	return n
}

// Announce lists a package's parameters the way Argo CD's dynamic
// parameters command expects them.
func Announce(b *bundle.Bundle) []ArgoAnnouncement {
	out := make([]ArgoAnnouncement, 0, len(b.Params))
	for _, p := range b.Params {
		a := ArgoAnnouncement{Name: p.Name, Title: p.DisplayName, Tooltip: strings.TrimSpace(p.Description), Required: p.Required && !p.HasDefault()}
		if a.Title == "" {
			a.Title = p.Name
		}
		switch p.Type {
		case bundle.TypeInteger, bundle.TypeNumber:
			a.ItemType = "number"
		case bundle.TypeBoolean:
			a.ItemType = "boolean"
		default:
			a.ItemType = "string"
		}
		switch p.Type {
		case bundle.TypeArray:
			a.CollectionType = "array"
			a.ItemType = "string"
			if l, ok := p.Default.([]any); ok {
				for _, x := range l {
					s, _ := params.Text(x)
					a.Array = append(a.Array, s)
				}
			}
		case bundle.TypeMap:
			a.CollectionType = "map"
			a.ItemType = "string"
			if m, ok := p.Default.(map[string]any); ok {
				a.Map = map[string]string{}
				for k, x := range m {
					s, _ := params.Text(x)
					a.Map[k] = s
				}
			}
		default:
			a.String, _ = params.Text(p.Default)
		}
		out = append(out, a)
	}
	return out
}
