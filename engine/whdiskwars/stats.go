package whdiskwars

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"tableref/models"
)

// KnownStats are the stats the ruleset reads, in the table model's order.
var KnownStats = []string{StatStrength, StatCounter, StatToughness, StatStamina}

// statOf returns the disk's stat name (one of KnownStats). Keys are
// compared without regard to case or surrounding spaces ("Stamina" is
// stamina); the key spelt exactly as name wins, then the first in sorted
// order (statWarnings reports such doubles).
func statOf(d models.Disk, name string) (int, bool) {
	if v, ok := d.Stats[name]; ok {
		return v, true
	}
	keys := statKeys(d.Stats, name)
	if len(keys) == 0 {
		return 0, false
	}
	return d.Stats[keys[0]], true
}

// statKeys returns the keys of stats that name the stat name, sorted.
func statKeys(stats models.Stats, name string) []string {
	var keys []string
	for k := range stats {
		if canonicalStat(k) == name {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// canonicalStat returns the known stat a key names, "" for none.
func canonicalStat(key string) string {
	key = strings.TrimSpace(key)
	for _, s := range KnownStats {
		if strings.EqualFold(key, s) {
			return s
		}
	}
	return ""
}

// statWarnings reports the stat keys of a disk the ruleset does not know
// (ignored: an unknown "stamnia" must not pass silently for a stamina of
// 0) and the stats given under two spellings.
func statWarnings(d models.Disk) []string {
	var w []string
	for _, k := range slices.Sorted(maps.Keys(d.Stats)) {
		if canonicalStat(k) != "" {
			continue
		}
		msg := fmt.Sprintf("disk %s: unknown stat %q (ignored", label(d), k)
		if near := nearestStat(k); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		w = append(w, msg+"); whdiskwars reads "+strings.Join(KnownStats, ", "))
	}
	for _, s := range KnownStats {
		if keys := statKeys(d.Stats, s); len(keys) > 1 {
			used := keys[0]
			if slices.Contains(keys, s) {
				used = s
			}
			w = append(w, fmt.Sprintf("disk %s: stats %s both name %s; %q used", label(d), quoteAll(keys), s, used))
		}
	}
	return w
}

func quoteAll(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(q, " and ")
}

// nearestStat returns the known stat within two edits of key (a typo), ""
// for none.
func nearestStat(key string) string {
	key = strings.ToLower(strings.TrimSpace(key))
	for _, s := range KnownStats {
		if editDistance(key, s) <= 2 {
			return s
		}
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
