package bundle

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/suggest"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

const (
	operatorFile  = "operator.yaml"
	frameworkFile = "framework.yaml"
	paramsFile    = "params.yaml"
	templatesDir  = "templates"
	commonDir     = "common"
	// definitionsDir holds extension resource definitions.
	definitionsDir = "definitions"
	// paramsSchemaFile is the JSON Schema of the parameters.
	paramsSchemaFile = "params.schema.json"
	// BasePrefix marks a reference to the base of an extension (KEP-0012).
	BasePrefix = "base/"
)

// LoadDir loads the bundle in the folder dir. Files are read through an
// [os.Root], so a symbolic link that leaves dir is an error.
func LoadDir(dir string) (*Bundle, error) {
	name := filepath.Base(filepath.Clean(dir))
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, &LoadError{Framework: name, Problems: []*FieldError{{File: dir, Msg: err.Error()}}}
	}
	defer root.Close()
	return Load(root.FS(), name)
}

// Load loads a bundle from fsys, whose root is the bundle's folder. name is
// used in messages until the bundle's own name is known.
func Load(fsys fs.FS, name string) (*Bundle, error) {
	var p problems
	b := &Bundle{Name: name}
	hasOp, hasFw := exists(fsys, operatorFile, &p), exists(fsys, frameworkFile, &p)
	switch {
	case hasOp && hasFw:
		p.Add(".", 0, "", "both %s and %s exist; a bundle has exactly one", operatorFile, frameworkFile)
	case hasOp:
		b.Format, b.File = FormatKUDO, operatorFile
		loadOperator(fsys, b, &p)
	case hasFw:
		b.Format, b.File = FormatFramework, frameworkFile
		loadFramework(fsys, b, &p)
	default:
		p.Add(".", 0, "", "neither %s nor %s found: not a KUDO package or framework bundle", operatorFile, frameworkFile)
	}
	if b.Format != "" {
		// Read every file even when the metadata file has problems, so
		// that one run reports them all.
		metaOK := len(p.Errors()) == 0
		loadParams(fsys, b, &p)
		b.Templates = readTree(fsys, templatesDir, b, &p)
		b.Common = readTree(fsys, commonDir, b, &p)
		b.Definitions = readTree(fsys, definitionsDir, b, &p)
		for _, f := range slices.Sorted(maps.Keys(b.Unread)) {
			if !strings.HasPrefix(f, templatesDir+"/") { // common/ and definitions/ are always used
				p.Add(f, 0, "", "%s", b.Unread[f])
			}
		}
		if exists(fsys, paramsSchemaFile, &p) {
			b.ParamsSchema = readFile(fsys, paramsSchemaFile, &p)
		}
		if metaOK && len(p.Errors()) == 0 {
			validate(b, &p)
		}
	}
	if errs := p.Errors(); len(errs) > 0 {
		return nil, &LoadError{Framework: cmp.Or(b.Name, name), Problems: errs}
	}
	b.Warnings = p.Warnings()
	return b, nil
}

// Size is the bytes [Load] would read from fsys: the metadata file,
// params.yaml, params.schema.json and the files of templates/, common/
// and definitions/, each counted at most limits.FileBytes (a larger file
// is not read). It reads only the sizes of the files (their metadata),
// never their bytes, so a caller can charge a package to a budget before
// loading it; what cannot be read counts nothing (Load reports it).
func Size(fsys fs.FS) int64 {
	max := limits.Current().FileBytes
	size := func(name string) int64 {
		info, err := fs.Stat(fsys, name) // links followed inside fsys
		if err != nil || !info.Mode().IsRegular() {
			return 0
		}
		return min(info.Size(), max)
	}
	var n int64
	for _, f := range []string{operatorFile, frameworkFile, paramsFile, paramsSchemaFile} {
		n += size(f)
	}
	for _, dir := range []string{templatesDir, commonDir, definitionsDir} {
		_ = fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if d.Type().IsRegular() {
				if info, err := d.Info(); err == nil {
					n += min(info.Size(), max)
				}
				return nil
			}
			n += size(name)
			return nil
		})
	}
	return n
}

// exists reports whether the bundle has the file name. A symbolic link
// that leaves the bundle, or points to nothing, is there but cannot be
// read: it is a problem, never "absent".
func exists(fsys fs.FS, name string, p *problems) bool {
	_, err := fs.Stat(fsys, name)
	switch {
	case err == nil:
		return true
	case !errors.Is(err, fs.ErrNotExist):
		p.Add(name, 0, "", "cannot read: %s", symlinkHint(err))
		return false
	}
	if lfs, ok := fsys.(fs.ReadLinkFS); ok {
		if _, err := lfs.Lstat(name); err == nil {
			p.Add(name, 0, "", "cannot read: symbolic link points outside the bundle or to nothing")
		}
	}
	return false
}

