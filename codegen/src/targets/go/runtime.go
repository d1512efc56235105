// The schema-independent part of the generated Go file (codegen's Go target
// splices everything below the import block into coprocess.go, after the
// generated code): the decode error type, the strict JSON parser (I-JSON
// rules, depth limit), the kind checks every decoder shares and the one-line
// JSON writer. It names exactly one generated identifier, MaxDepth. Runtime
// functions never start with decode/append followed by an upper-case letter,
// the prefixes of the per-type functions, so no schema type can collide with
// them. Codegen keeps only the helpers the schema's code reaches and the
// imports they use.

package mcptest

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodingError is why a frame was rejected. Its text is "{Type}: {Problem}"
// at the root and "{Type}: {Problem} at {Path}" below it.
type DecodingError struct {
	// Type is the $defs name being decoded.
	Type string
	// Problem says what is wrong, for example "unknown field `x`".
	Problem string
	// Path locates the offending value ("$.id", "$.tools[3]"); empty at the root.
	Path string
}

// Error returns the decoder message.
func (e *DecodingError) Error() string {
	if e.Path == "" {
		return e.Type + ": " + e.Problem
	}
	return e.Type + ": " + e.Problem + " at " + e.Path
}

// ParseJSON parses one JSON text under the strict rules of the contract and
// returns it as nil, bool, json.Number, string, []any or map[string]any.
func ParseJSON(data []byte) (any, error) {
	tree, err := parseStrict(data)
	if err != nil {
		return nil, errors.New(err.text())
	}
	return toPublic(tree), nil
}

// maxSafeInteger is 2^53-1, the largest integer every JSON reader keeps exactly.
const maxSafeInteger = 1<<53 - 1

// shapeError is a failure on its way up to the public decoder, which names
// the type. The path is collected innermost segment first.
type shapeError struct {
	expected string
	got      string
	problem  string
	path     []string
}

func (e *shapeError) text() string {
	if e.expected != "" {
		return "expected " + e.expected + ", got " + e.got
	}
	return e.problem
}

// at records that the failure is inside the member key.
func (e *shapeError) at(key string) *shapeError {
	if isIdentifier(key) {
		e.path = append(e.path, "."+key)
	} else {
		e.path = append(e.path, "["+string(writeString(nil, key))+"]")
	}
	return e
}

// atIndex records that the failure is inside the array item i.
func (e *shapeError) atIndex(i int) *shapeError {
	e.path = append(e.path, "["+strconv.Itoa(i)+"]")
	return e
}

func (e *shapeError) toError(typeName string) error {
	path := ""
	if len(e.path) > 0 {
		var sb strings.Builder
		sb.WriteByte('$')
		for i := len(e.path) - 1; i >= 0; i-- {
			sb.WriteString(e.path[i])
		}
		path = sb.String()
	}
	return &DecodingError{Type: typeName, Problem: e.text(), Path: path}
}

