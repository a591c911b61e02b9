package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"tableref/engine/esfah"
	"tableref/engine/greatwar"
)

// Rule set names of a campaign.
const (
	GreatWar = "greatwar"
	Esfah    = "esfah"
)

// RuleSets lists the campaign rules the ledger knows.
var RuleSets = []string{GreatWar, Esfah}

// Effect is what one event changed for one player: Resource is "gold" in
// The Great War, "pool" (the recruiting pool) in Esfah, or another
// counter ("unit:<name>", "health:<race>", "terrain", ...).
type Effect struct {
	Player   string `json:"player"`
	Resource string `json:"resource"`
	Delta    int    `json:"delta"`
	Source   string `json:"source"`
}

// machine is a rule set's campaign state as the ledger drives it.
type machine interface {
	// apply decodes an event and applies it, returning the new machine,
	// the event's kind and player, and its effects.
	apply(payload []byte) (next machine, kind, player string, eff []Effect, err error)
	// replay is apply for an event already recorded, perhaps by an older
	// version whose rules were laxer: the rules may accept it with a
	// warning in the state where apply refuses it.
	replay(payload []byte) (next machine, kind, player string, eff []Effect, err error)
	// turn is the turn the next event belongs to.
	turn() int
	// state is the state for display (JSON).
	state() any
}

func newMachine(rules string) (machine, error) {
	switch rules {
	case GreatWar:
		return gwMachine{}, nil
	case Esfah:
		return esMachine{}, nil
	}
	return nil, fmt.Errorf("unknown campaign rules %q: use %s or %s", rules, GreatWar, Esfah)
}

// decodeStrict decodes one JSON object of an event, rejecting unknown
// fields and trailing data.
func decodeStrict(data []byte, v any) error {
	if err := decodeJSON(data, v); err != nil {
		return fmt.Errorf("event: %w", err)
	}
	return nil
}

// decodeJSON decodes one JSON value, rejecting unknown fields and
// trailing data; a syntax error, a wrong type or an end too early names
// its line and column.
func decodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return located(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		line, col := lineCol(data, dec.InputOffset())
		return fmt.Errorf("line %d, column %d: trailing data after the JSON object", line, col)
	}
	return nil
}

// located adds to a decoding error the line and column where it arose.
func located(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var at int64
	switch {
	case errors.Is(err, io.EOF):
		return fmt.Errorf("no JSON: the input is empty: %w", err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, _ := lineCol(data, int64(len(data)))
		return fmt.Errorf("line %d: the JSON ends before it is complete (is the file cut short?): %w", line, err)
	case errors.As(err, &syn):
		at = syn.Offset - 1 // the offset is just after the offending byte
	case errors.As(err, &typ):
		at = typ.Offset
	default:
		return err
	}
	line, col := lineCol(data, at)
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

// lineCol returns the line and column (from 1, in bytes) of offset in data.
func lineCol(data []byte, offset int64) (int, int) {
	offset = max(0, min(offset, int64(len(data))))
	before := data[:offset]
	return bytes.Count(before, []byte("\n")) + 1, int(offset) - bytes.LastIndexByte(before, '\n')
}

// utf8BOM is the byte order mark some Windows editors put before UTF-8
// text; JSON readers refuse it.
var utf8BOM = []byte("\xef\xbb\xbf")

// trimBOM drops a byte order mark at the start of data.
func trimBOM(data []byte) []byte { return bytes.TrimPrefix(data, utf8BOM) }

type gwMachine struct{ s greatwar.State }

// applyEvent decodes an event of a campaign's rules and applies it to
// state s, returning the new state, the event and its effects as the
// ledger keeps them.
func applyEvent[E any, S any, F any](payload []byte, s S, apply func(S, E) (S, []F, error), effect func(F) Effect) (S, E, []Effect, error) {
	var e E
	if err := decodeStrict(payload, &e); err != nil {
		return s, e, nil, err
	}
	n, eff, err := apply(s, e)
	if err != nil {
		return s, e, nil, err
	}
	out := make([]Effect, len(eff))
	for i, f := range eff {
		out[i] = effect(f)
	}
	return n, e, out, nil
}

func (m gwMachine) apply(payload []byte) (machine, string, string, []Effect, error) {
	n, e, out, err := applyEvent(payload, m.s, greatwar.State.Apply, func(f greatwar.Effect) Effect { return Effect(f) })
	if err != nil {
		return m, "", "", nil, err
	}
	return gwMachine{n}, e.Kind, eventPlayer(e.Player, e.Homeland, e.By), out, nil
}

func (m gwMachine) replay(payload []byte) (machine, string, string, []Effect, error) {
	return m.apply(payload)
}

func (m gwMachine) turn() int  { return m.s.Turn }
func (m gwMachine) state() any { return m.s }

type esMachine struct{ s esfah.State }

func (m esMachine) apply(payload []byte) (machine, string, string, []Effect, error) {
	return m.run(payload, esfah.State.Apply)
}

func (m esMachine) replay(payload []byte) (machine, string, string, []Effect, error) {
	return m.run(payload, esfah.State.Replay)
}

func (m esMachine) run(payload []byte, apply func(esfah.State, esfah.Event) (esfah.State, []esfah.Effect, error)) (machine, string, string, []Effect, error) {
	n, e, out, err := applyEvent(payload, m.s, apply, func(f esfah.Effect) Effect { return Effect(f) })
	if err != nil {
		return m, "", "", nil, err
	}
	return esMachine{n}, e.Kind, e.Player, out, nil
}

func (m esMachine) turn() int  { return m.s.Round }
func (m esMachine) state() any { return m.s }

func eventPlayer(names ...string) string {
	for _, n := range names {
		if n != "" {
			return n
		}
	}
	return ""
}
