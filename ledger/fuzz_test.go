package ledger

import (
	"encoding/json"
	"testing"
)

// FuzzParseExport: reading any file as an exported campaign returns a
// value or an error, never a panic, and what it accepts replays or is
// refused with an error.
func FuzzParseExport(f *testing.F) {
	f.Add([]byte(`{"format":"tableref-campaign","version":1,"name":"w","rules":"greatwar","events":[]}`))
	f.Add([]byte(`{"format":"tableref-campaign","version":1,"name":"w","rules":"esfah","events":[{"seq":1,"event":{"kind":"setup","players":["a","b"],"total_health":120}}]}`))
	f.Add([]byte(`{"format":"tableref-campaign","version":1,"name":"w","rules":"greatwar","events":[{"seq":1,"event":{"kind":"end-turn"}}]}`))
	f.Add([]byte(`{"format":`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := ParseExport(data)
		if err != nil {
			return
		}
		_, _ = recompute(x)
	})
}

// FuzzEvent: any event JSON applied to a set-up campaign of either rules
// is applied or refused, never a panic.
func FuzzEvent(f *testing.F) {
	f.Add([]byte(`{"kind":"transfer","player":"kate","to":"eli","gold":3}`))
	f.Add([]byte(`{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Ceryx Jade","cost":1,"unique":true}]}]}`))
	f.Add([]byte(`{"kind":"bid","unit":"x","bidders":["kate"]}`))
	f.Add([]byte(`{"kind":"recruit","player":"a","army":"h","forces":{"terrain":"highland","units":[{"race":"vagha","health":-4}]},"spend":{}}`))
	gw, _, _, _, _ := gwMachine{}.apply([]byte(setupGW))
	es, _, _, _, _ := esMachine{}.apply([]byte(`{"kind":"setup","players":["a","b"],"total_health":120}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		_, _, _, _, _ = gw.apply(data)
		_, _, _, _, _ = es.apply(data)
	})
}