func isIdentifier(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func problem(text string) *shapeError {
	return &shapeError{problem: text}
}

func wrongKind(expected string, v any) *shapeError {
	return &shapeError{expected: expected, got: kindOf(v)}
}

func unknownField(key string) *shapeError {
	return problem("unknown field `" + key + "`")
}

func missingField(key string) *shapeError {
	return problem("missing field `" + key + "`")
}

// orNull widens a wrong-kind failure of the value itself to "... or null".
func orNull(e *shapeError) *shapeError {
	if e.expected != "" && len(e.path) == 0 {
		e.expected += " or null"
	}
	return e
}

// fromText parses data strictly and decodes it with decode, naming typeName
// in the error. A type's single-pass reader scan (nil: none) reads the text
// first; what it does not read goes to the tree's parse and decode, which
// say what is wrong.
func fromText[T any](typeName string, data []byte, decode func(any) (T, *shapeError), scan func(*parser) (T, bool)) (T, error) {
	var zero T
	if scan != nil {
		p := parser{s: string(data)}
		if v, ok := scan(&p); ok && !strings.HasPrefix(p.s, "\ufeff") {
			if p.skipSpace(); p.i == len(p.s) {
				return v, nil
			}
		}
	}
	tree, err := parseStrict(data)
	if err == nil {
		var v T
		if v, err = decode(tree); err == nil {
			return v, nil
		}
	}
	return zero, err.toError(typeName)
}

// fromValue checks an already-parsed value against the JSON-text rules and
// decodes it with decode, naming typeName in the error.
func fromValue[T any](typeName string, value any, decode func(any) (T, *shapeError)) (T, error) {
	var zero T
	tree, err := fromPublic(value, 0)
	if err == nil {
		var v T
		if v, err = decode(tree); err == nil {
			return v, nil
		}
	}
	return zero, err.toError(typeName)
}

// fromPublic turns a value as ParseJSON or encoding/json build it into the
// parser's tree, applying the JSON-text rules (objects in sorted key order).
// Other Go values go through their JSON text.
func fromPublic(v any, depth int) (any, *shapeError) {
	switch x := v.(type) {
	case nil, bool:
		return x, nil
	case string:
		if !utf8.ValidString(x) {
			return nil, problem("invalid JSON: invalid UTF-8")
		}
		return x, nil
	case json.Number:
		if _, err := checkNumber(string(x)); err != nil {
			return nil, err
		}
		return v, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, problem("invalid JSON: NaN or infinite number")
		}
		return checkNumber(strconv.FormatFloat(x, 'g', -1, 64))
	case int:
		return checkNumber(strconv.Itoa(x))
	case int64:
		return checkNumber(strconv.FormatInt(x, 10))
	case []any:
		if depth++; depth > MaxDepth {
			return nil, problem("nesting deeper than " + strconv.Itoa(MaxDepth))
		}
		items := make([]any, len(x))
		for i, item := range x {
			var err *shapeError
			if items[i], err = fromPublic(item, depth); err != nil {
				return nil, err
			}
		}
		return items, nil
	case map[string]any:
		if depth++; depth > MaxDepth {
			return nil, problem("nesting deeper than " + strconv.Itoa(MaxDepth))
		}
		o := &jsonObject{keys: sortedKeys(x), vals: make([]any, len(x))}
		for i, k := range o.keys {
			if !utf8.ValidString(k) {
				return nil, problem("invalid JSON: invalid UTF-8")
			}
			var err *shapeError
			if o.vals[i], err = fromPublic(x[k], depth); err != nil {
				return nil, err
			}
		}
		return o, nil
	}
	p := parser{s: string(writeAny(nil, v)), depth: depth}
	tree, err := p.value()
	if err == nil && p.i < len(p.s) {
		err = p.fail("trailing characters")
	}
	return tree, err
}

// checkNumber parses a number literal under the JSON-text rules.
func checkNumber(literal string) (any, *shapeError) {
	p := parser{s: literal}
	if literal == "" || (literal[0] != '-' && (literal[0] < '0' || literal[0] > '9')) {
		return nil, p.fail("invalid number")
	}
	n, err := p.number()
	if err == nil && p.i < len(p.s) {
		err = p.fail("invalid number")
	}
	return n, err
}

// asMarshaler adapts a typed decode result for DecodeByName.
func asMarshaler[T json.Marshaler](v T, err error) (json.Marshaler, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// jsonObject is a parsed JSON object with its members in document order.
type jsonObject struct {
	keys []string
	vals []any
}

func (o *jsonObject) has(key string) bool {
	return containsKey(o.keys, key)
}

// pickVariant returns the index of the one discriminator present in o.
func pickVariant(o *jsonObject, discriminators []string, many, none string) (int, *shapeError) {
	found := -1
	for i, d := range discriminators {
		if o.has(d) {
			if found >= 0 {
				return -1, problem(many)
			}
			found = i
		}
	}
	if found < 0 {
		return -1, problem(none)
	}
	return found, nil
}

// pickTag is the index of the tagged-union variant whose tag o's member
// holds: the member must be present and a string among tags; expected words
// another string ("expected one of ..., got ").
func pickTag(o *jsonObject, member string, tags []string, expected string) (int, *shapeError) {
	for i, k := range o.keys {
		if k != member {
			continue
		}
		s, ok := o.vals[i].(string)
		if !ok {
			return -1, wrongKind("string", o.vals[i]).at(member)
		}
		for which, tag := range tags {
			if s == tag {
				return which, nil
			}
		}
		return -1, problem(expected + string(writeString(nil, s))).at(member)
	}
	return -1, problem("missing field `" + member + "`")
}

func kindOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, ok := numberInt(x); ok {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case *jsonObject, map[string]any:
		return "object"
	}
	return "value"
}

