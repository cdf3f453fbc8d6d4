// Package cmd is kudo-render's command line. It only wires commands:
// render, verify, schema, lock, diff, graph, version, the Argo CD plugin's
// cmp generate/parameters, and, without arguments, the KRM function. Each
// command parses its flags and calls the adapters (package config for the
// FunctionConfig, argocd, flux, fn, review/diff, review/graph) and the core
// (engine, verify).
//
// Everything a command prints goes through one output.Writer, written
// once the whole result is known: on any error nothing reaches stdout (or
// --output-dir), main prints the message on stderr and exits with status 1 (diff:
// 2, as 1 means "changes"; see ExitError), and
// the --timeout watchdog can no longer fire once output has begun.
//
// It stays outside internal/ so that a wrapper binary can add commands to
// the same root command; its own logic lives in the adapters under
// internal/adapter and in the core under internal/.
package cmd
