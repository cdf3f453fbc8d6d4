// Package lazy holds values a package would otherwise build in its
// initialiser: regular expressions compiled on first use, so that a command
// does not pay at start-up for what it never runs (every package
// initialiser runs before main, for every command).
package lazy