// numberInt is the integer value of n: an integer literal, or a number with
// an integral value (1.0, 1e2, -0) in the safe range.
func numberInt(n json.Number) (int64, bool) {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		i, err := strconv.ParseInt(s, 10, 64)
		return i, err == nil && i <= maxSafeInteger && i >= -maxSafeInteger
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
		return 0, false
	}
	return int64(f), true
}

func readAny(v any) (any, *shapeError) {
	return toPublic(v), nil
}

func readBool(v any) (bool, *shapeError) {
	if b, ok := v.(bool); ok {
		return b, nil
	}
	return false, wrongKind("boolean", v)
}

func readString(v any) (string, *shapeError) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	return "", wrongKind("string", v)
}

func readInt(v any) (int64, *shapeError) {
	if n, ok := v.(json.Number); ok {
		if i, ok := numberInt(n); ok {
			return i, nil
		}
	}
	return 0, wrongKind("integer", v)
}

func readIntAtLeast(v any, minimum int64) (int64, *shapeError) {
	i, err := readInt(v)
	if err == nil && i < minimum {
		err = problem("expected integer >= " + strconv.FormatInt(minimum, 10) + ", got " + strconv.FormatInt(i, 10))
	}
	return i, err
}

// readNumber reads any JSON number as the nearest double (1 and -0 too).
func readNumber(v any) (float64, *shapeError) {
	if n, ok := v.(json.Number); ok {
		if f, err := strconv.ParseFloat(string(n), 64); err == nil {
			return f, nil
		}
	}
	return 0, wrongKind("number", v)
}

// charactersWithin checks a string's length in Unicode code points.
func charactersWithin(s string, minimum, maximum int64) *shapeError {
	return lengthWithin(int64(utf8.RuneCountInString(s)), minimum, maximum, "character")
}

// lengthWithin checks a string's length, an array's number of items or an
// object's number of members against inclusive bounds (-1: no bound).
func lengthWithin(length, minimum, maximum int64, noun string) *shapeError {
	if minimum >= 0 && length < minimum {
		return problem("expected at least " + counted(minimum, noun) + ", got " + strconv.FormatInt(length, 10))
	}
	if maximum >= 0 && length > maximum {
		return problem("expected at most " + counted(maximum, noun) + ", got " + strconv.FormatInt(length, 10))
	}
	return nil
}

// pattern is a schema `pattern` (searched, not anchored) and the problem a
// string it finds no match in gets.
type pattern struct {
	regex   *regexp.Regexp
	problem string
}

// matching checks that the pattern finds a match in the string.
func matching(text string, p pattern) *shapeError {
	if !p.regex.MatchString(text) {
		return problem(p.problem)
	}
	return nil
}

// memberNames checks every member name (propertyNames); of the names that
// fail, the first in code-point order is reported.
func memberNames(keys []string, check func(v any) (string, *shapeError)) *shapeError {
	var failed *shapeError
	first := ""
	for _, key := range keys {
		if _, err := check(key); err != nil && (failed == nil || key < first) {
			failed, first = err, key
		}
	}
	if failed != nil {
		return problem("member name " + string(writeString(nil, first)) + ": " + failed.text())
	}
	return nil
}

// constant checks that a value is the schema's const; shown is it as JSON text.
func constant[T string | int64 | bool](value, expected T, shown string) *shapeError {
	if value == expected {
		return nil
	}
	got := ""
	switch x := any(value).(type) {
	case string:
		got = string(writeString(nil, x))
	case int64:
		got = strconv.FormatInt(x, 10)
	case bool:
		got = strconv.FormatBool(x)
	}
	return problem("expected " + shown + ", got " + got)
}

