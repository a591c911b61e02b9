package whdiskwars

import (
	"strings"
	"testing"

	"tableref/models"
)

// The table model names the whdiskwars stats strength, counter, toughness
// and stamina ("stamina (default 0)"). A stat written with capitals is the
// same stat; a name the ruleset does not know is a warning, not a silent
// 0: a misspelt stamina must not kill a disk that survives its first
// wound. Defender d (toughness 5) takes 3 + 3: one wound.
func TestStatNamesIgnoreCaseAndUnknownOnesAreWarned(t *testing.T) {
	tests := []struct {
		name       string
		stats      models.Stats
		casualties []string
		warning    string // "" for none
	}{
		{"stamina", models.Stats{"counter": 1, "toughness": 5, "stamina": 2}, nil, ""},
		{"Stamina with a capital", models.Stats{"counter": 1, "toughness": 5, "Stamina": 2}, nil, ""},
		{"every stat in capitals", models.Stats{"COUNTER": 1, "Toughness": 5, " stamina ": 2}, nil, ""},
		{"stamnia misspelt", models.Stats{"counter": 1, "toughness": 5, "stamnia": 2}, []string{"d"}, `unknown stat "stamnia" (ignored; did you mean "stamina"?)`},
		{"a stat of another game", models.Stats{"counter": 1, "toughness": 5, "attack": 2}, []string{"d"}, `unknown stat "attack"`},
		{"one stat given twice", models.Stats{"counter": 1, "toughness": 5, "stamina": 2, "Stamina": 0}, nil, `"Stamina" and "stamina" both name stamina`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := twoOnOne(stats(3, 1, 5, 0), stats(3, 1, 5, 0), tt.stats)
			a := mustRun(t, b.table())
			checkList(t, "casualties", a.Outcome().Melee.Casualties, tt.casualties)
			all := strings.Join(a.Warnings, "\n")
			switch {
			case tt.warning == "" && len(a.Warnings) > 0:
				t.Errorf("warnings: got %q, want none", a.Warnings)
			case tt.warning != "" && !strings.Contains(all, tt.warning):
				t.Errorf("warnings: got %q, want one containing %q", a.Warnings, tt.warning)
			}
		})
	}
	t.Run("the stats of terrain are not warned", func(t *testing.T) {
		b := twoOnOne(stats(3, 1, 5, 0), stats(3, 1, 5, 0), stats(1, 1, 4, 0)).
			disk("hill", "", 40, 40, 0, models.Stats{"height": 2}).with(func(d *models.Disk) { d.Kind = models.KindTerrain })
		if w := mustRun(t, b.table()).Warnings; len(w) != 0 {
			t.Errorf("warnings: got %q, want none", w)
		}
	})
}
