package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the embedded SQLite driver, pure Go
)

// Errors a caller may test with errors.Is.
var (
	// ErrCorrupt: the file is not a tableref campaign database, or its
	// events and effects do not agree.
	ErrCorrupt = errors.New("corrupt campaign database")
	// ErrNotFound: no campaign of that name.
	ErrNotFound = errors.New("no such campaign")
	// ErrNothingToUndo: the campaign has no event left to undo.
	ErrNothingToUndo = errors.New("nothing to undo")
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
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "synchronous(FULL)", "busy_timeout(5000)", "foreign_keys(1)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?"+q.Encode())
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

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) corrupt(err error) error {
	return fmt.Errorf("%w %s: %v", ErrCorrupt, s.path, err)
}

// init checks the file and runs the migrations it lacks, each in its own
// transaction with the version bump.
func (s *Store) init() error {
	var ok string
	if err := s.db.QueryRow(`PRAGMA quick_check`).Scan(&ok); err != nil || ok != "ok" {
		if err == nil {
			err = errors.New(ok)
		}
		return s.corrupt(err)
	}
	if _, err := s.db.Exec(`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return s.corrupt(err)
	}
	v, err := s.version()
	if err != nil {
		return err
	}
	if v > SchemaVersion {
		return fmt.Errorf("campaign database %s has schema version %d, newer than this tableref knows (%d): update tableref", s.path, v, SchemaVersion)
	}
	for ; v < SchemaVersion; v++ {
		if err := s.migrate(v); err != nil {
			return err
		}
	}
	return s.Verify()
}

func (s *Store) version() (int, error) {
	var n, v int
	if err := s.db.QueryRow(`SELECT count(*), coalesce(max(version), 0) FROM schema_version`).Scan(&n, &v); err != nil {
		return 0, s.corrupt(err)
	}
	if n > 1 {
		return 0, s.corrupt(fmt.Errorf("%d schema version rows", n))
	}
	return v, nil
}

func (s *Store) migrate(from int) error {
	return s.tx(func(tx *sql.Tx) error {
		if _, err := tx.Exec(migrations[from]); err != nil {
			return fmt.Errorf("campaign database %s: migration to version %d: %w", s.path, from+1, err)
		}
		if _, err := tx.Exec(`DELETE FROM schema_version`); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO schema_version(version) VALUES (?)`, from+1)
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
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("campaign database %s: commit: %w", s.path, err)
	}
	return nil
}