// multipleOf checks that an integer is a multiple of divisor.
func multipleOf(number, divisor int64) *shapeError {
	if number%divisor != 0 {
		return problem("expected multiple of " + strconv.FormatInt(divisor, 10) + ", got " + strconv.FormatInt(number, 10))
	}
	return nil
}

// numberMultipleOf checks that a number is a multiple of digits × 10^exponent,
// the number read as the shortest decimal that reads back as its double.
func numberMultipleOf(x float64, digits int64, exponent int) *shapeError {
	if !isMultiple(x, digits, exponent) {
		divisor, _ := strconv.ParseFloat(strconv.FormatInt(digits, 10)+"e"+strconv.Itoa(exponent), 64)
		return problem("expected multiple of " + numberText(divisor) + ", got " + numberText(x))
	}
	return nil
}

// isMultiple divides D × 10^a (the shortest digits of x, without a trailing
// zero) by digits × 10^exponent: zero is a multiple; a finer last digit than
// the divisor's is none; else D × 10^(a - exponent) is divided by digits,
// digit by digit.
func isMultiple(x float64, digits int64, exponent int) bool {
	written := strconv.FormatFloat(math.Abs(x), 'e', -1, 64)
	mantissa, power, _ := strings.Cut(written, "e")
	a, _ := strconv.Atoi(power)
	whole, fraction, _ := strings.Cut(mantissa, ".")
	all := whole + fraction
	significant := strings.TrimRight(all, "0")
	if strings.Trim(significant, "0") == "" {
		return true
	}
	a += len(all) - len(significant) - len(fraction)
	if a < exponent {
		return false
	}
	var rest int64
	for i := 0; i < len(significant); i++ {
		rest = (rest*10 + int64(significant[i]-'0')) % digits
	}
	for i := 0; i < a-exponent && rest != 0; i++ {
		rest = rest * 10 % digits
	}
	return rest == 0
}

// uniqueItems checks that no item equals an earlier one (as decoded: 1.0 is 1).
func uniqueItems[T comparable](items []T) *shapeError {
	seen := make(map[T]int, len(items))
	for i, item := range items {
		if first, ok := seen[item]; ok {
			return problem("expected unique items, got item " + strconv.Itoa(i) + " equal to item " + strconv.Itoa(first))
		}
		seen[item] = i
	}
	return nil
}

// uniqueJSON checks that no item equals an earlier one by JSON equality.
func uniqueJSON(items []any) *shapeError {
	for i, item := range items {
		for first := 0; first < i; first++ {
			if jsonEqual(items[first], item) {
				return problem("expected unique items, got item " + strconv.Itoa(i) + " equal to item " + strconv.Itoa(first))
			}
		}
	}
	return nil
}

// prefixKinds checks each item's JSON kind: the first ones kinds, the others
// rest ("": any kind; an integer is a number too).
func prefixKinds(items []any, kinds []string, rest string) *shapeError {
	for i, item := range items {
		kind := rest
		if i < len(kinds) {
			kind = kinds[i]
		}
		got := kindOf(item)
		if kind != "" && kind != got && (kind != "number" || got != "integer") {
			return problem("expected " + kind + ", got " + got).atIndex(i)
		}
	}
	return nil
}

// uniqueRead checks that no item of an array read from v (objects, arrays,
// nullable items) equals an earlier one, by JSON equality of the values they
// were read from.
func uniqueRead(v any) *shapeError {
	items, _ := toPublic(v).([]any)
	return uniqueJSON(items)
}

// listedValues holds the values of each const or enum read so far, by
// their JSON text.
var listedValues sync.Map

// listedJSON is the values of a const or an enum (JSON text joined by ", "),
// read once and kept: every decode compares with the same values.
func listedJSON(text string) []any {
	if known, ok := listedValues.Load(text); ok {
		values, _ := known.([]any)
		return values
	}
	parsed, _ := parseStrict([]byte("[" + text + "]"))
	values, _ := toPublic(parsed).([]any)
	listedValues.Store(text, values)
	return values
}

