package tmpl

import (
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	yamlv2 "go.yaml.in/yaml/v2"
)

// denied are functions that Sprig's hermetic map still offers but that
// read the clock, randomness, the host's time zone or generate keys.
var denied = []string{
	"env", "expandenv", "getHostByName", "now", "ago", "toDate", "mustToDate",
	"unixEpoch", "durationRound", "uuidv4", "bcrypt", "htpasswd", "encryptAES",
	"shuffle",
}

// deniedPrefixes covers families: date*, mustDate*, htmlDate*, rand*, gen*
// (genCA, genPrivateKey, genSelfSignedCert, genSignedCert and variants).
var deniedPrefixes = []string{"date", "mustDate", "htmlDate", "rand", "gen"}

// Denied reports whether a function name is withheld from templates.
func Denied(name string) bool {
	for _, d := range denied {
		if name == d {
			return true
		}
	}
	for _, p := range deniedPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// FuncMap returns the functions templates may call.
func FuncMap() template.FuncMap {
	m := sprig.HermeticTxtFuncMap()
	for name := range m {
		if Denied(name) {
			delete(m, name)
		}
	}
	m["toYaml"] = toYaml
	return m
}

// toYaml is KUDO's: YAML of the value, with its trailing newline.
func toYaml(v any) (string, error) {
	out, err := yamlv2.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(out), nil
}
