package whdiskwars

import (
	"strings"
	"testing"
)

func TestNormalizeKeyword(t *testing.T) {
	tests := []struct{ in, want string }{
		{"swift", "swift"},
		{"  SWIFT ", "swift"},
		{"Swift (Strength)", "swift:strength"},
		{"swift(counter strength)", "swift:counter"},
		{"Slow: Counter Strength", "slow:counter"},
		{"slow:strength", "slow:strength"},
		{"Immune (Physical Damage)", "immune:physical"},
		{"resistant : arcane", "resistant:arcane"},
		{"Immune (Ranged   Attack)", "immune:ranged attack"},
		{"Frenzy", "frenzy"},
		{"on-engage", "on-engage"},
		{"swift:", "swift"},
	}
	for _, tt := range tests {
		if got := NormalizeKeyword(tt.in); got != tt.want {
			t.Errorf("NormalizeKeyword(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

// "Note that the Swift and Slow keywords specify if the keyword applies to
// either Strength, Counter Strength or both: if only one is shown, then the
// other kind of attack is resolved with 'normal' speed."
func TestParseProfileSpeeds(t *testing.T) {
	tests := []struct {
		keywords          []string
		strength, counter Speed
		problems          int
	}{
		{nil, Normal, Normal, 0},
		{[]string{"swift"}, Swift, Swift, 0},
		{[]string{"slow"}, Slow, Slow, 0},
		{[]string{"swift:strength"}, Swift, Normal, 0},
		{[]string{"swift:counter"}, Normal, Swift, 0},
		{[]string{"slow:strength"}, Slow, Normal, 0},
		{[]string{"slow:counter"}, Normal, Slow, 0},
		{[]string{"swift:strength", "slow:counter"}, Swift, Slow, 0},
		{[]string{"swift", "slow:counter"}, Swift, Normal, 1},
		{[]string{"swift:sideways"}, Normal, Normal, 1},
	}
	for _, tt := range tests {
		p, problems := ParseProfile(tt.keywords)
		if p.StrengthSpeed != tt.strength || p.CounterSpeed != tt.counter || len(problems) != tt.problems {
			t.Errorf("ParseProfile(%q): got strength %v counter %v problems %q, want %v %v and %d problems",
				tt.keywords, p.StrengthSpeed, p.CounterSpeed, problems, tt.strength, tt.counter, tt.problems)
		}
	}
}

func TestParseProfileOtherKeywords(t *testing.T) {
	p, problems := ParseProfile([]string{"Frenzy", "Immune (Physical)", "resistant:arcane", "on-engage", "berserk", "immune"})
	if !p.Frenzy || !p.Immune[Physical] || !p.Resistant["arcane"] || !p.OnEngage {
		t.Errorf("got %+v, want frenzy, immune physical, resistant arcane, on-engage", p)
	}
	if len(problems) != 2 || !strings.Contains(problems[0], `"berserk"`) || !strings.Contains(problems[1], `"immune"`) {
		t.Errorf("problems: got %q, want the unknown keywords berserk and a bare immune", problems)
	}
}

// FuzzParseProfile: any keyword list parses without panicking, to a
// profile whose speeds are valid, and normalising is idempotent.
func FuzzParseProfile(f *testing.F) {
	for _, s := range []string{"swift", "Swift (Strength)", "slow:counter strength", "immune(", "resistant:)", ":", "(x)", "frenzy", " on-engage "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, kw string) {
		n := NormalizeKeyword(kw)
		if again := NormalizeKeyword(n); again != n {
			t.Errorf("NormalizeKeyword not idempotent: %q -> %q -> %q", kw, n, again)
		}
		p, _ := ParseProfile([]string{kw})
		for _, s := range []Speed{p.StrengthSpeed, p.CounterSpeed} {
			if s != Swift && s != Normal && s != Slow {
				t.Errorf("ParseProfile(%q): got speed %d", kw, s)
			}
		}
	})
}
