package argocd

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/suggest"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// ConfigFileName is the FunctionConfig file the Argo CD plugin discovers
// and reads in the application's folder.
const ConfigFileName = "kudo-render.yaml"

// Parameter is one entry of ARGOCD_APP_PARAMETERS.
type Parameter struct {
	Name   string            `json:"name"`
	String *string           `json:"string,omitempty"`
	Array  []string          `json:"array,omitempty"`
	Map    map[string]string `json:"map,omitempty"`
}

// Announcement is one parameter announced to Argo CD (the output of
// the plugin's dynamic parameters command).
type Announcement struct {
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

// Settings is what Argo CD's environment says about a render.
type Settings struct {
	// Name and Namespace are ARGOCD_APP_NAME and ARGOCD_APP_NAMESPACE,
	// the defaults of the instance name and namespace.
	Name, Namespace string
	// Plans is nil when nothing sets them.
	Plans []string
	// Target is "" when nothing sets it.
	Target string
	// Params are package parameters by name.
	Params map[string]any
	// KubeVersion is the Application's plugin env KUBE_VERSION (the
	// user's choice of target Kubernetes version), "" when unset.
	KubeVersion string
	// ClusterVersion is KUBE_VERSION, the version of the destination
	// cluster that Argo CD gives every build.
	ClusterVersion string
}

// FromEnv reads what Argo CD gives a config-management plugin:
// ARGOCD_APP_NAME (its name part, see [InstanceName]) and
// ARGOCD_APP_NAMESPACE; ARGOCD_ENV_<NAME> (the Application's plugin env)
// for package parameters, PLAN and TARGET; then the Application's plugin
// parameters, from ARGOCD_APP_PARAMETERS (JSON) or, when that is unset,
// from the PARAM_* variables. Parameters named plan (or plans) and target
// set those; a map parameter named params sets package parameters; any
// other name is a package parameter.
//
// The Settings are never nil: on error they hold everything else the
// environment says, so the parameters announcement can still list the
// values with the error.
func FromEnv(environ []string, b *bundle.Bundle) (*Settings, error) {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	s := &Settings{Name: InstanceName(env["ARGOCD_APP_NAME"]), Namespace: env["ARGOCD_APP_NAMESPACE"], Params: map[string]any{}, ClusterVersion: env["KUBE_VERSION"]}
	byNorm := map[string]string{}
	for _, p := range b.Params {
		byNorm[normalize(p.Name)] = p.Name
	}
	keys := slices.Sorted(maps.Keys(env))
	envErr := s.applyEnv(env, keys, b, byNorm)
	var paramErr error
	if raw, ok := env["ARGOCD_APP_PARAMETERS"]; ok && strings.TrimSpace(raw) != "" {
		paramErr = s.applyParameters(raw)
	} else {
		paramErr = s.applyParamEnv(env, keys, byNorm)
	}
	return s, errors.Join(envErr, paramErr)
}

// InstanceName is the Application's name in ARGOCD_APP_NAME. Argo CD names
// an Application outside its own namespace ("apps in any namespace")
// <namespace>_<name> when it generates manifests (the Application's
// instance name) and <namespace>/<name> where the UI or the CLI qualify it
// (the parameters announcement). Neither a namespace nor an Application
// name can hold '_' or '/', so the name is what follows the first of them
// when what precedes it can be a namespace (a DNS-1123 label). Anything
// else is returned as it is, for the instance-name check to refuse it as
// Argo CD gave it.
func InstanceName(appName string) string {
	i := strings.IndexAny(appName, "_/")
	if i < 0 || i == len(appName)-1 || object.CheckLabel(appName[:i]) != nil {
		return appName
	}
	return appName[i+1:]
}

func (s *Settings) set(name string, v any) { s.Params[name] = v }

// pluginEnv are the names of the Application's plugin env that the
// plugin reads itself (as ARGOCD_ENV_<NAME>).
var pluginEnv = []string{"KUBE_VERSION", "PLAN", "PLANS", "TARGET"}

// applyEnv reads ARGOCD_ENV_* (the Application's plugin env). Every name
// is the user's choice: one that is neither a package parameter nor one of
// pluginEnv is a typo, refused like an unknown -p.
func (s *Settings) applyEnv(env map[string]string, keys []string, b *bundle.Bundle, byNorm map[string]string) error {
	var unknown []string
	defined := make(map[string]bool, len(b.Params))
	for _, p := range b.Params {
		defined[p.Name] = true
	}
	for _, k := range keys {
		name, ok := strings.CutPrefix(k, "ARGOCD_ENV_")
		if !ok {
			continue
		}
		switch {
		case name == "PLAN" || name == "PLANS":
			s.Plans = splitList(env[k])
		case name == "TARGET":
			s.Target = env[k]
		case name == "KUBE_VERSION":
			s.KubeVersion = env[k]
		case defined[name]:
			s.set(name, env[k])
		case byNorm[normalize(name)] != "":
			s.set(byNorm[normalize(name)], env[k])
		default:
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	known := slices.Clone(pluginEnv)
	for _, p := range b.Params {
		known = append(known, p.Name)
	}
	var msgs []string
	var sg suggest.Suggester
	for _, k := range unknown {
		// The user writes the name without the prefix Argo CD adds.
		name := strings.TrimPrefix(k, "ARGOCD_ENV_")
		msg := name + " (" + k + ") is neither a parameter of the package nor one of the plugin's variables (" + strings.Join(pluginEnv, ", ") + ")"
		if sug, ok := sg.Suggest(name, known); ok {
			msg += "; did you mean " + sug + "?"
		}
		msgs = append(msgs, msg)
	}
	return fmt.Errorf("the Application's plugin env: %s", strings.Join(msgs, "; "))
}

// applyParameters reads ARGOCD_APP_PARAMETERS.
func (s *Settings) applyParameters(raw string) error {
	var ps []Parameter
	if err := json.Unmarshal([]byte(raw), &ps); err != nil {
		return fmt.Errorf("cannot read ARGOCD_APP_PARAMETERS: %w", err)
	}
	var errs []error
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
		if err := s.applyParameter(p.Name, v); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (s *Settings) applyParameter(name string, v any) error {
	switch name {
	case "plan", "plans":
		switch t := v.(type) {
		case string:
			s.Plans = splitList(t)
		case []any:
			s.Plans = []string{}
			for _, x := range t {
				s.Plans = append(s.Plans, x.(string))
			}
		default:
			return fmt.Errorf("plugin parameter %s: want a string or an array", name)
		}
	case "target":
		t, ok := v.(string)
		if !ok {
			return fmt.Errorf("plugin parameter target: want a string")
		}
		s.Target = t
	case "params":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("plugin parameter params: want a map")
		}
		for k, x := range m {
			s.set(k, x)
		}
	default:
		s.set(name, v)
	}
	return nil
}

var paramEnvRE = lazy.Regexp(`^PARAM_(.+?)(?:_(\d+))?$`)

// applyParamEnv reads the PARAM_* variables Argo CD sets for plugin
// parameters. Their names are normalised (upper case, anything but
// letters and digits turned into _), so they are matched against the
// normalised names of the package's parameters; arrays come as
// PARAM_<NAME>_<INDEX> and maps as PARAM_<NAME>_<KEY>.
func (s *Settings) applyParamEnv(env map[string]string, keys []string, byNorm map[string]string) error {
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
			s.Plans = splitList(v)
		case rest == "TARGET":
			s.Target = v
		case byNorm[rest] != "":
			s.set(byNorm[rest], v)
		case strings.HasPrefix(rest, "PARAMS_") && byNorm[strings.TrimPrefix(rest, "PARAMS_")] != "":
			s.set(byNorm[strings.TrimPrefix(rest, "PARAMS_")], v)
		default:
			if m := paramEnvRE().FindStringSubmatch(k); m != nil && m[2] != "" {
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
	unknown = append(unknown, s.applyArrays(arrays, byNorm)...)
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	var msgs []string
	norms := slices.Sorted(maps.Keys(byNorm))
	for i, k := range unknown {
		msg := k + ": the package has no such parameter"
		if i < suggest.MaxSuggestions { // each compares k with every parameter
			msg += paramEnvSuggestion(k, byNorm, norms)
		}
		msgs = append(msgs, msg)
	}
	return fmt.Errorf("plugin parameters: %s", strings.Join(msgs, "; "))
}

// paramEnvSuggestion is "; did you mean <name> (<variable>)?" for a PARAM_*
// variable of an unknown name close to a known one: the name as the user
// writes it in plugin.parameters, and the variable Argo CD makes of it.
func paramEnvSuggestion(k string, byNorm map[string]string, sorted []string) string {
	rest := strings.TrimPrefix(k, "PARAM_")
	index := ""
	if m := paramEnvRE().FindStringSubmatch(k); m != nil && m[2] != "" {
		rest, index = m[1], "_"+m[2]
	}
	prefix := ""
	if r, ok := strings.CutPrefix(rest, "PARAMS_"); ok && index == "" {
		rest, prefix = r, "PARAMS_" // a key of the params map
	}
	norms := sorted
	if prefix == "" && index == "" {
		norms = append(slices.Clip(sorted), "PLAN", "TARGET")
	}
	sug, ok := suggest.Closest(rest, norms)
	if !ok {
		return ""
	}
	name := byNorm[sug]
	switch {
	case name == "":
		name = strings.ToLower(sug)
	case prefix != "":
		name = "params." + name
	}
	return "; did you mean " + name + " (PARAM_" + prefix + sug + index + ")?"
}

// applyArrays sets the arrays of PARAM_<NAME>_<INDEX>; it returns the
// variables of unknown names.
func (s *Settings) applyArrays(arrays map[string]map[int]string, byNorm map[string]string) []string {
	var unknown []string
	for _, name := range slices.Sorted(maps.Keys(arrays)) {
		items := arrays[name]
		var list []any
		for _, i := range slices.Sorted(maps.Keys(items)) {
			list = append(list, items[i])
		}
		switch {
		case name == "PLAN" || name == "PLANS":
			s.Plans = []string{}
			for _, x := range list {
				s.Plans = append(s.Plans, x.(string))
			}
		case byNorm[name] != "":
			s.set(byNorm[name], list)
		default:
			for i := range items {
				unknown = append(unknown, fmt.Sprintf("PARAM_%s_%d", name, i))
			}
		}
	}
	return unknown
}

var nonAlnum = lazy.Regexp(`[^A-Z0-9]+`)

// normalize is Argo CD's environment-variable form of a parameter name.
func normalize(s string) string { return nonAlnum().ReplaceAllString(strings.ToUpper(s), "_") }

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Announce lists a package's parameters the way Argo CD's dynamic
// parameters command expects them, with the package's defaults.
func Announce(b *bundle.Bundle) []Announcement {
	return announce(b, nil)
}

// AnnounceValues lists a package's parameters with the values a render
// uses: values (the FunctionConfig's spec.params with Argo CD's
// environment applied) over the package's defaults. A value the package
// refuses is shown as given; the error then says why, as the render would
// (with every other problem of values, an unknown name among them).
func AnnounceValues(b *bundle.Bundle, values map[string]any) ([]Announcement, error) {
	out := announce(b, values)
	_, err := params.Resolve(b.Params, values)
	return out, err
}

func announce(b *bundle.Bundle, values map[string]any) []Announcement {
	out := make([]Announcement, 0, len(b.Params))
	for _, p := range b.Params {
		v, given := values[p.Name]
		if given {
			// The value as templates see it (an array given as YAML
			// text is a list); one the package refuses as given.
			if r, err := params.Resolve([]*bundle.Param{p}, map[string]any{p.Name: v}); err == nil {
				v = r[p.Name]
			}
		} else {
			v = p.Default
		}
		a := Announcement{Name: p.Name, Title: p.DisplayName, Tooltip: strings.TrimSpace(p.Description), Required: p.NeedsValue() && !given}
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
			if l, ok := v.([]any); ok {
				for _, x := range l {
					s, _ := params.Text(x)
					a.Array = append(a.Array, s)
				}
			}
		case bundle.TypeMap:
			a.CollectionType = "map"
			a.ItemType = "string"
			if m, ok := v.(map[string]any); ok {
				a.Map = map[string]string{}
				for k, x := range m {
					s, _ := params.Text(x)
					a.Map[k] = s
				}
			}
		default:
			a.String, _ = params.Text(v)
		}
		out = append(out, a)
	}
	return out
}

// ProblemParameter names the announcement entry that carries the problems
// of an Application's settings (see [Problem]).
const ProblemParameter = "kudo-render-error"

// Problem is the announcement entry of what keeps the plugin from
// rendering an Application (a mistyped plugin env or parameter, a value
// the package refuses). Argo CD shows nothing of an announcement whose
// command fails, so the parameters are announced with this entry ahead of
// them: the UI shows its title and, as its value, the error on one line;
// the tooltip keeps the lines.
func Problem(err error) Announcement {
	msg := err.Error()
	return Announcement{
		Name:    ProblemParameter,
		Title:   "ERROR: kudo-render cannot render this Application (generate fails)",
		Tooltip: msg,
		String:  strings.Join(strings.Split(msg, "\n"), "; "),
	}
}
