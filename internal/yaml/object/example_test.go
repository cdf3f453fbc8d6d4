package object_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func ExampleObject() {
	o := object.New(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "prod"}})
	object.SetStrings(o.Map, map[string]string{"team": "shop"}, "metadata", "labels")
	fmt.Println(o.Group(), o.Version(), o.Kind(), o.Namespace(), o.Name(), o.Key())
	data, _ := o.Marshal()
	fmt.Print(string(data))
	fmt.Println(object.CheckInstanceName("Shop_1"))
	// Output:
	// apps v1 Deployment prod web apps/Deployment/prod/web
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata:
	//   labels:
	//     team: shop
	//   name: web
	//   namespace: prod
	// "Shop_1" is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', each part starting and ending with a letter or digit)
}
