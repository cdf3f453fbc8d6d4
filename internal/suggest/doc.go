// Package suggest finds the name a misspelt one was probably meant to be,
// for "did you mean" in messages (parameters, fields, plugin variables).
package suggest
