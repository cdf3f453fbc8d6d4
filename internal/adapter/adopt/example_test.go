package adopt_test

import (
	"fmt"
	"os"

	"github.com/kudo-render/kudo-render/internal/adapter/adopt"
	"github.com/kudo-render/kudo-render/internal/adapter/review/diff"
)

// A report as Check returns it for a ZooKeeper whose ConfigMap someone
// edited by hand: the first sync would put KUDO's value back, so the
// install is not adoptable as it is (adopt check exits 1).
func ExampleReport_Text() {
	rep := &adopt.Report{
		Namespace: "data",
		Instances: []adopt.Instance{{Name: "zk", OperatorVersion: "zookeeper-3.6.2-0.3.3"}},
		Objects: []adopt.Object{
			{Key: diff.Key{Kind: "ConfigMap", Namespace: "data", Name: "zk-healthcheck"}, Status: adopt.Changed,
				Fields:    []diff.Field{{Path: diff.Path{{Key: "data"}, {Key: "healthcheck.sh"}}, Op: diff.OpChanged, From: "echo edited", To: "echo ok"}},
				ChangedBy: []string{"kubectl-edit at 2026-11-20T09:00:00Z"}},
			{Key: diff.Key{Group: "apps", Kind: "StatefulSet", Namespace: "data", Name: "zk-zookeeper"}, Status: adopt.Unchanged},
			{Key: diff.Key{Group: "batch", Kind: "Job", Namespace: "data", Name: "zk-validation"}, Status: adopt.HookNotLive},
		},
	}
	if err := rep.Text(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// Instance data/zk (zookeeper-3.6.2-0.3.3)
	//   changed         ConfigMap data/zk-healthcheck
	//       ~ data["healthcheck.sh"]: echo edited → echo ok
	//       changed by kubectl-edit at 2026-11-20T09:00:00Z since KUDO applied it
	//   unchanged       StatefulSet.apps data/zk-zookeeper
	//   hook, not live  Job.batch data/zk-validation (runs at every sync)
	// 1 unchanged, 1 changed, 1 hook, not live; not adoptable as it is: the first sync would change what is listed
}

// The same report as a pull-request comment (adopt check -o markdown).
// Values from the cluster are one line each, control characters shown
// as "?", inside a fence longer than any backtick run they hold.
func ExampleReport_Markdown() {
	rep := &adopt.Report{
		Namespace: "data",
		Instances: []adopt.Instance{{Name: "zk", OperatorVersion: "zookeeper-3.6.2-0.3.3"}},
		Objects: []adopt.Object{
			{Key: diff.Key{Kind: "ConfigMap", Namespace: "data", Name: "zk-healthcheck"}, Status: adopt.Changed,
				Fields: []diff.Field{{Path: diff.Path{{Key: "data"}, {Key: "healthcheck.sh"}}, Op: diff.OpChanged, From: "echo ```\x1b[31m", To: "echo ok"}}},
		},
	}
	md, err := rep.Markdown()
	if err != nil {
		panic(err)
	}
	fmt.Print(md)
	// Output:
	// ### kudo-render adopt check
	//
	// ⚠️ **1 changed; not adoptable as it is: the first sync would change what is listed**
	//
	// ````text
	// Instance data/zk (zookeeper-3.6.2-0.3.3)
	//   changed  ConfigMap data/zk-healthcheck
	//       ~ data["healthcheck.sh"]: echo ```?[31m → echo ok
	// 1 changed; not adoptable as it is: the first sync would change what is listed
	// ````
}
