package config

import _ "embed"

//go:embed schema.json
var schemaJSON []byte

// Schema returns the JSON schema (2020-12) of the FrameworkRender.
func Schema() []byte { return schemaJSON }
