package tmpl

import (
	"fmt"
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
	// Bounded versions of the functions that allocate what a template asks
	// for: templates come from other teams.
	m["until"] = func(n int) ([]int, error) {
		if n > MaxListLen || n < -MaxListLen {
			return nil, fmt.Errorf("until %d: more than %d elements", n, MaxListLen)
		}
		return sprigUntil(n), nil
	}
	m["untilStep"] = func(start, stop, step int) ([]int, error) {
		if step != 0 && (stop-start)/step > MaxListLen {
			return nil, fmt.Errorf("untilStep: more than %d elements", MaxListLen)
		}
		return sprigUntilStep(start, stop, step), nil
	}
	m["repeat"] = func(count int, s string) (string, error) {
		if count < 0 || count*len(s) > MaxOutput {
			return "", fmt.Errorf("repeat: result larger than %d bytes", MaxOutput)
		}
		return strings.Repeat(s, count), nil
	}
	return m
}

// Limits on what one template may produce.
const (
	// MaxOutput is the largest rendered text of one template execution.
	MaxOutput = 16 << 20
	// MaxListLen is the longest list until and untilStep make.
	MaxListLen = 100_000
)

var (
	sprigUntil     = sprig.TxtFuncMap()["until"].(func(int) []int)
	sprigUntilStep = sprig.TxtFuncMap()["untilStep"].(func(int, int, int) []int)
)

// toYaml is KUDO's: YAML of the value, with its trailing newline.
func toYaml(v any) (string, error) {
	out, err := yamlv2.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(out), nil
}