// readFile reads a file of the bundle, at most limits.FileBytes.
func readFile(fsys fs.FS, name string, p *problems) []byte {
	data, err := readBounded(fsys, name)
	if err != nil {
		var le *diag.LimitError
		if errors.As(err, &le) {
			p.Add(name, 0, "", "%s", le.Error())
		} else {
			p.Add(name, 0, "", "cannot read: %s", symlinkHint(err))
		}
		return nil
	}
	return data
}

// readBounded reads name, refusing more than limits.FileBytes before
// reading them. What is not a regular file is not opened: a named pipe
// would block the process until a writer came (links are followed inside
// fsys).
func readBounded(fsys fs.FS, name string) ([]byte, error) {
	max := limits.Current().FileBytes
	if info, err := fs.Stat(fsys, name); err == nil && !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file (a named pipe, a device or a folder): only regular files are read")
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > max {
		return nil, limits.Err("file-bytes", max, "")
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, limits.Err("file-bytes", max, "")
	}
	return data, nil
}

// cleanFSError drops the operation and path that fs errors repeat.
func cleanFSError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func loadOperator(fsys fs.FS, b *Bundle, p *problems) {
	data := readFile(fsys, operatorFile, p)
	if data == nil {
		return
	}
	n := strictyaml.Parse(operatorFile, data, p)
	var raw rawOperator
	if n == nil {
		return
	}
	ok := strictyaml.DecodeLenient(operatorFile, n, &raw, p) // KUDO ignored unknown fields
	if raw.Name != "" {
		b.Name = raw.Name // for messages, even when decoding found problems
	}
	if !ok {
		return
	}
	b.Version, b.AppVersion, b.KudoVersion = raw.OperatorVersion, raw.AppVersion, raw.KudoVersion
	b.KubernetesVersion, b.Description, b.URL = raw.KubernetesVersion, raw.Description, raw.URL
	b.Extends = raw.Extends
	for _, m := range raw.Maintainers {
		b.Maintainers = append(b.Maintainers, Maintainer(m))
	}
	if raw.Name == "" {
		p.Add(operatorFile, strictyaml.LineOf(n, "name"), "name", "is required")
	}
	if raw.OperatorVersion == "" {
		p.Add(operatorFile, strictyaml.LineOf(n, "operatorVersion"), "operatorVersion", "is required")
	}
	if raw.NamespaceManifest != "" {
		p.Add(operatorFile, strictyaml.LineOf(n, "namespaceManifest"), "namespaceManifest", "is not supported: GitOps tools create the namespace (for example Argo CD's CreateNamespace=true)")
	}
	for i, rt := range raw.Tasks {
		s := rt.Spec
		t := &Task{
			Name: rt.Name, Kind: rt.Kind, Resources: s.Resources, Parameter: s.Parameter,
			Pod: s.Pod, Pipe: s.Pipe, Done: s.Done, WantErr: s.WantErr,
			Pos: Pos{File: operatorFile, Line: rt.line},
		}
		if rt.Kind == KindKudoOperator {
			t.Operator = &KudoOperatorSpec{
				Package: s.Package, AppVersion: s.AppVersion, OperatorVersion: s.OperatorVersion,
				InstanceName: s.InstanceName, ParameterFile: s.ParameterFile,
			}
		}
		checkTaskSpec(t, fieldf("tasks[%d]", i), s, p)
		b.Tasks = append(b.Tasks, t)
	}
	for _, name := range sortedKeys(raw.Plans) {
		rp := raw.Plans[name]
		pl := &Plan{Name: name, Strategy: rp.Strategy, StrategyLine: rp.strategyLine, Pos: Pos{File: operatorFile, Line: rp.line}}
		for _, ph := range rp.Phases {
			phase := &Phase{Name: ph.Name, Strategy: ph.Strategy, StrategyLine: ph.strategyLine}
			for _, st := range ph.Steps {
				phase.Steps = append(phase.Steps, &Step{Name: st.Name, Tasks: st.Tasks, TaskLines: st.taskLines})
			}
			pl.Phases = append(pl.Phases, phase)
		}
		b.Plans = append(b.Plans, pl)
	}
}

