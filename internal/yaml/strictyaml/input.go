package strictyaml

import (
	"bytes"
	"errors"
	"io"
	"iter"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// Every YAML text kudo-render reads from outside (package files, configs,
// the ResourceList on stdin, parameter values, imported KUDO objects)
// goes through [Parse], [Stream] or [Unmarshal], which check it in this
// order before anything walks its values:
//
//   - the characters ([CheckText]): a control character, invalid UTF-8
//     or a stray byte order mark is refused at its line and column;
//   - the size ([CheckStream]): a document that could hold more values
//     than --max-yaml-values is refused before it is parsed;
//   - the aliases ([CheckAliases]): a document that holds more values
//     than --max-yaml-values with its aliases expanded is refused at the
//     alias that takes it over, in time linear in its text.
//
// Their errors are *Problem values that carry the file, line and column.

// checkText is [CheckText] as a problem of file.
func checkText(file string, data []byte) *Problem {
	if te := CheckText(data); te != nil {
		return &Problem{File: file, Line: te.Line, Column: te.Column, Msg: te.Msg()}
	}
	return nil
}

// checkNode is [CheckAliases] against --max-yaml-values as a problem of
// file.
func checkNode(file string, n *yaml.Node) *Problem {
	if _, err := CheckAliases(n, limits.Current().YAMLValues); err != nil {
		return aliasProblem(file, err)
	}
	return nil
}

func aliasProblem(file string, err error) *Problem {
	var ae *AliasError
	if errors.As(err, &ae) {
		return &Problem{File: file, Line: ae.At.Line, Column: ae.At.Column, Msg: err.Error()}
	}
	return &Problem{File: file, Msg: err.Error()}
}

// Stream yields the document nodes of the YAML stream data, one at a
// time (a document without content too: its node has none), each checked
// as the package comment of this file says; file names data in errors.
// After an error it yields nothing more.
func Stream(file string, data []byte) iter.Seq2[*yaml.Node, error] {
	return func(yield func(*yaml.Node, error) bool) {
		if p := checkText(file, data); p != nil {
			yield(nil, p)
			return
		}
		if line, err := CheckStream(data, ""); err != nil {
			yield(nil, &Problem{File: file, Line: line, Msg: err.Error()})
			return
		}
		aliases := bytes.IndexByte(data, '*') >= 0 // an alias needs one
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var doc yaml.Node
			err := dec.Decode(&doc)
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				line, msg, _ := SyntaxLine(data, err)
				yield(nil, &Problem{File: file, Line: line, Msg: msg})
				return
			}
			if aliases {
				if p := checkNode(file, &doc); p != nil {
					yield(nil, p)
					return
				}
			}
			if !yield(&doc, nil) {
				return
			}
		}
	}
}

// Unmarshal is yaml.Unmarshal for text from outside: the first document
// of data, checked as [Stream] checks it, decoded into out. Errors are
// *Problem values of file (the first, for a decoding error with several).
func Unmarshal(file string, data []byte, out any) error {
	for doc, err := range Stream(file, data) {
		if err != nil {
			return err
		}
		var err error
		if v, ok := out.(*any); ok { // in linear time (DecodeAny)
			*v, err = DecodeAny(doc)
		} else {
			err = doc.Decode(out)
		}
		if err != nil {
			return YAMLErrors(file, err)[0]
		}
		return nil
	}
	return nil
}

// lastLine is the last line of data that holds a character: go-yaml
// places a problem it finds at the end of the text (an unclosed
// bracket) on the line after it.
func lastLine(data []byte) int {
	starts := LineStarts(data)
	n := len(starts)
	if n > 1 && starts[n-1] == len(data) {
		n--
	}
	return n
}
