package inittrace

import (
	"bufio"
	"bytes"
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Init is what one package's initialiser cost a process.
type Init struct {
	Package string
	Ms      float64 // clock time
	Bytes   int64   // allocated
	Allocs  int64
}

// line is one line of the trace:
// "init k8s.io/api/core/v1 @4.2 ms, 0.31 ms clock, 120536 bytes, 1130 allocs".
var line = regexp.MustCompile(`^init (\S+) @[0-9.]+ ms, ([0-9.]+) ms clock, ([0-9]+) bytes, ([0-9]+) allocs`)

// Parse reads the initialisers of a process's standard error, in the
// order they ran; other lines are skipped.
func Parse(stderr []byte) []Init {
	var out []Init
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ms, _ := strconv.ParseFloat(m[2], 64)
		b, _ := strconv.ParseInt(m[3], 10, 64)
		a, _ := strconv.ParseInt(m[4], 10, 64)
		out = append(out, Init{Package: m[1], Ms: ms, Bytes: b, Allocs: a})
	}
	return out
}

// Total adds up the initialisers.
func Total(inits []Init) Init {
	var t Init
	for _, i := range inits {
		t.Ms += i.Ms
		t.Bytes += i.Bytes
		t.Allocs += i.Allocs
	}
	return t
}

// Heaviest is the n initialisers that allocate most, most first.
func Heaviest(inits []Init, n int) []Init {
	s := slices.Clone(inits)
	slices.SortFunc(s, func(a, b Init) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), strings.Compare(a.Package, b.Package))
	})
	return s[:min(n, len(s))]
}