// checkTaskSpec reports spec fields that the task's kind does not use.
func checkTaskSpec(t *Task, field string, s rawKudoTaskSpec, p *problems) {
	used := map[string]bool{
		"resources": len(s.Resources) > 0, "parameter": s.Parameter != "", "pod": s.Pod != "",
		"pipe": len(s.Pipe) > 0, "done": s.Done, "wantErr": s.WantErr, "package": s.Package != "",
		"appVersion": s.AppVersion != "", "operatorVersion": s.OperatorVersion != "",
		"instanceName": s.InstanceName != "", "parameterFile": s.ParameterFile != "",
	}
	allowed := map[string][]string{
		KindApply:        {"resources"},
		KindDelete:       {"resources"},
		KindToggle:       {"resources", "parameter"},
		KindPipe:         {"pod", "pipe"},
		KindDummy:        {"done", "wantErr"},
		KindKudoOperator: {"package", "appVersion", "operatorVersion", "instanceName", "parameterFile"},
	}
	ok, known := allowed[t.Kind]
	if !known {
		return // reported by validate
	}
	for _, f := range sortedKeys(used) {
		if used[f] && !slices.Contains(ok, f) {
			p.Add(t.Pos.File, t.Pos.Line, field+".spec."+f, "is not used by a %s task (task %q)", t.Kind, t.Name)
		}
	}
}

func loadFramework(fsys fs.FS, b *Bundle, p *problems) {
	data := readFile(fsys, frameworkFile, p)
	if data == nil {
		return
	}
	n := strictyaml.Parse(frameworkFile, data, p)
	var raw rawFramework
	if n == nil {
		return
	}
	ok := strictyaml.Decode(frameworkFile, n, &raw, p)
	if raw.Name != "" || raw.Extends != nil {
		b.Name = raw.Name // an extension without a name takes its base's
	}
	if !ok {
		return
	}
	b.Version, b.AppVersion, b.KudoVersion = raw.Version, raw.AppVersion, raw.KudoVersion
	b.KubernetesVersion = raw.KubernetesVersion
	if b.KubernetesVersion == "" {
		b.KubernetesVersion = raw.KubeVersion
	}
	b.Description, b.URL, b.Extends = raw.Description, raw.URL, raw.Extends
	for _, m := range raw.Maintainers {
		b.Maintainers = append(b.Maintainers, Maintainer(m))
	}
	if raw.Name == "" && raw.Extends == nil {
		p.Add(frameworkFile, strictyaml.LineOf(n, "name"), "name", "is required")
	}
	if raw.Version == "" {
		p.Add(frameworkFile, strictyaml.LineOf(n, "version"), "version", "is required")
	}
	for _, name := range sortedKeys(raw.Tasks) {
		rt := raw.Tasks[name]
		kind := rt.Kind
		if kind == "" {
			kind = KindApply
		}
		t := &Task{
			Name: name, Kind: kind, Parameter: rt.Parameter, From: rt.From,
			Resources: rt.Resources, PatchesStrategicMerge: rt.PatchesStrategicMerge,
			Pos: Pos{File: frameworkFile, Line: rt.line},
		}
		for _, field := range []struct {
			name  string
			nodes []yaml.Node
		}{{"patches", rt.Patches}, {"patch", rt.Patch}, {"path", rt.Path}} {
			for i := range field.nodes {
				if pt, ok := convertPatch(&field.nodes[i], fieldf("tasks.%s.%s[%d]", name, field.name, i), p); ok {
					t.Patches = append(t.Patches, pt)
				}
			}
		}
		if kind != KindApply && kind != KindToggle && kind != KindDelete {
			p.Add(frameworkFile, rt.line, "tasks."+name+".kind", "must be Apply, Delete or Toggle in a framework bundle, got %q%s",
				kind, suggest.DidYouMean(kind, []string{KindApply, KindDelete, KindToggle}))
		}
		if rt.Parameter != "" && (kind == KindApply || kind == KindDelete) { // an unknown kind is reported above
			p.Add(frameworkFile, rt.line, "tasks."+name+".parameter", "is only used by Toggle tasks")
		}
		b.Tasks = append(b.Tasks, t)
	}
	for _, name := range sortedKeys(raw.Plans) {
		rp := raw.Plans[name]
		// A KEP-0009 plan is a list of serial steps: one serial phase
		// named after the plan.
		phase := &Phase{Name: name, Strategy: StrategySerial}
		for _, st := range rp.Steps {
			phase.Steps = append(phase.Steps, &Step{Name: st.Name, Tasks: st.Tasks, TaskLines: st.taskLines, Delete: st.Delete})
		}
		b.Plans = append(b.Plans, &Plan{
			Name: name, Strategy: StrategySerial, Phases: []*Phase{phase}, From: rp.From,
			Pos: Pos{File: frameworkFile, Line: rp.line},
		})
	}
}

