// Package localefix keeps Fyne quiet under the C locale.
//
// Fyne's lang package reads the user's locale in its package init: from
// LC_ALL, LC_MESSAGES or LANG, cut at the first "." and "_". Under
// LANG=C.UTF-8 (the default of many Linux containers and of Debian's
// minimal installs) that leaves the language "C", which is not a BCP 47
// tag, and Fyne logs "Fyne error: Error parsing user locale C" on
// standard error, before main runs, for every tableref command. Plain
// "C" and "POSIX" are understood (English), only their forms with an
// encoding or a modifier are not.
//
// This package's init runs before Fyne's: Go initialises packages in the
// order of their import paths among those whose imports are done (the
// language specification, "Package initialization", since Go 1.21), this
// package imports only os and strings, and "tableref/..." sorts before
// "text/template", which Fyne's lang package imports. When the locale is
// the C locale with an encoding and LANGUAGE is unset, it sets
// LANGUAGE=en: the list of message languages that gettext and Fyne's
// locale reader consult. It changes nothing else: the character set and
// the formats of the C locale stay as the user set them, and a real
// locale (de_DE.UTF-8, ...) or an explicit LANGUAGE is left alone.
//
// The main package imports it for its side effect; it imports nothing of
// tableref and nothing may import it but main.
package localefix

import (
	"os"
	"strings"
)

func init() {
	if v, ok := Language(os.Getenv); ok {
		os.Setenv("LANGUAGE", v)
	}
}

// Language returns the LANGUAGE value to set, and true, when the
// environment read through getenv names the C locale with an encoding or
// a modifier ("C.UTF-8", "POSIX.utf8", "C@euro") and LANGUAGE is unset.
func Language(getenv func(string) string) (string, bool) {
	if getenv("LANGUAGE") != "" {
		return "", false
	}
	locale := ""
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if locale = getenv(name); locale != "" {
			break
		}
	}
	lang, _, _ := strings.Cut(locale, ".")
	lang, _, _ = strings.Cut(lang, "@")
	if locale == lang || (lang != "C" && lang != "POSIX") {
		return "", false
	}
	return "en", true
}