// constantJSON checks that a value equals the schema's const (any JSON value,
// shown as JSON text) by JSON equality.
func constantJSON(value any, shown string) *shapeError {
	if jsonEqual(value, listedJSON(shown)[0]) {
		return nil
	}
	return problem("expected " + shown + ", got " + kindOf(value))
}

// oneOfJSON checks that a value equals one of the schema's enum values (any
// JSON values, listed as JSON text joined by ", ") by JSON equality.
func oneOfJSON(value any, listed string) *shapeError {
	allowed := listedJSON(listed)
	for _, option := range allowed {
		if jsonEqual(value, option) {
			return nil
		}
	}
	if len(allowed) == 1 {
		return problem("expected " + listed + ", got " + shownValue(value))
	}
	return problem("expected one of " + listed + ", got " + shownValue(value))
}

// shownValue is a value as a problem shows it: a string as JSON text, a
// number as ECMAScript writes it, true, false, null; an array or an object
// by its kind.
func shownValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		return string(writeString(nil, x))
	case json.Number:
		f, _ := readNumber(x)
		return numberText(f)
	}
	return kindOf(v)
}

// jsonEqual is JSON equality: numbers by value (1 is 1.0), objects whatever
// their member order, arrays item by item, true never 1.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		p, _ := readNumber(x)
		q, _ := readNumber(y)
		return p == q
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, found := y[k]; !found || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	}
	return a == b
}

func counted(count int64, noun string) string {
	if count == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(count, 10) + " " + noun + "s"
}

func atMost(i int64, err *shapeError, maximum int64) (int64, *shapeError) {
	if err == nil && i > maximum {
		err = problem("expected integer <= " + strconv.FormatInt(maximum, 10) + ", got " + strconv.FormatInt(i, 10))
	}
	return i, err
}

// numberOutside is the problem of a number that fails a bound; bound is the
// comparison it had to pass and the bound as text (">= 0", "< 1e+21").
func numberOutside(bound string, x float64) *shapeError {
	return problem("expected number " + bound + ", got " + numberText(x))
}

// numberText writes a double as ECMAScript's String does: the shortest
// digits that read back as it, positional from 1e-6 up to 1e21 and with an
// exponent outside (1e+21, 1.5e-7), -0 as 0.
func numberText(x float64) string {
	if x == 0 {
		return "0"
	}
	return string(shortestFloat(nil, x, 1e21))
}

// toPublic turns a parsed tree into nil, bool, json.Number, string, []any
// and map[string]any.
func toPublic(v any) any {
	switch x := v.(type) {
	case *jsonObject:
		m := make(map[string]any, len(x.keys))
		for i, k := range x.keys {
			m[k] = toPublic(x.vals[i])
		}
		return m
	case []any:
		for i, item := range x {
			x[i] = toPublic(item)
		}
		return x
	}
	return v
}

// parser reads one strict JSON text (I-JSON: no duplicate keys, no lone
// surrogates, no integers beyond 2^53-1, no numbers beyond a double).
type parser struct {
	s     string
	i     int
	depth int
	// failed is set by a single-pass reader (see valueAs) where the text is
	// not what it reads; the tree's parse never sets it.
	failed bool
}

func parseStrict(data []byte) (any, *shapeError) {
	p := parser{s: string(data)}
	if strings.HasPrefix(p.s, "\ufeff") {
		return nil, problem("invalid JSON: byte-order mark")
	}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i < len(p.s) {
		return nil, p.fail("trailing characters")
	}
	return v, nil
}

func (p *parser) fail(what string) *shapeError {
	return problem("invalid JSON: " + what + " at offset " + strconv.Itoa(p.i))
}

