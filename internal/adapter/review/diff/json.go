package diff

import (
	"encoding/json"
)

type jsonReport struct {
	Summary  Counts        `json:"summary"`
	Objects  []jsonObject  `json:"objects"`
	Warnings []jsonWarning `json:"warnings,omitempty"`
}

type jsonWarning struct {
	Text    string    `json:"text"`
	Status  Status    `json:"status"`
	Objects []jsonKey `json:"objects"`
}

type jsonKey struct {
	Group     string `json:"group"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

type jsonObject struct {
	Group        string      `json:"group"`
	Kind         string      `json:"kind"`
	Namespace    string      `json:"namespace,omitempty"`
	Name         string      `json:"name"`
	APIVersion   string      `json:"apiVersion"`
	Status       Status      `json:"status"`
	Wave         int         `json:"wave"`
	Hook         bool        `json:"hook"`
	Moves        []jsonMove  `json:"moves,omitempty"`
	Fields       []jsonField `json:"fields,omitempty"`
	HiddenFields int         `json:"hiddenFields,omitempty"`
	Object       string      `json:"object,omitempty"`
	Update       *jsonUpdate `json:"update,omitempty"`
}

// jsonUpdate is an update the API server refuses: failing unless
// recreatedBy says how the target recreates the object.
type jsonUpdate struct {
	Refused     []jsonRefusal `json:"refused"`
	RecreatedBy string        `json:"recreatedBy,omitempty"`
	Advice      string        `json:"advice,omitempty"`
}

type jsonRefusal struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

type jsonMove struct {
	What string `json:"what"`
	From string `json:"from"`
	To   string `json:"to"`
}

type jsonField struct {
	Path   string   `json:"path"`
	Op     Op       `json:"op"`
	From   *string  `json:"from,omitempty"`
	To     *string  `json:"to,omitempty"`
	Lines  []string `json:"lines,omitempty"`
	Masked bool     `json:"masked,omitempty"`
}

// JSON is the report for machines: a summary, then every object with its
// status, moves and changed fields (path, op, from, to; for long strings
// the changed lines), then the warnings on the objects (text, status:
// added, removed or unchanged, and the objects). Masked values are Hidden.
// It ends with a newline.
func (r *Report) JSON() ([]byte, error) {
	out := jsonReport{Summary: r.Counts(), Objects: []jsonObject{}}
	for _, o := range r.Objects {
		j := jsonObject{Group: o.Key.Group, Kind: o.Key.Kind, Namespace: o.Key.Namespace, Name: o.Key.Name,
			APIVersion: o.APIVersion, Status: o.Status, Wave: o.Wave, Hook: o.Hook, HiddenFields: o.HiddenFields, Object: o.Body}
		for _, m := range o.Moves {
			j.Moves = append(j.Moves, jsonMove(m))
		}
		for _, f := range o.Fields {
			j.Fields = append(j.Fields, jsonFieldOf(f))
		}
		if u := o.Update; u != nil {
			j.Update = &jsonUpdate{RecreatedBy: u.Recreated, Advice: u.Advice}
			for _, r := range u.Refused {
				j.Update.Refused = append(j.Update.Refused, jsonRefusal{Field: r.Field, Message: r.Msg})
			}
		}
		out.Objects = append(out.Objects, j)
	}
	for _, w := range r.Warnings {
		jw := jsonWarning{Text: w.Text, Status: w.Status}
		for _, k := range w.Objects {
			jw.Objects = append(jw.Objects, jsonKey(k))
		}
		out.Warnings = append(out.Warnings, jw)
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

func jsonFieldOf(f Field) jsonField {
	j := jsonField{Path: f.Path.String(), Op: f.Op, Masked: f.Masked}
	if f.Lines != nil {
		for _, l := range f.Lines {
			j.Lines = append(j.Lines, l.String())
		}
		return j
	}
	if f.Op != OpAdded {
		j.From = &f.From
	}
	if f.Op != OpRemoved {
		j.To = &f.To
	}
	return j
}