func loadParams(fsys fs.FS, b *Bundle, p *problems) {
	if !exists(fsys, paramsFile, p) {
		return
	}
	data := readFile(fsys, paramsFile, p)
	if data == nil {
		return
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return
	}
	n := strictyaml.Parse(paramsFile, data, p)
	if n == nil {
		return
	}
	if b.Format == FormatKUDO {
		var raw rawParamsFile
		if !strictyaml.DecodeLenient(paramsFile, n, &raw, p) { // KUDO ignored unknown fields
			return
		}
		b.Groups = raw.Groups
		items := n
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "parameters" {
				items = n.Content[i+1]
			}
		}
		for i, rp := range raw.Parameters {
			var node *yaml.Node
			if i < len(items.Content) {
				node = items.Content[i]
			}
			b.Params = append(b.Params, convertParam(rp, fieldf("parameters[%d]", i), node, p))
		}
		return
	}
	// KEP-0009: a map of parameter name to definition, in file order.
	if n.Kind != yaml.MappingNode {
		p.Add(paramsFile, n.Line, "", "expected a mapping of parameter name to definition")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var rp rawParam
		before := len(p.List)
		ok := strictyaml.Decode(paramsFile, v, &rp, p)
		for _, pr := range p.List[before:] {
			// problems inside the parameter name it
			if pr.Field == "" {
				pr.Field = k.Value
			} else {
				pr.Field = k.Value + "." + pr.Field
			}
		}
		if !ok {
			continue
		}
		if rp.Name != "" && rp.Name != k.Value {
			p.Add(paramsFile, k.Line, k.Value+".name", "differs from the key %q", k.Value)
		}
		rp.Name = k.Value
		prm := convertParam(rp, k.Value, v, p)
		prm.Pos.Line = k.Line
		b.Params = append(b.Params, prm)
	}
}

func convertParam(rp rawParam, field string, node *yaml.Node, p *problems) *Param {
	line := 0
	if node != nil {
		line = node.Line
	}
	prm := &Param{
		Name: rp.Name, DisplayName: rp.DisplayName, Description: rp.Description, Hint: rp.Hint,
		Group: rp.Group, Trigger: rp.Trigger, Type: ParamType(rp.Type),
		Pos:    Pos{File: paramsFile, Line: line},
		Fields: map[string]bool{},
	}
	if node != nil && node.Kind == yaml.MappingNode {
		for i := 0; i < len(node.Content); i += 2 {
			prm.Fields[node.Content[i].Value] = true
		}
	}
	if prm.Type == "" {
		prm.Type = TypeString
	}
	if !slices.Contains(ParamTypes, prm.Type) {
		p.Add(paramsFile, cmp.Or(typeLine(node), line), field+".type", "unknown type %q%s", rp.Type, typeHint(rp.Type))
	}
	if rp.Immutable != nil {
		prm.Immutable = *rp.Immutable
	}
	var err error
	if prm.Default, err = strictyaml.Value(&rp.Default); err != nil {
		p.Add(paramsFile, rp.Default.Line, field+".default", "%v", err)
	}
	if prm.Default != nil {
		prm.DefaultPos = Pos{File: paramsFile, Line: rp.Default.Line, Field: field + ".default"}
	}
	if rp.Enum != nil {
		prm.Enum = []any{} // an empty enum is kept, so that verify can report it
	}
	for i := range rp.Enum {
		v, err := strictyaml.Value(&rp.Enum[i])
		if err != nil {
			p.Add(paramsFile, rp.Enum[i].Line, fieldf("%s.enum[%d]", field, i), "%v", err)
		}
		prm.Enum = append(prm.Enum, v)
	}
	if rp.Required != nil {
		prm.Required = *rp.Required
	} else {
		prm.Required = !prm.HasDefault()
	}
	if prm.Name == "" {
		p.Add(paramsFile, line, field+".name", "is required")
	}
	return prm
}

