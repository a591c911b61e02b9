package battle9

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// A key given twice in a JSON object: encoding/json silently keeps the
// last value, so the lineup and table readers look for one first.

// repeatedKey walks the JSON value at the start of data (already decoded
// once, so valid) and finds the first object key given twice in one
// object: the key as written the second time and where the object is
// ("" for the top level, "races[0].units[1]"). Keys compare as
// encoding/json matches them to struct fields, case-insensitively, except
// in the objects isMap says are decoded into maps, whose keys are exact.
func repeatedKey(data []byte, isMap func(path string) bool) (key, path string, found bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	w := keyWalk{dec: dec, isMap: isMap}
	w.value("")
	return w.key, w.path, w.found
}

type keyWalk struct {
	dec       *json.Decoder
	isMap     func(path string) bool
	key, path string // the first repeated key, when found
	found     bool
	err       error
}

// value reads one value at path; it stops at the first repeated key or
// read error.
func (w *keyWalk) value(path string) {
	tok := w.token()
	switch tok {
	case json.Delim('{'):
		w.object(path)
	case json.Delim('['):
		for i := 0; w.ok() && w.dec.More(); i++ {
			w.value(fmt.Sprintf("%s[%d]", path, i))
		}
		w.token() // ]
	}
}

func (w *keyWalk) object(path string) {
	var seen []string
	exact := w.isMap(path)
	for w.ok() && w.dec.More() {
		k, _ := w.token().(string)
		for _, s := range seen {
			if k == s || (!exact && strings.EqualFold(k, s)) {
				w.key, w.path, w.found = k, path, true
				return
			}
		}
		seen = append(seen, k)
		sub := k
		if path != "" {
			sub = path + "." + k
		}
		w.value(sub)
	}
	w.token() // }
}

func (w *keyWalk) token() json.Token {
	if !w.ok() {
		return nil
	}
	tok, err := w.dec.Token()
	if err != nil {
		w.err = err
	}
	return tok
}

func (w *keyWalk) ok() bool { return w.err == nil && !w.found }

// givenTwice says where a repeated key is: `key "cost" given twice in
// races[0].units[1]`.
func givenTwice(key, path string) string {
	if path == "" {
		return fmt.Sprintf("key %q given twice", key)
	}
	return fmt.Sprintf("key %q given twice in %s", key, path)
}
