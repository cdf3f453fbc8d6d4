package cmd

import (
	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// limitFlags registers one --max-<name> flag per limit of the resource
// model (limits.Table); the environment variables KUDO_RENDER_MAX_<NAME>
// set the same limits for orchestrators that cannot pass flags, and flags
// win over them.
type limitFlags struct {
	lim limits.Limits
	set map[string]string
}

func (l *limitFlags) register(c *cobra.Command) {
	l.set = map[string]string{}
	for _, s := range limits.Table {
		if s.Name == "timeout" {
			continue // --timeout is registered with the watchdog
		}
		c.PersistentFlags().Var(&limitValue{spec: s, flags: l}, s.Name2Flag(), s.Doc+" (default "+limits.FormatValue(s, s.Default)+"; env "+s.Env()+")")
	}
}

// resolve returns the limits: defaults, then the environment, then flags.
func (l *limitFlags) resolve(getenv func(string) string) (limits.Limits, error) {
	lim := limits.Default()
	if err := lim.FromEnv(getenv); err != nil {
		return lim, err
	}
	for _, s := range limits.Table {
		if v, ok := l.set[s.Name]; ok {
			if err := lim.Set(s.Name, v); err != nil {
				return lim, err
			}
		}
	}
	l.lim = lim
	return lim, nil
}

type limitValue struct {
	spec  limits.Spec
	flags *limitFlags
}

func (v *limitValue) String() string { return "" }
func (v *limitValue) Type() string {
	if v.spec.Unit == "duration" {
		return "duration"
	}
	return "n"
}

func (v *limitValue) Set(s string) error {
	if _, err := limits.Parse(v.spec, s); err != nil {
		return err
	}
	v.flags.set[v.spec.Name] = s
	return nil
}
