// Package cmd is kudo-render's command line: render, verify and version.
// Commands are thin: they parse flags, call package engine (through the
// FunctionConfig of package fn) or package verify, and print. On any error
// they print nothing on stdout and return an error, which main turns into
// a message on stderr and exit status 1.
package cmd
