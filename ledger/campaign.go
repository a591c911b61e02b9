package ledger

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Campaign is one campaign in the store.
type Campaign struct {
	Name    string    `json:"name"`
	Rules   string    `json:"rules"`
	Created time.Time `json:"created_at"`
	id      int64
}

// Record is one stored event.
type Record struct {
	ID     int64           `json:"id"`
	Seq    int             `json:"seq"`
	Turn   int             `json:"turn"`
	At     time.Time       `json:"at"`
	Kind   string          `json:"kind"`
	Player string          `json:"player,omitempty"`
	Event  json.RawMessage `json:"event"`
	// Undone is when the event was undone; nil for a live event.
	Undone  *time.Time `json:"undone_at,omitempty"`
	Effects []Effect   `json:"effects"`
}

const timeFormat = time.RFC3339Nano

// Create starts a new, empty campaign under the given rules.
func (s *Store) Create(name, rules string) (Campaign, error) {
	c, err := s.newCampaign(name, rules)
	if err != nil {
		return c, err
	}
	err = s.tx(func(tx *sql.Tx) error { return insertCampaign(tx, &c) })
	return c, err
}

// Start creates a campaign and records its setup event in one
// transaction, so that a setup the rules refuse leaves no empty campaign
// behind.
func (s *Store) Start(name, rules string, setup json.RawMessage) (Campaign, Record, error) {
	c, err := s.newCampaign(name, rules)
	if err != nil {
		return c, Record{}, err
	}
	var rec Record
	err = s.tx(func(tx *sql.Tx) error {
		if err := insertCampaign(tx, &c); err != nil {
			return err
		}
		if rec, err = s.appendTx(tx, c.Name, setup); err != nil {
			return fmt.Errorf("setup: %w", err)
		}
		return nil
	})
	return c, rec, err
}

// newCampaign checks a new campaign's name and rules.
func (s *Store) newCampaign(name, rules string) (Campaign, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return Campaign{}, fmt.Errorf("a campaign needs a name")
	}
	if _, err := newMachine(rules); err != nil {
		return Campaign{}, err
	}
	return Campaign{Name: name, Rules: rules, Created: s.Now().UTC()}, nil
}

func insertCampaign(tx *sql.Tx, c *Campaign) error {
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM campaigns WHERE name = ?`, c.Name).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("a campaign named %q already exists", c.Name)
	}
	res, err := tx.Exec(`INSERT INTO campaigns(name, rules, created_at) VALUES (?, ?, ?)`, c.Name, c.Rules, c.Created.Format(timeFormat))
	if err != nil {
		return fmt.Errorf("create campaign %s: %w", c.Name, err)
	}
	c.id, err = res.LastInsertId()
	return err
}

// Campaigns lists the campaigns in the store, by name.
func (s *Store) Campaigns() ([]Campaign, error) {
	rows, err := s.db.Query(`SELECT id, name, rules, created_at FROM campaigns ORDER BY name`)
	if err != nil {
		return nil, s.corrupt(err)
	}
	defer rows.Close()
	var out []Campaign
	for rows.Next() {
		c, err := scanCampaign(rows)
		if err != nil {
			return nil, s.corrupt(err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

type scanner interface{ Scan(...any) error }

func scanCampaign(r scanner) (Campaign, error) {
	var c Campaign
	var at string
	if err := r.Scan(&c.id, &c.Name, &c.Rules, &at); err != nil {
		return c, err
	}
	t, err := time.Parse(timeFormat, at)
	c.Created = t
	return c, err
}

// Campaign finds a campaign by name.
func (s *Store) Campaign(name string) (Campaign, error) { return s.campaign(s.db, name) }

func (s *Store) campaign(q querier, name string) (Campaign, error) {
	c, err := scanCampaign(q.QueryRow(`SELECT id, name, rules, created_at FROM campaigns WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("%w %q in %s", ErrNotFound, name, s.path)
	}
	if err != nil {
		return c, s.corrupt(err)
	}
	return c, nil
}

// Events returns a campaign's events in order, undone ones included, with
// their effects.
func (s *Store) Events(name string) ([]Record, error) {
	c, err := s.Campaign(name)
	if err != nil {
		return nil, err
	}
	return s.events(s.db, c.id)
}

// querier is a *sql.DB or a *sql.Tx: inside a transaction every query
// must go through it (the store has a single connection).
type querier interface {
	Query(string, ...any) (*sql.Rows, error)
	QueryRow(string, ...any) *sql.Row
}

