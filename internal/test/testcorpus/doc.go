// Package testcorpus finds the shared corpus of real KUDO packages for
// tests: $KUDO_RENDER_CORPUS, else ../shared/corpus beside the repository.
// Tests skip with a clear message when it is absent; the corpus is never
// copied into the repository.
package testcorpus
