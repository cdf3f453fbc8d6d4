package tmpl

import (
	"bytes"
	"sync/atomic"

	"github.com/kudo-render/kudo-render/internal/par"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// Rendered text of at least minParallelText bytes is decoded on all
// cores, in parts of about partBytes that start at a document marker
// (variables for tests).
var (
	minParallelText = 256 << 10
	partBytes       = 64 << 10
)

// part is a run of whole documents of the rendered text, from line
// offset+1 on.
type part struct {
	text   []byte
	offset int
}

// decodeParallel decodes large rendered text in parts on all cores. It
// answers only when every part decoded: on any error (or a stream it does
// not split, see splitDocuments) it returns false, and Decode decodes the
// whole text in one pass, which reports the error exactly as before
// (including aliases to another document's anchors, which go-yaml
// resolves across a stream). Values count against one shared
// --max-yaml-values budget, so memory stays bounded as in one pass.
func decodeParallel(out *Output, vb *valueBudget) (docs []Doc, used int64, ok bool) {
	if len(out.Text) < minParallelText {
		return nil, 0, false
	}
	parts := splitDocuments(out.Text, partBytes)
	if len(parts) < 2 {
		return nil, 0, false
	}
	out.lineStarts() // computed once, here: the parts only read it
	var shared atomic.Int64
	shared.Store(vb.max)
	var failed atomic.Bool
	results := make([][]Doc, len(parts))
	par.Do(len(parts), func(i int) {
		if failed.Load() {
			return
		}
		docs, err := decodeDocs(out, parts[i].text, parts[i].offset, vb.pass(), &shared)
		if err != nil {
			failed.Store(true)
			return
		}
		results[i] = docs
	})
	if failed.Load() {
		return nil, 0, false
	}
	used = vb.max - shared.Load()
	n := 0
	for _, r := range results {
		n += len(r)
	}
	if n == 0 {
		return nil, used, true // as one pass: no documents is nil
	}
	docs = make([]Doc, 0, n)
	for _, r := range results {
		docs = append(docs, r...)
	}
	return docs, used, true
}

// splitDocuments cuts text into parts of at least size bytes, each
// starting at a line that begins with the document marker "---" (at
// column 0 it always starts a document: in any other place go-yaml
// refuses it, and so does the part before it). It returns nil for text
// with a directive ('%' at column 0) or a document end marker ("..."),
// which can carry meaning from one document to the next. Lines end where
// go-yaml ends them (a bare CR, NEL, LS and PS end a line too), so each
// part's offset is the line go-yaml gives its first line in the whole
// text.
func splitDocuments(text []byte, size int) []part {
	var parts []part
	start, startLine, line := 0, 0, 0
	for i := 0; i < len(text); {
		next := strictyaml.NextLine(text, i)
		l := text[i:next]
		switch {
		case len(l) > 0 && l[0] == '%', marker(l, "..."):
			return nil
		case marker(l, "---") && i-start >= size:
			parts = append(parts, part{text: text[start:i], offset: startLine})
			start, startLine = i, line
		}
		line++
		i = next
	}
	return append(parts, part{text: text[start:], offset: startLine})
}

// marker tells whether line starts with the document marker m followed by
// a blank, a line break (any go-yaml reads) or the end.
func marker(line []byte, m string) bool {
	if !bytes.HasPrefix(line, []byte(m)) {
		return false
	}
	if len(line) == len(m) {
		return true
	}
	return line[len(m)] == ' ' || line[len(m)] == '\t' || strictyaml.BreakLen(line, len(m)) > 0
}
