// Package visible makes text that comes from packages and renders (object
// names, keys, values, plan and step names) safe to show to a reviewer on
// a terminal, in a markdown comment or in a picture.
//
// [Escape] writes every character that could act instead of showing
// itself as a visible escape: C0 control characters but the tab (a
// carriage return rewrites the line on a terminal and ends a line, a
// block or a fence in CommonMark; ESC starts terminal sequences such as
// OSC 8 links), DEL, C1 controls (NEL breaks lines), Unicode's line and
// paragraph separators, bidirectional controls (which reorder what a
// reviewer reads) and zero-width characters (which make two different
// values look the same), and bytes that are not UTF-8. Text with nothing
// to escape is returned as it is; text with something to escape has its
// backslashes doubled too, so an escape cannot be mistaken for the text
// it stands for.
package visible
