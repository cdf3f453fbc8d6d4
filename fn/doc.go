// Package fn owns kudo-render's FunctionConfig API, the
// kudorender.dev/v1alpha1 FrameworkRender, which names the framework, the
// instance, the plans and the parameters of a render:
//
//	apiVersion: kudorender.dev/v1alpha1
//	kind: FrameworkRender
//	metadata:
//	  name: my-zk        # instance name
//	  namespace: data    # instance namespace
//	spec:
//	  framework:
//	    path: ../operators/zookeeper   # relative to the config's folder
//	  plans: [deploy]                  # default: deploy
//	  params:
//	    NODE_COUNT: "5"
//	  target: argocd                   # argocd (default) | plain
//
// The CLI reads it from a file; the KRM function and the Argo CD plugin
// read the same schema. [LoadFile] and [Parse] decode it strictly: an
// unknown field is an error with its line.
package fn
