package localefix

import "testing"

func TestLanguage(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
		set  bool
	}{
		{"C.UTF-8 in LANG gets English messages", map[string]string{"LANG": "C.UTF-8"}, "en", true},
		{"POSIX with an encoding in LC_ALL", map[string]string{"LC_ALL": "POSIX.utf8", "LANG": "de_DE.UTF-8"}, "en", true},
		{"C with a modifier in LC_MESSAGES", map[string]string{"LC_MESSAGES": "C@euro"}, "en", true},
		{"plain C is understood by Fyne", map[string]string{"LANG": "C"}, "", false},
		{"plain POSIX is understood by Fyne", map[string]string{"LANG": "POSIX"}, "", false},
		{"a real locale is left alone", map[string]string{"LANG": "fr_FR.UTF-8"}, "", false},
		{"LC_ALL wins over a C LANG", map[string]string{"LC_ALL": "en_GB.UTF-8", "LANG": "C.UTF-8"}, "", false},
		{"an explicit LANGUAGE is kept", map[string]string{"LANG": "C.UTF-8", "LANGUAGE": "de"}, "", false},
		{"no locale at all", map[string]string{}, "", false},
		{"a language named like C but longer", map[string]string{"LANG": "Ca.UTF-8"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, set := Language(func(k string) string { return tt.env[k] })
			if got != tt.want || set != tt.set {
				t.Errorf("Language(%v) = %q, %v; want %q, %v", tt.env, got, set, tt.want, tt.set)
			}
		})
	}
}
