package strictyaml

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Line breaks are counted as go-yaml's scanner counts them (is_break,
// skip_line): LF, CR and CRLF, and the YAML 1.1 breaks NEL (U+0085),
// LS (U+2028) and PS (U+2029), each one line. A bare CR is a line of its
// own, so "a\rb" is two lines and "a\r\r\nb" three. Every line number
// kudo-render derives from text itself (rather than from a node go-yaml
// made) is counted this way, so it agrees with the lines go-yaml gives.

// BreakLen returns the length in bytes of the line break that starts at
// data[i], 0 when none does.
func BreakLen(data []byte, i int) int {
	switch data[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < len(data) && data[i+1] == '\n' {
			return 2
		}
		return 1
	case 0xC2: // NEL
		if i+1 < len(data) && data[i+1] == 0x85 {
			return 2
		}
	case 0xE2: // LS, PS
		if i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xA8 || data[i+2] == 0xA9) {
			return 3
		}
	}
	return 0
}

// onlyLF reports whether every line break of data is a line feed (no CR,
// NEL, LS or PS can be in it), so that bytes.IndexByte finds them all.
func onlyLF(data []byte) bool {
	return bytes.IndexByte(data, '\r') < 0 && bytes.IndexByte(data, 0xC2) < 0 && bytes.IndexByte(data, 0xE2) < 0
}

// LineStarts returns the offset where each line of data starts: 0, then
// the offset after each line break.
func LineStarts(data []byte) []int {
	lf := onlyLF(data)
	starts := make([]int, 1, 1+bytes.Count(data, []byte{'\n'}))
	for i := nextLine(data, 0, lf); i >= 0; i = nextLine(data, i, lf) {
		starts = append(starts, i)
	}
	return starts
}

// nextLine returns the offset after the first line break at or after i,
// -1 when there is none; lf is onlyLF(data).
func nextLine(data []byte, i int, lf bool) int {
	if lf {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			return -1
		}
		return i + j + 1
	}
	for ; i < len(data); i++ {
		if n := BreakLen(data, i); n > 0 {
			return i + n
		}
	}
	return -1
}

// NextLine returns the offset where the line after the one that holds
// data[i] starts (just after its line break), len(data) when that line is
// the last.
func NextLine(data []byte, i int) int {
	end := len(data)
	if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
		end = i + j + 1
	}
	if onlyLF(data[i:end]) {
		return end
	}
	if n := nextLine(data[:end], i, false); n >= 0 {
		return n
	}
	return end
}

// Breaks returns the number of line breaks in data.
func Breaks(data []byte) int {
	if onlyLF(data) {
		return bytes.Count(data, []byte{'\n'})
	}
	n := 0
	for i := nextLine(data, 0, false); i >= 0; i = nextLine(data, i, false) {
		n++
	}
	return n
}

// TextError is a character that YAML input may not hold, at its place:
// Line and Column are 1-based, the column counted in characters as
// go-yaml counts it.
type TextError struct {
	Offset, Line, Column int
	// What names the character: "a NUL byte", "invalid UTF-8 (byte 0xFF)".
	What string
}

func (e *TextError) Error() string {
	return fmt.Sprintf("line %d, column %d: holds %s (YAML text is UTF-8 of printable characters, tabs and line breaks)", e.Line, e.Column, e.What)
}

// Msg is the message without the place, for a diagnostic that carries
// the line and column itself.
func (e *TextError) Msg() string {
	return fmt.Sprintf("holds %s (YAML text is UTF-8 of printable characters, tabs and line breaks)", e.What)
}

// badASCII marks the bytes below 0x80 that YAML text may not hold: the C0
// control characters but tab, LF and CR, and DEL.
var badASCII = func() (t [128]bool) {
	for c := range 0x20 {
		t[c] = c != '\t' && c != '\n' && c != '\r'
	}
	t[0x7f] = true
	return t
}()

// CheckText finds the first character of data that YAML input may not
// hold: a NUL byte or another C0 control character but tab, LF and CR;
// DEL or a C1 control character but NEL; invalid UTF-8; the non-characters
// U+FFFE and U+FFFF; a byte order mark (U+FEFF) anywhere but at the very
// start. go-yaml refuses most of them with "control characters are not
// allowed" and no place, reads a byte order mark in the middle as part of
// a key or a value, and decodes UTF-16, which kudo-render does not take.
// It returns nil when data is clean.
func CheckText(data []byte) *TextError {
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if badASCII[c] {
				return textError(data, i, controlName(rune(c)))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return textError(data, i, fmt.Sprintf("invalid UTF-8 (byte 0x%02X)", c))
		case r >= 0x80 && r <= 0x9f && r != 0x85:
			return textError(data, i, controlName(r))
		case r == 0xfffe || r == 0xffff:
			return textError(data, i, fmt.Sprintf("the non-character U+%04X", r))
		case r == 0xfeff && i > 0:
			return textError(data, i, "a byte order mark (U+FEFF) after the start of the text")
		}
		i += size
	}
	return nil
}

func controlName(r rune) string {
	if r == 0 {
		return "a NUL byte"
	}
	return fmt.Sprintf("the control character U+%04X", r)
}

// textError places the character at offset off of data, which is valid
// UTF-8 before it.
func textError(data []byte, off int, what string) *TextError {
	starts := LineStarts(data[:off])
	start := starts[len(starts)-1]
	col := utf8.RuneCount(data[start:off]) + 1
	if start == 0 && bytes.HasPrefix(data, []byte("\uFEFF")) && off > 0 {
		col-- // go-yaml skips a leading byte order mark
	}
	return &TextError{Offset: off, Line: len(starts), Column: col, What: what}
}