func (s *Store) events(q querier, id int64) ([]Record, error) {
	rows, err := q.Query(`SELECT id, seq, turn, at, kind, player, payload, effect_count, undone_at FROM events WHERE campaign_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, s.corrupt(err)
	}
	var out []Record
	var counts []int
	for rows.Next() {
		r, n, err := scanEvent(rows)
		if err != nil {
			rows.Close()
			return nil, s.corrupt(err)
		}
		out, counts = append(out, r), append(counts, n)
	}
	rows.Close()
	for i := range out {
		if out[i].Effects, err = s.effects(q, out[i].ID); err != nil {
			return nil, err
		}
		if len(out[i].Effects) != counts[i] {
			return nil, s.corrupt(fmt.Errorf("event %d has %d of its %d effect rows", out[i].ID, len(out[i].Effects), counts[i]))
		}
	}
	return out, nil
}

func scanEvent(r scanner) (Record, int, error) {
	var rec Record
	var at, payload string
	var undone sql.NullString
	var n int
	if err := r.Scan(&rec.ID, &rec.Seq, &rec.Turn, &at, &rec.Kind, &rec.Player, &payload, &n, &undone); err != nil {
		return rec, 0, err
	}
	t, err := time.Parse(timeFormat, at)
	if err != nil {
		return rec, 0, err
	}
	rec.At, rec.Event = t, json.RawMessage(payload)
	if undone.Valid {
		u, err := time.Parse(timeFormat, undone.String)
		if err != nil {
			return rec, 0, err
		}
		rec.Undone = &u
	}
	return rec, n, nil
}

func (s *Store) effects(q querier, event int64) ([]Effect, error) {
	rows, err := q.Query(`SELECT player, resource, delta, source FROM effects WHERE event_id = ? ORDER BY n`, event)
	if err != nil {
		return nil, s.corrupt(err)
	}
	defer rows.Close()
	out := []Effect{}
	for rows.Next() {
		var e Effect
		if err := rows.Scan(&e.Player, &e.Resource, &e.Delta, &e.Source); err != nil {
			return nil, s.corrupt(err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// replay derives a campaign's state from its live events, checking that
// each gives the effects recorded with it.
func replay(rules string, recs []Record) (machine, error) {
	m, err := newMachine(rules)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if r.Undone != nil {
			continue
		}
		next, _, _, eff, err := m.replay(r.Event)
		if err != nil {
			return nil, fmt.Errorf("event %d (%s, turn %d): %w", r.Seq, r.Kind, r.Turn, err)
		}
		if !slices.Equal(eff, r.Effects) {
			return nil, fmt.Errorf("event %d (%s): its recorded effects differ from the rules' (%v, recorded %v)", r.Seq, r.Kind, eff, r.Effects)
		}
		m = next
	}
	return m, nil
}

// State returns the campaign's current state, derived from its events
// (a greatwar.State or an esfah.State).
func (s *Store) State(name string) (any, error) {
	m, _, err := s.load(s.db, name)
	if err != nil {
		return nil, err
	}
	return m.state(), nil
}

func (s *Store) load(q querier, name string) (machine, Campaign, error) {
	c, err := s.campaign(q, name)
	if err != nil {
		return nil, c, err
	}
	recs, err := s.events(q, c.id)
	if err != nil {
		return nil, c, err
	}
	m, err := replay(c.Rules, recs)
	if err != nil {
		return nil, c, s.corrupt(fmt.Errorf("campaign %s: %w", name, err))
	}
	return m, c, nil
}

// Append applies an event (the JSON of a greatwar.Event or esfah.Event)
// to the campaign and stores it with its effects, all in one
// transaction. An event the rules refuse is not stored.
func (s *Store) Append(name string, event json.RawMessage) (Record, error) {
	var rec Record
	err := s.tx(func(tx *sql.Tx) error {
		var err error
		rec, err = s.appendTx(tx, name, event)
		return err
	})
	return rec, err
}

// AppendAll applies several events in order and stores them all in one
// transaction, or none of them. When check is not nil it is first given
// the campaign's state (as State returns it) under the write lock, so
// that no other process can append between the check and the events: a
// caller that worked the events out from a state read earlier (an end
// of turn proposed, then confirmed) returns an error from check when the
// turn has moved on meanwhile, and nothing is recorded.
func (s *Store) AppendAll(name string, events []json.RawMessage, check func(state any) error) ([]Record, error) {
	var recs []Record
	err := s.tx(func(tx *sql.Tx) error {
		recs = nil
		if check != nil {
			m, _, err := s.load(tx, name)
			if err != nil {
				return err
			}
			if err := check(m.state()); err != nil {
				return err
			}
		}
		for i, e := range events {
			rec, err := s.appendTx(tx, name, e)
			if err != nil {
				return fmt.Errorf("event %d of %d (nothing recorded): %w", i+1, len(events), err)
			}
			recs = append(recs, rec)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return recs, nil
}

// appendTx is Append in the caller's transaction.
func (s *Store) appendTx(tx *sql.Tx, name string, event json.RawMessage) (Record, error) {
	event = trimBOM(event)
	m, c, err := s.load(tx, name)
	if err != nil {
		return Record{}, err
	}
	_, kind, player, eff, err := m.apply(event)
	if err != nil {
		return Record{}, err
	}
	rec := Record{Turn: m.turn(), At: s.Now().UTC(), Kind: kind, Player: player, Event: compact(event), Effects: eff}
	return rec, insertEvent(tx, c.id, &rec)
}

func compact(raw json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	return json.RawMessage(buf.Bytes())
}

// insertEvent writes an event row and its effect rows (in the caller's
// transaction), giving it the next sequence number.
func insertEvent(tx *sql.Tx, campaign int64, r *Record) error {
	if err := tx.QueryRow(`SELECT coalesce(max(seq), 0) + 1 FROM events WHERE campaign_id = ?`, campaign).Scan(&r.Seq); err != nil {
		return err
	}
	var undone any
	if r.Undone != nil {
		undone = r.Undone.UTC().Format(timeFormat)
	}
	res, err := tx.Exec(`INSERT INTO events(campaign_id, seq, turn, at, kind, player, payload, effect_count, undone_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		campaign, r.Seq, r.Turn, r.At.UTC().Format(timeFormat), r.Kind, r.Player, string(r.Event), len(r.Effects), undone)
	if err != nil {
		return fmt.Errorf("store event: %w", err)
	}
	if r.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	for i, e := range r.Effects {
		if _, err := tx.Exec(`INSERT INTO effects(event_id, n, player, resource, delta, source) VALUES (?, ?, ?, ?, ?, ?)`,
			r.ID, i, e.Player, e.Resource, e.Delta, e.Source); err != nil {
			return fmt.Errorf("store effect: %w", err)
		}
	}
	return nil
}

// Undo undoes the campaign's last live event: it stays in the history,
// marked undone, and no longer counts. It returns the undone event.
// Undo takes whichever event is last when its transaction runs: a caller
// that showed an event and undoes it on confirmation uses UndoIf.
func (s *Store) Undo(name string) (Record, error) { return s.undo(name, 0) }

// UndoIf is Undo for a caller that showed the event to undo (the
// Campaign tab, "campaign undo --expect"): it undoes the last live event
// only when its sequence number is expectSeq, checked in the same write
// transaction as the undo, so that an event another process recorded or
// undid meanwhile is never undone in its place. Otherwise it returns a
// *NotLastError (errors.Is(err, ErrNotLast)) and changes nothing.
func (s *Store) UndoIf(name string, expectSeq int) (Record, error) {
	if expectSeq < 1 {
		return Record{}, fmt.Errorf("campaign %s: undo: no event #%d (events are numbered from 1)", name, expectSeq)
	}
	return s.undo(name, expectSeq)
}

// undo undoes the last live event, when expect is 0, or the last live
// event when its number is expect.
func (s *Store) undo(name string, expect int) (Record, error) {
	var rec Record
	err := s.tx(func(tx *sql.Tx) error {
		_, c, err := s.load(tx, name)
		if err != nil {
			return err
		}
		recs, err := s.events(tx, c.id)
		if err != nil {
			return err
		}
		i := len(recs) - 1
		for i >= 0 && recs[i].Undone != nil {
			i--
		}
		if expect != 0 && (i < 0 || recs[i].Seq != expect) {
			e := &NotLastError{Campaign: name, Expected: expect}
			if i >= 0 {
				e.Last = recs[i].Seq
			}
			return e
		}
		if i < 0 {
			return fmt.Errorf("campaign %s: %w", name, ErrNothingToUndo)
		}
		rec = recs[i]
		now := s.Now().UTC()
		rec.Undone = &now
		_, err = tx.Exec(`UPDATE events SET undone_at = ? WHERE id = ?`, now.Format(timeFormat), rec.ID)
		return err
	})
	if err != nil {
		return Record{}, err
	}
	return rec, nil
}

// NotLastError is UndoIf's refusal: the event expected is no longer the
// campaign's last live one. errors.Is(err, ErrNotLast) holds for it.
type NotLastError struct {
	Campaign string
	// Expected is the event the caller meant to undo; Last is the last
	// live event found (0: none is left).
	Expected, Last int
}

func (e *NotLastError) Error() string {
	if e.Last == 0 {
		return fmt.Sprintf("campaign %s: %v: no live event is left, not #%d; nothing undone", e.Campaign, ErrNotLast, e.Expected)
	}
	return fmt.Sprintf("campaign %s: %v: the last event is #%d, not #%d; nothing undone", e.Campaign, ErrNotLast, e.Last, e.Expected)
}

func (e *NotLastError) Unwrap() error { return ErrNotLast }

// Verify checks every campaign of the store: every event has all its
// effect rows, and replaying the events gives the recorded effects.
func (s *Store) Verify() error {
	cs, err := s.Campaigns()
	if err != nil {
		return err
	}
	for _, c := range cs {
		if _, _, err := s.load(s.db, c.Name); err != nil {
			return err
		}
	}
	return nil
}
