// Package redact finds the values of Secrets, and the forms they travel
// in, in other values and in free text, and hides them.
//
// A [Set] holds secret values. [Set.AddCopied] adds a value that a
// reference copied out of a Secret (a string, a number, or a map or list
// of them: every leaf is a secret); [Set.AddSecret] adds the data and
// stringData of a Secret object. For each value the set keeps the forms
// it is found in elsewhere:
//
//   - the value itself, JSON-escaped and Go-quoted (what %q writes);
//   - its base64 encodings (standard and URL alphabets, with or without
//     padding), and for a Secret's data the text the base64 decodes to;
//   - the hex MD5, SHA-1, SHA-256 and SHA-512 digests of the value (an
//     unsalted digest of a short password gives the password back).
//
// A form matches where it is a whole value, where a message quotes it
// whole ("value", 'value'), and, when it is at least [MinContained]
// bytes long, wherever another text contains it; a copied form of
// [MinToken] bytes or more also where it stands alone, not inside a word
// or a longer number (a port in "Invalid value: 99817: must be ..."). Texts that share a run
// of at least [MinRun] bytes with a form match too, so a message that
// quotes the first 64 bytes of a long token or certificate hides them.
// The values a Secret stores itself, which may be ordinary words (a user
// name that is also the instance's name), are found only where quoted
// whole or in such long runs, unless they were copied ([Set.AddCopied]):
// [Set.AddSecret] with raw false adds only their encoded and digested
// forms.
//
// [Set.Hides] and [Set.Holds] say whether a value is or holds a secret,
// [Set.MaskValue] replaces such values by [Hidden] in an object, and
// [Set.Mask] replaces every secret span of a free text (an error
// message); [Set.Error] wraps an error so that its message and its
// diagnostics are masked. Work is linear in the text: a text whose
// matching would cost more than a fixed budget (crafted periodic values)
// is hidden whole.
package redact