// readTree reads every file below dir, keyed by its path relative to dir.
// A missing dir is an empty tree.
// readTree reads every file below dir. A file larger than
// limits.FileBytes is not read: it is recorded in b.Unread, and is an
// error only when the package uses it, so a huge file nobody uses costs
// nothing. Symbolic links that leave the bundle are errors.
func readTree(fsys fs.FS, dir string, b *Bundle, p *problems) map[string][]byte {
	out := map[string][]byte{}
	if _, err := fs.Stat(fsys, dir); errors.Is(err, fs.ErrNotExist) {
		return out
	}
	err := fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			p.Add(name, 0, "", "cannot read: %s", symlinkHint(err))
			return nil
		}
		if d.IsDir() || !treeEntryOK(fsys, name, d, p) {
			return nil
		}
		key := strings.TrimPrefix(name, dir+"/")
		data, err := readBounded(fsys, name)
		var le *diag.LimitError
		switch {
		case errors.As(err, &le):
			if b.Unread == nil {
				b.Unread = map[string]string{}
			}
			b.Unread[name] = le.Error()
		case err != nil:
			p.Add(name, 0, "", "cannot read: %s", symlinkHint(err))
		default:
			out[key] = data
		}
		return nil
	})
	if err != nil {
		p.Add(dir, 0, "", "cannot read: %s", symlinkHint(err))
	}
	return out
}

// treeEntryOK checks an entry of a tree: a regular file, or a symbolic
// link to one inside the bundle.
func treeEntryOK(fsys fs.FS, name string, d fs.DirEntry, p *problems) bool {
	switch {
	case d.Type()&fs.ModeSymlink != 0:
		info, err := fs.Stat(fsys, name)
		if err != nil {
			p.Add(name, 0, "", "symbolic link points outside the bundle or to nothing: %s", cleanFSError(err))
			return false
		}
		if info.IsDir() {
			p.Add(name, 0, "", "symbolic link to a folder is not supported")
			return false
		}
	case !d.Type().IsRegular():
		p.Add(name, 0, "", "not a regular file")
		return false
	}
	return true
}

func symlinkHint(err error) string {
	msg := cleanFSError(err)
	if strings.Contains(msg, "escapes") {
		return "symbolic link points outside the bundle"
	}
	return msg
}

// CheckRef reports whether ref is a clean relative path that stays inside
// its folder.
func CheckRef(ref string) error {
	switch {
	case ref == "":
		return errors.New("empty file name")
	case path.IsAbs(ref) || filepath.IsAbs(ref) || strings.HasPrefix(ref, `\`):
		return errors.New("absolute paths are not allowed")
	case !fs.ValidPath(ref) || strings.Contains(ref, `\`):
		return errors.New(`must be a clean relative path without ".." (paths may not leave the bundle)`)
	}
	return nil
}

// convertPatch reads a `patches` entry: a file name, or {path, target}.
func convertPatch(n *yaml.Node, field string, p *problems) (Patch, bool) {
	if n.Kind == yaml.ScalarNode {
		return Patch{Path: n.Value}, true
	}
	var pt Patch
	before := len(p.List)
	strictyaml.Decode(frameworkFile, n, &pt, p)
	for _, pr := range p.List[before:] {
		if pr.Field == "" {
			pr.Field = field
		} else {
			pr.Field = field + "." + pr.Field
		}
	}
	if pt.Path == "" {
		p.Add(frameworkFile, n.Line, field+".path", "is required")
	}
	return pt, len(p.List) == before
}

// ParamTypes lists the types a parameter may declare.
var ParamTypes = []ParamType{TypeString, TypeInteger, TypeNumber, TypeBoolean, TypeArray, TypeMap}

// typeAliases are the names other languages give the parameter types.
var typeAliases = map[string]ParamType{
	"int": TypeInteger, "bool": TypeBoolean, "float": TypeNumber, "double": TypeNumber,
	"list": TypeArray, "object": TypeMap, "dict": TypeMap, "str": TypeString,
}

// typeHint ends the message refusing the parameter type t: a "did you
// mean" when a type is close, else the list of types.
func typeHint(t string) string {
	if a, ok := typeAliases[strings.ToLower(t)]; ok {
		return fmt.Sprintf("; did you mean %q?", a)
	}
	names := make([]string, len(ParamTypes))
	for i, pt := range ParamTypes {
		names[i] = string(pt)
	}
	return wantOneOf(t, names)
}

// typeLine is the line of a parameter's `type`, 0 when unknown.
func typeLine(node *yaml.Node) int {
	if node == nil {
		return 0
	}
	return valueLine(node, "type")
}