func (p *parser) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() (any, *shapeError) {
	p.skipSpace()
	if p.i >= len(p.s) {
		return nil, p.fail("unexpected end of input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	}
	return nil, p.fail("unexpected character")
}

func (p *parser) literal(word string, v any) (any, *shapeError) {
	if !strings.HasPrefix(p.s[p.i:], word) {
		return nil, p.fail("invalid literal")
	}
	p.i += len(word)
	return v, nil
}

func (p *parser) enter() *shapeError {
	p.depth++
	if p.depth > MaxDepth {
		return problem("nesting deeper than " + strconv.Itoa(MaxDepth))
	}
	p.i++
	p.skipSpace()
	return nil
}

func (p *parser) next(c byte) bool {
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *parser) object() (any, *shapeError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	if p.next('}') {
		p.depth--
		return &jsonObject{}, nil
	}
	// The members are read into arrays on the stack (the first eight) and
	// copied out at their count when the object closes: two allocations of
	// the object's size, not of a guessed capacity.
	var keyArray [8]string
	var valArray [8]any
	keys, vals := keyArray[:0], valArray[:0]
	var index map[string]bool
	for {
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.fail("expected a member name")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if (index != nil && index[key]) || (index == nil && containsKey(keys, key)) {
			return nil, problem("duplicate key `" + key + "`")
		}
		if !p.next(':') {
			return nil, p.fail("expected ':'")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		keys = append(keys, key)
		vals = append(vals, v)
		if index != nil {
			index[key] = true
		} else if len(keys) == 16 {
			index = make(map[string]bool, 32)
			for _, k := range keys {
				index[k] = true
			}
		}
		if p.next(',') {
			continue
		}
		if p.next('}') {
			p.depth--
			return &jsonObject{
				keys: append([]string(nil), keys...),
				vals: append([]any(nil), vals...),
			}, nil
		}
		return nil, p.fail("expected ',' or '}'")
	}
}

// containsKey reports whether key is one of keys.
func containsKey(keys []string, key string) bool {
	for _, k := range keys {
		if k == key {
			return true
		}
	}
	return false
}

func (p *parser) array() (any, *shapeError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	if p.next(']') {
		p.depth--
		return []any{}, nil
	}
	items := make([]any, 0, 4)
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		if p.next(',') {
			continue
		}
		if p.next(']') {
			p.depth--
			return items, nil
		}
		return nil, p.fail("expected ',' or ']'")
	}
}

func (p *parser) str() (string, *shapeError) {
	p.i++
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return p.s[start : p.i-1], nil
		case c == '\\':
			return p.escapedString([]byte(p.s[start:p.i]))
		case c < 0x20:
			return "", p.fail("control character in string")
		case c < utf8.RuneSelf:
			p.i++
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.fail("invalid UTF-8")
			}
			p.i += size
		}
	}
	return "", p.fail("unterminated string")
}

func (p *parser) escapedString(buf []byte) (string, *shapeError) {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(buf), nil
		case c == '\\':
			r, err := p.escape()
			if err != nil {
				return "", err
			}
			buf = utf8.AppendRune(buf, r)
		case c < 0x20:
			return "", p.fail("control character in string")
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			p.i++
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.fail("invalid UTF-8")
			}
			buf = append(buf, p.s[p.i:p.i+size]...)
			p.i += size
		}
	}
	return "", p.fail("unterminated string")
}

func (p *parser) escape() (rune, *shapeError) {
	if p.i+1 >= len(p.s) {
		return 0, p.fail("unterminated string")
	}
	c := p.s[p.i+1]
	p.i += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		return p.unicodeEscape()
	}
	return 0, p.fail("invalid escape")
}

