// Package strictyaml decodes YAML files strictly: every mapping key that
// the target Go type does not declare is reported with its line and field
// path, as are type and syntax errors, so a typo in a hand-written file is
// an error instead of a silently dropped field.
//
// It is also the one door for YAML text from outside: [Parse], [Stream]
// and [Unmarshal] refuse, before anything walks the values, a character
// YAML may not hold ([CheckText]: control characters, invalid UTF-8, a
// byte order mark in the middle, at file:line:column), a document too
// large for --max-yaml-values ([CheckStream]) and a document whose
// aliases expand it past that limit ([CheckAliases]: billion laughs,
// nested anchors, merge keys, aliases in flow collections, refused at the
// alias in time linear in the text). [Decode], [DecodeLenient] and
// [Value] check the aliases of the node they are given too. Lines are
// counted as go-yaml counts them ([LineStarts]: CR, CRLF, LF, NEL, LS and
// PS each end a line), so a line kudo-render derives from text agrees
// with the lines of go-yaml's nodes; FuzzLines checks it.
//
// go-yaml finds repeated keys by comparing every key of a mapping with
// every later one, so its decoding of a mapping is quadratic. [Value],
// [Unmarshal] into an `any`, [DecodeAny] and [DecodeMap] (a map field's
// UnmarshalYAML) give go-yaml's values and errors in linear time instead;
// FuzzDecodeAny compares them with go-yaml's.
package strictyaml
