// Package config owns kudo-render's FunctionConfig API, the
// kudorender.dev/v1alpha1 FrameworkRender, which names the framework, the
// instance, the plans and the parameters of a render, and is read by
// every adapter: the CLI, the KRM function and the Argo CD plugin.
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
//	  target: argocd                   # argocd (default) | plain | flux
//
// [LoadFile] and [Parse] decode it strictly: an unknown field is an error
// with its line ([ConfigError], one [Problem] each); [Config.Check] checks
// it again once flags or the environment changed it. [Schema] is its JSON
// schema.
//
// It is the API only: the types, their parsing and the schema. It stays
// outside internal/ so that other tools (a generator of FrameworkRenders,
// a controller, a test of another repository) may read and write the
// files kudo-render consumes, and it imports little for it: none of
// Kubernetes' packages and none of the render. Running the render a config
// asks for (loading its sources, the engine, the target's decorations,
// `kudo-render lock`) is internal/runner's work; applying Argo CD's
// environment to a config is internal/adapter/argocd's.
package config
