package ledger

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// ExportFormat names the JSON format of an exported campaign.
const (
	ExportFormat  = "tableref-campaign"
	ExportVersion = 1
)

// Export is a whole campaign as JSON: its name, rules and every event,
// undone ones included, with their effects.
type Export struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Name    string    `json:"name"`
	Rules   string    `json:"rules"`
	Created time.Time `json:"created_at"`
	Events  []Record  `json:"events"`
}

// Export returns the whole campaign.
func (s *Store) Export(name string) (Export, error) {
	c, err := s.Campaign(name)
	if err != nil {
		return Export{}, err
	}
	recs, err := s.events(s.db, c.id)
	if err != nil {
		return Export{}, err
	}
	if recs == nil {
		recs = []Record{}
	}
	return Export{Format: ExportFormat, Version: ExportVersion, Name: c.Name, Rules: c.Rules, Created: c.Created, Events: recs}, nil
}

// ParseExport reads an exported campaign, rejecting unknown fields, another
// format or version, and events out of order.
func ParseExport(data []byte) (Export, error) {
	var x Export
	if err := decodeJSON(trimBOM(data), &x); err != nil {
		return x, fmt.Errorf("campaign file: %w", err)
	}
	if x.Format != ExportFormat {
		return x, fmt.Errorf("campaign file: format %q, want %q", x.Format, ExportFormat)
	}
	if x.Version != ExportVersion {
		return x, fmt.Errorf("campaign file: version %d, this tableref reads version %d", x.Version, ExportVersion)
	}
	if _, err := newMachine(x.Rules); err != nil {
		return x, fmt.Errorf("campaign file: %w", err)
	}
	for i, r := range x.Events {
		if r.Seq != i+1 {
			return x, fmt.Errorf("campaign file: event %d has seq %d, want %d", i+1, r.Seq, i+1)
		}
		if len(r.Event) == 0 {
			return x, fmt.Errorf("campaign file: event %d has no \"event\"", r.Seq)
		}
	}
	return x, nil
}

// Import stores an exported campaign under its name (or as, when not
// empty). Every live event is replayed through the rules and must give
// the effects the file records; the campaign is written in one
// transaction, so a refused file leaves the store as it was.
func (s *Store) Import(x Export, as string) (Campaign, error) {
	if as != "" {
		x.Name = as
	}
	// The name is checked as Create checks it: a blank name would make a
	// campaign no command can name.
	c, err := s.newCampaign(x.Name, x.Rules)
	if err != nil {
		return Campaign{}, fmt.Errorf("import: %w", err)
	}
	recs, err := recompute(x)
	if err != nil {
		return Campaign{}, fmt.Errorf("import %s: %w", c.Name, err)
	}
	if !x.Created.IsZero() {
		c.Created = x.Created
	}
	err = s.tx(func(tx *sql.Tx) error {
		if err := insertCampaign(tx, &c); err != nil {
			return err
		}
		for i := range recs {
			if err := insertEvent(tx, c.id, &recs[i]); err != nil {
				return err
			}
		}
		return nil
	})
	return c, err
}

// recompute replays the file's events and fills in or checks their
// effects, kinds and players.
func recompute(x Export) ([]Record, error) {
	m, err := newMachine(x.Rules)
	if err != nil {
		return nil, err
	}
	out := make([]Record, len(x.Events))
	for i, r := range x.Events {
		r.Event = compact(r.Event)
		if r.Undone != nil {
			out[i] = r
			continue
		}
		next, kind, player, eff, err := m.replay(r.Event)
		if err != nil {
			return nil, fmt.Errorf("event %d (turn %d): %w", r.Seq, r.Turn, err)
		}
		if r.Effects != nil && !slices.Equal(r.Effects, eff) {
			return nil, fmt.Errorf("event %d (%s): the file records effects %v, the rules give %v", r.Seq, kind, r.Effects, eff)
		}
		r.Kind, r.Player, r.Effects, r.Turn = kind, player, eff, m.turn()
		if r.At.IsZero() {
			r.At = time.Now().UTC()
		}
		out[i], m = r, next
	}
	return out, nil
}

// MarshalExport writes an export as indented JSON.
func MarshalExport(x Export) ([]byte, error) {
	return json.MarshalIndent(x, "", "  ")
}
