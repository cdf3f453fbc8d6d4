package validate

// applied is the object an apply of config makes of live, when prev is
// the configuration applied before by the same tool: what prev set and
// config no longer sets is removed, config's values are set (maps merged
// key by key, lists and scalars replaced whole), and what neither sets
// stays as live has it: the API server's defaults and allocations, and
// other writers' fields. A map the apply empties is removed, as
// server-side apply removes a map once none of its fields is left, unless
// the API types make the map one value (atomicMaps).
//
// Server-side apply removes the fields its manager owned and no longer
// applies, and client-side apply the fields of its last-applied
// configuration that the new one lacks: both are this merge. Lists differ
// in one way, which the kinds' update preparation makes up for where it
// changes a verdict: apply merges the items of keyed lists (containers by
// name, ports by port and protocol), so that a field the server filled in
// an item (a Service port's node port) stays; here the item is replaced.
// The result is a new map; live, prev and config are not changed.
func applied(live, prev, config map[string]any) map[string]any {
	out := make(map[string]any, len(live)+len(config))
	for k, v := range live {
		if _, set := prev[k]; set {
			if _, still := config[k]; !still {
				continue // no longer applied: removed
			}
		}
		out[k] = v
	}
	for k, v := range config {
		cm, isMap := v.(map[string]any)
		lm, liveMap := out[k].(map[string]any)
		if isMap && liveMap {
			pm, _ := prev[k].(map[string]any)
			if merged := applied(lm, pm, cm); len(merged) > 0 || len(lm) == 0 || atomicMaps[k] {
				out[k] = merged
			} else {
				delete(out, k) // emptied: server-side apply drops a map of its fields
			}
			continue
		}
		out[k] = deepCopy(v)
	}
	return out
}

// deepCopy copies the maps and lists of a decoded value.
func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// atomicMaps are the keys of the maps the built-in API types set as one
// value (+mapType=atomic, or inside a +structType=atomic struct such as
// a label selector): applied empty, they stay, empty.
var atomicMaps = map[string]bool{"selector": true, "nodeSelector": true, "matchLabels": true}
