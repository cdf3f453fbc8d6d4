package engine

import (
	"testing"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/bundle"
)

// TestSecretName: which parameter names say they hold a secret.
func TestSecretName(t *testing.T) {
	cases := []struct {
		name   string
		secret bool
		reason string
	}{
		{"PASSWORD", true, "the corpus mysql's password"},
		{"dbPassword", true, "camel case is split into words"},
		{"DB_PASS", true, "PASS is a word of its own"},
		{"BYPASS_CACHE", false, "PASS inside another word is not"},
		{"KAFKA_SASL_TOKEN", true, "a token"},
		{"API_KEY", true, "two words that make a key secret"},
		{"aws-secret-access-key", true, "dashes split words too"},
		{"KEY", false, "a key alone is a configuration key"},
		{"TLS_SECRET_NAME", false, "it names a Secret (kafka's)"},
		{"PASSWORD_FILE", false, "it points at one"},
		{"TOKEN_TTL", false, "a token's lifetime"},
		{"AUTHORIZATION_ENABLED", false, "a switch"},
		{"REPLICAS", false, "an ordinary parameter"},
		{"passphrase", true, "lower case"},
	}
	for _, tc := range cases {
		assert.Equal(t, secretName(tc.name), tc.secret, "%s: %s", tc.name, tc.reason)
	}
}

// TestSecretNames: a bundle's secret parameters are those its name rule,
// its params.schema.json (writeOnly) and its Secret templates say.
func TestSecretNames(t *testing.T) {
	b := &bundle.Bundle{
		Params: []*bundle.Param{{Name: "PASSWORD"}, {Name: "KEYSTORE"}, {Name: "SALT"}, {Name: "PIN"}, {Name: "USER"}, {Name: "TLS_SECRET_NAME"},
			{Name: "PASS_THROUGH", Type: bundle.TypeBoolean}},
		Templates: map[string][]byte{
			"secret.yaml": []byte("apiVersion: v1\nkind: Secret\nmetadata: {name: {{ .Params.TLS_SECRET_NAME }}}\nstringData: {k: {{ $.Params.KEYSTORE | b64enc }}, s: {{ index .Params \"SALT\" }}}\n"),
			"flow.yaml":   []byte("{apiVersion: v1, kind: Secret, metadata: {name: x}, stringData: {u: '{{ .Params.USER }}'}}\n"),
			"cm.yaml":     []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {pin: {{ .Params.PIN }}}\n"),
		},
		ParamsSchema: []byte(`{"properties": {"PIN": {"type": "string", "writeOnly": true}}}`),
	}
	// not the Secret's name, nor a boolean
	want := map[string]bool{"PASSWORD": true, "KEYSTORE": true, "SALT": true, "PIN": true, "USER": true}
	assert.DeepEqual(t, secretNames(b), want)
	assert.DeepEqual(t, secretValues(&bundle.Bundle{Params: []*bundle.Param{{Name: "TOKEN", Default: "d"}, {Name: "X", Default: "x"}}},
		map[string]any{"TOKEN": "given", "X": "1"}, map[string]any{"TOKEN": "given"}), []any{"given", "given", "d"})
}
