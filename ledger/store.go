package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"modernc.org/sqlite" // the embedded SQLite driver, pure Go
	sqlite3 "modernc.org/sqlite/lib"
)

// Errors a caller may test with errors.Is.
var (
	// ErrCorrupt: the file is not an SQLite database, or its events and
	// effects do not agree.
	ErrCorrupt = errors.New("corrupt campaign database")
	// ErrForeign: the file is an SQLite database of something else; it is
	// left as it was.
	ErrForeign = errors.New("not a tableref campaign database")
	// ErrNotFound: no campaign of that name.
	ErrNotFound = errors.New("no such campaign")
	// ErrNothingToUndo: the campaign has no event left to undo.
	ErrNothingToUndo = errors.New("nothing to undo")
	// ErrNotLast: UndoIf was refused because the event expected is no
	// longer the last live one (see NotLastError).
	ErrNotLast = errors.New("the campaign changed")
)

// SchemaVersion is the version of the database schema this code writes.
const SchemaVersion = 2

// migrations[i] brings a database from schema version i to i+1.
var migrations = []string{
	`CREATE TABLE campaigns (
		id INTEGER PRIMARY KEY,
		name TEXT NOT NULL UNIQUE,
		rules TEXT NOT NULL,
		created_at TEXT NOT NULL
	);
	CREATE TABLE events (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
		seq INTEGER NOT NULL,
		turn INTEGER NOT NULL,
		at TEXT NOT NULL,
		kind TEXT NOT NULL,
		player TEXT NOT NULL DEFAULT '',
		payload TEXT NOT NULL,
		effect_count INTEGER NOT NULL,
		undone_at TEXT,
		UNIQUE (campaign_id, seq)
	);
	CREATE TABLE effects (
		event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
		n INTEGER NOT NULL,
		player TEXT NOT NULL,
		resource TEXT NOT NULL,
		delta INTEGER NOT NULL,
		source TEXT NOT NULL,
		PRIMARY KEY (event_id, n)
	);`,
	`CREATE INDEX effects_by_player ON effects(player, resource);`,
}

// Store is an open campaign database.
type Store struct {
	db   *sql.DB
	path string
	// Now gives the time stamped on new events (time.Now by default;
	// tests set a fixed clock).
	Now func() time.Time
}

// Open opens (creating it and its directory when needed) the campaign
// database at path, brings its schema up to date and checks it.
func Open(path string) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("campaign database %s: %w", path, err)
		}
	}
	// The busy timeout comes first so that every later statement waits
	// for another process's lock. WAL is switched on only once the file is
	// known to be ours (see init), since the switch writes to the file.
	// Transactions start IMMEDIATE: each takes the write lock at BEGIN,
	// waiting for it, rather than failing with SQLITE_BUSY when it upgrades
	// a read lock that another writer's commit has made stale.
	q := url.Values{}
	for _, p := range []string{"busy_timeout(5000)", "synchronous(FULL)", "foreign_keys(1)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+uriPath(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("campaign database %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path, Now: time.Now}
	if err := s.init(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// uriPath writes a file path for an SQLite URI: SQLite decodes %XX in
// it and ends it at ? or #, so "war#2.db" would open the file "war" and
// "a%41.db" the file "aA.db" unless those three are escaped.
func uriPath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(path))
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) corrupt(err error) error {
	return fmt.Errorf("%w %s: %v", ErrCorrupt, s.path, err)
}

// init checks the file, refuses one that is not a campaign database
// before writing anything to it, switches it to WAL and runs the
// migrations it lacks, all in one transaction with the version bump.
func (s *Store) init() error {
	var ok string
	if err := s.db.QueryRow(`PRAGMA quick_check`).Scan(&ok); err != nil || ok != "ok" {
		if err == nil {
			err = errors.New(ok)
		}
		return s.openErr(err)
	}
	v, err := s.ours()
	if err != nil {
		return err
	}
	if _, err := s.db.Exec(`PRAGMA journal_mode=WAL`); err != nil {
		return s.unwritable(err)
	}
	if v < SchemaVersion {
		if err := s.migrate(); err != nil {
			return err
		}
	}
	return s.Verify()
}

