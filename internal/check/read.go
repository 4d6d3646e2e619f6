package check

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Record is one recorded request body as read from a file, or why it
// could not be read.
type Record struct {
	// File names the file it came from.
	File string
	// Line is the record's line in a JSON Lines file (from 1); 0 in a JSON
	// array or a HAR file.
	Line int
	// Element is the record's index in a JSON array, or the entry's in a
	// HAR file's log.entries; -1 in a JSON Lines file.
	Element int
	// Body is the record: a request body, or the log record that holds
	// one (Options.Body).
	Body []byte
	// Err says why the record could not be read; Body is then nil.
	Err error
	// HAR says that Element counts a HAR file's log.entries.
	HAR bool
}

// Where names the record for people: "log.jsonl:12", "dump.json [3]",
// "trace.har entries[7]".
func (r Record) Where() string {
	switch {
	case r.Line > 0:
		return r.File + ":" + strconv.Itoa(r.Line)
	case r.Element >= 0 && r.HAR:
		return fmt.Sprintf("%s entries[%d]", r.File, r.Element)
	case r.Element >= 0:
		return fmt.Sprintf("%s [%d]", r.File, r.Element)
	}
	return r.File
}

// MaxRecordBytes bounds one record (a JSON Lines line, an array element,
// a HAR entry): a longer one is reported and skipped, so that memory stays
// bounded whatever the file holds (D-57).
const MaxRecordBytes = 64 << 20

// Read streams the records of one recorded file to emit, in order, and
// returns the first error of r itself (an unreadable file); a record that
// cannot be read is emitted with Err set and reading goes on where the
// format allows it (the next line of JSON Lines). The layout is detected
// from the text (D-57): a JSON array of bodies; a HAR file (one object
// with log.entries); or JSON Lines, one body a line. Only the record under
// way is in memory.
func Read(name string, r io.Reader, emit func(Record)) error {
	br := bufio.NewReaderSize(r, 1<<16)
	first, err := firstByte(br)
	if err == io.EOF {
		return nil // an empty file holds no request
	}
	if err != nil {
		return err
	}
	switch first {
	case '[':
		return readArray(name, br, emit)
	case '{':
		multi, err := spansLines(br)
		if err != nil {
			return err
		}
		if multi {
			return readDocument(name, br, emit)
		}
	}
	return readLines(name, br, emit)
}

// firstByte peeks at the first byte that is not white space (or a UTF-8
// byte order mark).
func firstByte(br *bufio.Reader) (byte, error) {
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return b, br.UnreadByte()
	}
}

// spansLines says whether the object that starts the text is not a
// whole JSON value on its first line: then the file is one document (HAR,
// or a pretty-printed body), not JSON Lines.
func spansLines(br *bufio.Reader) (bool, error) {
	for n := 4096; ; n *= 2 {
		buf, err := br.Peek(n)
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			return !json.Valid(buf[:i]), nil
		}
		if err != nil { // the whole file is one line
			if errors.Is(err, io.EOF) || errors.Is(err, bufio.ErrBufferFull) {
				return false, nil
			}
			return false, err
		}
		if n >= br.Size() {
			return false, nil // a first line longer than the buffer: read as JSON Lines
		}
	}
}

// readLines reads JSON Lines: one body a line; blank lines are skipped.
func readLines(name string, br *bufio.Reader, emit func(Record)) error {
	var line []byte
	for n := 1; ; n++ {
		var tooLong bool
		line = line[:0]
		for {
			chunk, err := br.ReadSlice('\n')
			if len(line)+len(chunk) > MaxRecordBytes {
				tooLong = true
			} else {
				line = append(line, chunk...)
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil && err != io.EOF {
				return fmt.Errorf("%s: line %d: %w", name, n, err)
			}
			if err == io.EOF && len(line) == 0 && !tooLong {
				return nil
			}
			break
		}
		rec := Record{File: name, Line: n, Element: -1}
		text := bytes.TrimSpace(line)
		switch {
		case tooLong:
			rec.Err = fmt.Errorf("longer than %d MiB: skipped", MaxRecordBytes>>20)
		case len(text) == 0:
			continue
		case !json.Valid(text):
			rec.Err = fmt.Errorf("not valid JSON: %s", describeInvalid(text))
		default:
			rec.Body = text
		}
		emit(rec)
		if len(line) == 0 || line[len(line)-1] != '\n' {
			return nil // the last line had no newline
		}
	}
}

// describeInvalid says where a JSON text goes wrong, as encoding/json
// does.
func describeInvalid(text []byte) string {
	var v any
	err := json.Unmarshal(text, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	}
	if err != nil {
		return err.Error()
	}
	return "invalid"
}

// readArray reads a JSON array of bodies, one element at a time. A
// syntax error ends the file: nothing after it can be told apart.
func readArray(name string, br *bufio.Reader, emit func(Record)) error {
	dec := json.NewDecoder(br)
	if _, err := dec.Token(); err != nil {
		emit(Record{File: name, Element: -1, Err: fmt.Errorf("not a JSON array: %w", err)})
		return nil
	}
	for i := 0; dec.More(); i++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			emit(Record{File: name, Element: i, Err: fmt.Errorf("not valid JSON, the rest of the file is skipped: %w", err)})
			return nil
		}
		rec := Record{File: name, Element: i, Body: raw}
		if len(raw) > MaxRecordBytes {
			rec.Body, rec.Err = nil, fmt.Errorf("longer than %d MiB: skipped", MaxRecordBytes>>20)
		}
		emit(rec)
	}
	if _, err := dec.Token(); err != nil {
		emit(Record{File: name, Element: -1, Err: fmt.Errorf("the array does not end: %w", err)})
	}
	return nil
}

