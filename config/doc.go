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
// with its line. [Config.Render] loads the framework through the source
// seam (package location), builds the engine request and renders it with
// the target's decorations ([Target.Decorator]: Argo CD or Flux
// annotations). [LockFile] pins the config's git sources (`kudo-render
// lock`); [Schema] is the config's JSON schema.
//
// It stays outside internal/ because it is the API: other tools (a
// generator of FrameworkRenders, a controller, a test of another repo) may
// import its types to write or read the files kudo-render consumes.
package config
