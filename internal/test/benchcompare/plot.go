package main

import (
	"fmt"
	"math"
	"strings"
)

// plot is an SVG of the scaling series: wall time and peak memory against
// the number of instances, both axes logarithmic.
func plot(rows []row) string {
	const w, h, pad = 560, 320, 60
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="%d" y="20" text-anchor="middle">kudo-render KRM function: zookeeper Instance items (log-log)</text>`+"\n", w/2)
	x := func(n int) float64 { return pad + (math.Log10(float64(n))-1)/2*(w-2*pad) }
	series := []struct {
		name, color string
		val         func(r row) float64
		unit        string
	}{
		{"wall time (s)", "#1f77b4", func(r row) float64 { return r.kr.wall.Seconds() }, "s"},
		{"peak memory (GiB)", "#d62728", func(r row) float64 { return float64(r.kr.rss) / (1 << 30) }, "GiB"},
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, r := range rows {
			v := math.Log10(s.val(r))
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if hi-lo < 1 {
		hi = lo + 1
	}
	y := func(v float64) float64 { return h - pad - (math.Log10(v)-lo)/(hi-lo)*(h-2*pad) }
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", pad, h-pad, w-pad, h-pad)
	for _, r := range rows {
		fmt.Fprintf(&b, `<text x="%.0f" y="%d" text-anchor="middle">%d</text>`+"\n", x(r.instances), h-pad+18, r.instances)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">instances</text>`+"\n", w/2, h-12)
	for i, s := range series {
		var pts []string
		for _, r := range rows {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(r.instances), y(s.val(r))))
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/><text x="%.1f" y="%.1f" fill="%s">%.3g %s</text>`+"\n",
				x(r.instances), y(s.val(r)), s.color, x(r.instances)+6, y(s.val(r))-6, s.color, s.val(r), s.unit)
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), s.color)
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s">%s</text>`+"\n", pad+10, 40+16*i, s.color, s.name)
	}
	b.WriteString("</svg>\n")
	return b.String()
}