// readDocument reads a file that holds one JSON object over several
// lines: a HAR file, whose log.entries are read one at a time, or a single
// pretty-printed body.
func readDocument(name string, br *bufio.Reader, emit func(Record)) error {
	dec := json.NewDecoder(br)
	fail := func(err error) error {
		emit(Record{File: name, Element: -1, Err: fmt.Errorf("not valid JSON: %w", err)})
		return nil
	}
	if _, err := dec.Token(); err != nil { // {
		return fail(err)
	}
	members := map[string]json.RawMessage{}
	order := []string{}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		k, _ := key.(string)
		if k == "log" {
			return readHARLog(name, dec, emit)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return fail(err)
		}
		if _, dup := members[k]; !dup {
			order = append(order, k)
		}
		members[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return fail(err)
	}
	var body bytes.Buffer
	body.WriteByte('{')
	for i, k := range order {
		if i > 0 {
			body.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		body.Write(kb)
		body.WriteByte(':')
		body.Write(members[k])
	}
	body.WriteByte('}')
	emit(Record{File: name, Element: -1, Body: body.Bytes()})
	return nil
}

// harEntry is what a HAR entry says of its request.
type harEntry struct {
	Request struct {
		Method   string `json:"method"`
		URL      string `json:"url"`
		PostData *struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
		} `json:"postData"`
	} `json:"request"`
}

// readHARLog reads the value of a HAR file's "log" member: its entries,
// one at a time; every other member is skipped.
func readHARLog(name string, dec *json.Decoder, emit func(Record)) error {
	fail := func(i int, err error) error {
		emit(Record{File: name, Element: i, HAR: true, Err: fmt.Errorf("not a HAR log, the rest of the file is skipped: %w", err)})
		return nil
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fail(-1, fmt.Errorf(`"log" is not an object`))
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return fail(-1, err)
		}
		if key != "entries" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return fail(-1, err)
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return fail(-1, fmt.Errorf(`"log.entries" is not an array`))
		}
		for i := 0; dec.More(); i++ {
			var e harEntry
			if err := dec.Decode(&e); err != nil {
				var te *json.UnmarshalTypeError
				if !errors.As(err, &te) {
					return fail(i, err)
				}
				// The entry was read whole, only its shape is wrong: the
				// next one can still be read.
				what := "the entry is a JSON " + te.Value + ", not an object"
				if te.Field != "" {
					what = fmt.Sprintf("the entry's %s is a JSON %s", te.Field, te.Value)
				}
				emit(Record{File: name, Element: i, HAR: true, Err: errors.New("not a HAR entry: " + what)})
				continue
			}
			pd := e.Request.PostData
			if pd == nil || pd.Text == "" {
				continue // a GET, or a request without a body: not a model call
			}
			rec := Record{File: name, Element: i, HAR: true}
			body := bytes.TrimSpace([]byte(pd.Text))
			switch {
			case len(body) > MaxRecordBytes:
				rec.Err = fmt.Errorf("longer than %d MiB: skipped", MaxRecordBytes>>20)
			case !json.Valid(body):
				continue // a body that is not JSON is not a model call
			default:
				rec.Body = body
			}
			emit(rec)
		}
		if _, err := dec.Token(); err != nil {
			return fail(-1, err)
		}
	}
	return nil
}