func (p *parser) unicodeEscape() (rune, *shapeError) {
	r, ok := p.hex4()
	if !ok {
		return 0, p.fail("invalid \\u escape")
	}
	if !utf16.IsSurrogate(r) {
		return r, nil
	}
	if r < 0xdc00 && strings.HasPrefix(p.s[p.i:], "\\u") {
		p.i += 2
		if low, ok := p.hex4(); ok {
			if pair := utf16.DecodeRune(r, low); pair != utf8.RuneError {
				return pair, nil
			}
		}
	}
	return 0, p.fail("lone surrogate escape")
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(p.s[p.i : p.i+4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}

func (p *parser) digits() int {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i - start
}

func (p *parser) number() (any, *shapeError) {
	literal, err := p.numberLiteral()
	if err != nil {
		return nil, err
	}
	return json.Number(literal), nil
}

// numberLiteral reads a number's text, checked: an integer within 2^53-1,
// any other number within a double's range.
func (p *parser) numberLiteral() (string, *shapeError) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if p.digits() == 0 {
		return "", p.fail("invalid number")
	}
	integer := true
	if p.i < len(p.s) && p.s[p.i] == '.' {
		integer = false
		p.i++
		if p.digits() == 0 {
			return "", p.fail("invalid number")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		integer = false
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return "", p.fail("invalid number")
		}
	}
	literal := p.s[start:p.i]
	if integer {
		if len(literal) > 15 {
			i, err := strconv.ParseInt(literal, 10, 64)
			if err != nil || i > maxSafeInteger || i < -maxSafeInteger {
				return "", p.fail("integer out of range")
			}
		}
	} else if f, err := strconv.ParseFloat(literal, 64); err != nil || math.IsInf(f, 0) {
		return "", p.fail("number out of range")
	}
	return literal, nil
}

// The single-pass readers: scan<Type> reads a generated type straight from
// the text, without the parser's tree, as far as the text is laid out as
// that type's value. It says only whether it read the value: a text it
// does not read (another shape, or anything wrong) is left to the tree's
// parse and decode, which read it from the start and say what is wrong. A
// reader accepts no text the tree's decode refuses, and reads what it
// accepts to the same value; a value of a kind it has no reader for
// goes through the tree:
//
// valueAs reads the next value into the tree and decodes it with read.
func valueAs[T any](p *parser, read func(any) (T, *shapeError)) (T, bool) {
	v, err := p.value()
	if err != nil {
		var zero T
		return zero, false
	}
	x, problem := read(v)
	return x, problem == nil
}

// nullableAs reads null as nil and any other value with scan.
func nullableAs[T any](p *parser, scan func(*parser) (T, bool)) (*T, bool) {
	if p.nextNull() {
		return nil, true
	}
	x, ok := scan(p)
	return &x, ok
}

// firstTime notes a member of an object as seen: whether it was not before.
func firstTime(seen *bool) bool {
	before := *seen
	*seen = true
	return !before
}

// nextNull reads a null, when one comes next.
func (p *parser) nextNull() bool {
	p.skipSpace()
	if strings.HasPrefix(p.s[p.i:], "null") {
		p.i += len("null")
		return true
	}
	return false
}

// nextBoolean reads a boolean.
func (p *parser) nextBoolean() (bool, bool) {
	p.skipSpace()
	switch {
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += len("true")
		return true, true
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += len("false")
		return false, true
	}
	return false, false
}

// nextString reads a string.
func (p *parser) nextString() (string, bool) {
	p.skipSpace()
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", false
	}
	s, err := p.str()
	return s, err == nil
}

// nextNullableString reads a string, or null as nil.
func (p *parser) nextNullableString() (*string, bool) {
	if p.nextNull() {
		return nil, true
	}
	s, ok := p.nextString()
	return &s, ok
}

// nextInteger reads an integer (integral numbers with a fraction or an
// exponent too, as readInt does).
func (p *parser) nextInteger() (int64, bool) {
	p.skipSpace()
	if p.i >= len(p.s) || (p.s[p.i] != '-' && (p.s[p.i] < '0' || p.s[p.i] > '9')) {
		return 0, false
	}
	literal, err := p.numberLiteral()
	if err != nil {
		return 0, false
	}
	if n, ok := smallInteger(literal); ok {
		return n, true
	}
	return numberInt(json.Number(literal))
}

// smallInteger is the value of a number literal that is an integer of at
// most 15 digits, which is always within ±(2^53-1), counted without
// strconv (a duration or a count, the common case); false for any other
// literal, which numberInt reads.
func smallInteger(literal string) (int64, bool) {
	digits := strings.TrimPrefix(literal, "-")
	if len(digits) == 0 || len(digits) > 15 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(digits[i]-'0')
	}
	if len(digits) < len(literal) {
		return -n, true
	}
	return n, true
}

