package models

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Stream reads layouts one after another: one layout file, a stream of
// layouts one JSON object a line (JSON Lines, as detect writes a video or a
// folder), or several layouts with any white space between them. Each
// layout is validated as Parse does; each may be up to MaxFileBytes long.
// A Stream is not safe for concurrent use.
type Stream struct {
	name   string
	tap    *tapReader
	dec    *json.Decoder
	record int // records read so far, well-formed or not
	line   int // line the last record starts on
	err    error
}

// NewStream returns a Stream reading r; name (a file name, or "stdin") is
// used in error messages. A UTF-8 byte order mark at the start is skipped.
func NewStream(r io.Reader, name string) *Stream {
	br := bufio.NewReader(r)
	if b, err := br.Peek(len(utf8BOM)); err == nil && bytes.Equal(b, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	tap := &tapReader{r: br, lastNL: -1, line: 1}
	return &Stream{name: name, tap: tap, dec: json.NewDecoder(tap)}
}

// Record returns the number of the record Next last read (1 for the
// first) and the line it starts on.
func (s *Stream) Record() (n, line int) { return s.record, s.line }

// Next returns the next layout, or io.EOF after the last one. An error
// names the file, the line and column of malformed JSON, and from the
// second record on the record's number and line. After malformed JSON or
// a read error the stream cannot go on and Next returns that error again;
// after a well-formed record that fails validation, Next reads the next.
func (s *Stream) Next() (Layout, error) {
	if s.err != nil {
		return Layout{}, s.err
	}
	start := s.dec.InputOffset()
	s.tap.trim(start)
	s.tap.limit = start + MaxFileBytes + 1
	var raw json.RawMessage
	err := s.dec.Decode(&raw)
	if err == io.EOF {
		s.err = io.EOF
		return Layout{}, io.EOF
	}
	if err != nil {
		s.record++
		s.err = s.streamError(start, err)
		return Layout{}, s.err
	}
	s.record++
	s.line, _ = s.tap.position(s.dec.InputOffset() - int64(len(raw)))
	l, err := Parse(raw)
	var ve *ValidationError
	if errors.As(err, &ve) {
		ve.File, ve.Record, ve.RecordLine = s.name, s.record, s.line
	}
	return l, err
}

// streamError describes a failure to read the record starting at offset
// start (before its leading white space).
func (s *Stream) streamError(start int64, err error) error {
	ve := &ValidationError{File: s.name, Record: s.record}
	var se *json.SyntaxError
	switch {
	case errors.Is(err, errTooLarge):
		ve.Problem = fmt.Sprintf("a layout is larger than %d MiB", MaxFileBytes>>20)
	case errors.Is(err, io.ErrUnexpectedEOF):
		ve.Line, ve.Col = s.tap.position(s.tap.read)
		ve.Problem = malformedJSON + "the file ends too early (a bracket or quote is not closed)"
	case errors.As(err, &se):
		// The decoder's scanner counts bytes from the stream's start.
		ve.Line, ve.Col = s.tap.position(se.Offset)
		ve.Problem = malformedJSON + se.Error()
	default:
		return fmt.Errorf("read layout %s: %w", s.name, err)
	}
	ve.RecordLine, _ = s.tap.position(start + leadingSpace(s.tap.kept(start)))
	return ve
}

func leadingSpace(b []byte) int64 {
	return int64(len(b) - len(bytes.TrimLeft(b, " \t\r\n")))
}

// errTooLarge stops a record longer than MaxFileBytes.
var errTooLarge = errors.New("layout too large")

// tapReader passes bytes through and keeps those from the current
// record's start on, so that an offset can be turned into a line and
// column; it refuses to read past limit.
type tapReader struct {
	r      io.Reader
	buf    []byte // bytes from offset base on
	base   int64
	read   int64 // bytes read so far
	line   int   // line at offset base
	lastNL int64 // offset of the last newline before base, -1 if none
	limit  int64
}

func (t *tapReader) Read(p []byte) (int, error) {
	if t.read >= t.limit {
		return 0, errTooLarge
	}
	if room := t.limit - t.read; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := t.r.Read(p)
	t.buf = append(t.buf, p[:n]...)
	t.read += int64(n)
	return n, err
}

// trim forgets the bytes before offset off.
func (t *tapReader) trim(off int64) {
	drop := t.kept(t.base)[:min(max(off-t.base, 0), int64(len(t.buf)))]
	t.line += bytes.Count(drop, []byte{'\n'})
	if i := bytes.LastIndexByte(drop, '\n'); i >= 0 {
		t.lastNL = t.base + int64(i)
	}
	t.buf = append(t.buf[:0], t.buf[len(drop):]...)
	t.base += int64(len(drop))
}

// kept returns the bytes kept from offset off on.
func (t *tapReader) kept(off int64) []byte {
	return t.buf[min(max(off-t.base, 0), int64(len(t.buf))):]
}

// position turns an offset at or after base into a 1-based line and column.
func (t *tapReader) position(off int64) (line, col int) {
	before := t.buf[:min(max(off-t.base, 0), int64(len(t.buf)))]
	line = t.line + bytes.Count(before, []byte{'\n'})
	last := t.lastNL
	if i := bytes.LastIndexByte(before, '\n'); i >= 0 {
		last = t.base + int64(i)
	}
	return line, int(t.base + int64(len(before)) - last)
}