// ourTables are the tables of a campaign database (sqlite_sequence is
// SQLite's own, made for AUTOINCREMENT).
var ourTables = []string{"campaigns", "effects", "events", "schema_version", "sqlite_sequence"}

// ours returns the schema version of the file, 0 for a new or empty one,
// or ErrForeign when it holds tables that are not a campaign database's:
// another program's file must not gain our tables or change its journal.
func (s *Store) ours() (int, error) {
	tables, err := s.tables()
	if err != nil {
		return 0, err
	}
	if len(tables) == 0 {
		return 0, nil
	}
	if !slices.Contains(tables, "schema_version") {
		return 0, s.foreign(tables)
	}
	v, err := s.version(s.db)
	if err != nil {
		return 0, err
	}
	if v > SchemaVersion {
		return 0, fmt.Errorf("campaign database %s has schema version %d, newer than this tableref knows (%d): update tableref", s.path, v, SchemaVersion)
	}
	for _, t := range tables {
		// Before the first migration only the version table may exist.
		if !slices.Contains(ourTables, t) || (v == 0 && t != "schema_version") {
			return 0, s.foreign(tables)
		}
	}
	return v, nil
}

func (s *Store) tables() ([]string, error) {
	rows, err := s.db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return nil, s.corrupt(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, s.corrupt(err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func (s *Store) foreign(tables []string) error {
	return fmt.Errorf("%s is %w (it holds the tables %s); it was left unchanged", s.path, ErrForeign, strings.Join(tables, ", "))
}

// openErr tells a file SQLite may not open or write (a read-only file, or
// a WAL file in a read-only folder where it cannot make its -shm file)
// from a corrupt one.
func (s *Store) openErr(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff { // the primary code, whatever the extended one
		case sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN:
			return s.unwritable(err)
		}
	}
	return s.corrupt(err)
}

// unwritable reports a file SQLite could not write to, which is not a
// corrupt one: a read-only file or folder, a full disk.
func (s *Store) unwritable(err error) error {
	return fmt.Errorf("campaign database %s cannot be opened for writing (check the permissions of the file and its folder): %w", s.path, err)
}

func (s *Store) version(q querier) (int, error) {
	var n, v int
	if err := q.QueryRow(`SELECT count(*), coalesce(max(version), 0) FROM schema_version`).Scan(&n, &v); err != nil {
		return 0, s.corrupt(err)
	}
	if n > 1 {
		return 0, s.corrupt(fmt.Errorf("%d schema version rows", n))
	}
	return v, nil
}

// migrate brings the schema up to date in one transaction, so that a
// failed migration leaves the file as it was. The version is read again
// inside it: another process opening the same new file at the same time
// may have migrated it first.
func (s *Store) migrate() error {
	return s.tx(func(tx *sql.Tx) error {
		if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
			return s.unwritable(err)
		}
		v, err := s.version(tx)
		if err != nil {
			return err
		}
		if v >= SchemaVersion {
			return nil
		}
		for ; v < SchemaVersion; v++ {
			if _, err := tx.Exec(migrations[v]); err != nil {
				return fmt.Errorf("campaign database %s: migration to version %d: %w", s.path, v+1, err)
			}
		}
		if _, err := tx.Exec(`DELETE FROM schema_version`); err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO schema_version(version) VALUES (?)`, v)
		return err
	})
}

// tx runs f in a transaction, committed when f returns nil and rolled
// back otherwise.
func (s *Store) tx(f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(context.Background(), nil)
	if err != nil {
		return fmt.Errorf("campaign database %s: %w", s.path, err)
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return s.writeErr(err)
	}
	if err := tx.Commit(); err != nil {
		return s.writeErr(fmt.Errorf("campaign database %s: commit: %w", s.path, err))
	}
	return nil
}

// writeErr says so when a write failed because the file may not be
// written (a read-only file, opened for reading only) or the disk is
// full; other errors are returned as they are.
func (s *Store) writeErr(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_FULL:
			return fmt.Errorf("campaign database %s cannot be written (is the file or its folder read-only, or the disk full?); nothing of this change was recorded: %w", s.path, err)
		}
	}
	return err
}
