package extend_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kudo-render/kudo-render/internal/extend"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

func ExampleLoad() {
	dir, _ := os.MkdirTemp("", "extend-example")
	defer os.RemoveAll(dir)
	write := func(name, content string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
	}
	write("mysql/framework.yaml", "name: mysql\nversion: \"5.7\"\ntasks:\n  deploy: {resources: [db.yaml]}\nplans:\n  deploy:\n    steps: [{name: deploy, tasks: [deploy]}]\n")
	write("mysql/params.yaml", "storage: {default: 10Gi}\nversion: {default: \"5.7\"}\n")
	write("mysql/templates/db.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: db}\n")
	write("shop/framework.yaml", "name: shop-mysql\nversion: \"1\"\nextends: {path: ../mysql}\n")
	write("shop/params.yaml", "storage: {default: 50Gi}\n")

	res, err := extend.Load(context.Background(), location.Local{Dir: filepath.Join(dir, "shop")}, extend.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	b := res.Bundle
	fmt.Println(b.ID(), res.Chain[0].ID, "<-", res.Chain[1].ID)
	var tasks []string
	for _, t := range b.Tasks {
		tasks = append(tasks, t.Name)
	}
	fmt.Println(b.Param("storage").Default, b.Param("version").Default, tasks)
	// Output:
	// shop-mysql@1 shop-mysql@1 <- mysql@5.7
	// 50Gi 5.7 [base/deploy deploy]
}