// firstKey opens an object and reads up to its first member's value: the
// member's name and true; false for an empty object (read whole) or where
// the text is no object (failed set). want is as key's.
func (p *parser) firstKey(want string) (string, bool) {
	p.skipSpace()
	if p.i >= len(p.s) || p.s[p.i] != '{' || p.enter() != nil {
		p.failed = true
		return "", false
	}
	if p.next('}') {
		p.depth--
		return "", false
	}
	return p.key(want)
}

// nextKey reads on to the next member's value after one member: its name
// and true; false at the object's end (read) or where the text is not an
// object's member list (failed set). want is as key's.
func (p *parser) nextKey(want string) (string, bool) {
	if p.next(',') {
		return p.key(want)
	}
	if p.next('}') {
		p.depth--
		return "", false
	}
	p.failed = true
	return "", false
}

// key reads a member's name and its colon. want is the name the declared
// order puts next (empty: none), one without a character JSON escapes: the
// name written as want is taken whole, not read character by character.
func (p *parser) key(want string) (string, bool) {
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '"' {
		if rest := p.s[p.i+1:]; want != "" && len(rest) > len(want) && rest[len(want)] == '"' && rest[:len(want)] == want {
			p.i += len(want) + 2
			if p.next(':') {
				return want, true
			}
		} else if name, err := p.str(); err == nil && p.next(':') {
			return name, true
		}
	}
	p.failed = true
	return "", false
}

// writeString writes s as a JSON string (escaping only what JSON requires).
func writeString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// writeComma separates the next object member unless it is the first.
func writeComma(b []byte) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	return b
}

func writeBool(b []byte, v bool) []byte {
	return strconv.AppendBool(b, v)
}

func writeInt(b []byte, v int64) []byte {
	return strconv.AppendInt(b, v, 10)
}

// writeNumber writes a double as encoding/json does (ECMAScript's form, -0
// kept), except that a whole number beyond 2^53-1 gets an exponent
// (1e+16, not 10000000000000000), as the strict readers take an integer
// literal only up to there; NaN and infinities, which JSON cannot hold, as
// null.
func writeNumber(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	return shortestFloat(b, v, maxSafeInteger+1)
}

// shortestFloat appends a finite double with the shortest digits that read
// back as it: positional from 1e-6 up to exponentFrom, with an exponent
// otherwise (1e+21, 1.5e-7, never e-07).
func shortestFloat(b []byte, v, exponentFrom float64) []byte {
	format := byte('f')
	if abs := math.Abs(v); abs != 0 && (abs < 1e-6 || abs >= exponentFrom) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if n := len(b); format == 'e' && b[n-4] == 'e' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// writeAny writes any JSON value: the tree ParseJSON returns, or numbers,
// slices and maps built in Go; objects are written with sorted keys.
func writeAny(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case string:
		return writeString(b, x)
	case json.Number:
		return append(b, x...)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return append(b, "null"...)
		}
		return strconv.AppendFloat(b, x, 'g', -1, 64)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case []any:
		b = append(b, '[')
		for i, item := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = writeAny(b, item)
		}
		return append(b, ']')
	case map[string]any:
		b = append(b, '{')
		for i, k := range sortedKeys(x) {
			if i > 0 {
				b = append(b, ',')
			}
			b = writeString(b, k)
			b = append(b, ':')
			b = writeAny(b, x[k])
		}
		return append(b, '}')
	}
	text, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, text...)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// fillTemplate replaces each {name} hole of template; pairs alternate
// name and value.
func fillTemplate(template string, pairs ...string) string {
	args := make([]string, 0, len(pairs))
	for i := 0; i+1 < len(pairs); i += 2 {
		args = append(args, "{"+pairs[i]+"}", pairs[i+1])
	}
	return strings.NewReplacer(args...).Replace(template)
}
