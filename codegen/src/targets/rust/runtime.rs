/// The strict decoding runtime every generated frame type uses: the JSON-text
/// rules of the contract, error formatting, and the serde adapters that keep
/// absent and null apart.
pub mod strict {
    use std::borrow::Cow;
    use std::fmt;

    /// A frame that failed to decode: the `$defs` type, the JSON path and the problem.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DecodeError {
        /// The `$defs` name being decoded (`Verdict`).
        pub type_name: &'static str,
        /// JSON path of the offending value (`$`, `$.params.tool`, `$.content[0]`).
        pub path: String,
        /// What is wrong (``unknown field `retries` ``).
        pub problem: String,
    }

    impl DecodeError {
        pub fn new(
            type_name: &'static str,
            path: impl Into<String>,
            problem: impl Into<String>,
        ) -> Self {
            Self {
                type_name,
                path: path.into(),
                problem: problem.into(),
            }
        }
    }

    impl fmt::Display for DecodeError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            if self.path == "$" {
                write!(f, "{}: {}", self.type_name, self.problem)
            } else {
                write!(f, "{}: {} at {}", self.type_name, self.problem, self.path)
            }
        }
    }

    impl std::error::Error for DecodeError {}

    /// The largest magnitude of an integer a frame may carry (I-JSON).
    pub const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

    /// Frame text that passed the JSON-text rules.
    #[derive(Debug)]
    pub struct CheckedText<'a> {
        /// The text, with integral numbers written with a fraction or exponent
        /// (`1.0`, `1e2`) rewritten as integers; borrowed when nothing changed.
        pub text: Cow<'a, str>,
        /// The text as given, which `top_level_keys` point into.
        given: &'a str,
        /// The keys of the top-level object, in document order (empty otherwise).
        top_level_keys: Vec<Token>,
    }

    impl Drop for CheckedText<'_> {
        /// Gives the key stack back to this thread's next scan.
        fn drop(&mut self) {
            keep_key_stack(std::mem::take(&mut self.top_level_keys));
        }
    }

    impl CheckedText<'_> {
        /// Whether the top-level object has a member called `name`.
        #[must_use]
        pub fn has_top_level_key(&self, name: &str) -> bool {
            // A key without escapes is its bytes: compared as they are.
            self.top_level_keys.iter().any(|key| {
                if key.escaped {
                    unescape(self.given, *key) == name
                } else {
                    self.given.as_bytes().get(key.start..key.end) == Some(name.as_bytes())
                }
            })
        }
    }

    /// Checks the JSON-text rules (no BOM, one value, no duplicate keys, no lone
    /// surrogates, safe integers, finite numbers, bounded depth) and rewrites
    /// integral numbers written with a fraction or exponent (`1.0`, `1e2`) as
    /// integers. Borrows the text when nothing needs rewriting. An error is
    /// `(JSON path, problem)`.
    ///
    /// # Errors
    ///
    /// The first JSON-text rule the text breaks, as `(JSON path, problem)`.
    pub fn check_text(text: &str, max_depth: usize) -> Result<Cow<'_, str>, (String, String)> {
        scan(text, max_depth).map(|mut checked| std::mem::take(&mut checked.text))
    }

    /// [`check_text`], also noting the top-level keys (for union dispatch).
    /// One pass, one allocation at most (the keys' stack, for a text with an
    /// object); only a failure pays for tracking the path, in a second pass
    /// that spells out where it failed.
    ///
    /// # Errors
    ///
    /// As [`check_text`].
    pub fn scan(text: &str, max_depth: usize) -> Result<CheckedText<'_>, (String, String)> {
        let mut scanner = Scanner::new(text, max_depth, None);
        if text.starts_with('\u{feff}') {
            return Err(("$".into(), "invalid JSON: byte-order mark".into()));
        }
        scanner.skip_ws();
        scanner
            .value(0)
            .map_err(|problem| (path_of_failure(text, max_depth), problem))?;
        scanner.skip_ws();
        if scanner.pos != scanner.bytes.len() {
            return Err((
                "$".into(),
                format!(
                    "invalid JSON: trailing characters at column {}",
                    scanner.pos + 1
                ),
            ));
        }
        let top_level_keys = std::mem::take(&mut scanner.keys);
        if scanner.rewrites.is_empty() {
            return Ok(CheckedText {
                text: Cow::Borrowed(text),
                given: text,
                top_level_keys,
            });
        }
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (start, end, replacement) in &scanner.rewrites {
            out.push_str(&text[last..*start]);
            out.push_str(replacement);
            last = *end;
        }
        out.push_str(&text[last..]);
        Ok(CheckedText {
            text: Cow::Owned(out),
            given: text,
            top_level_keys,
        })
    }

    /// Where the scan of `text` fails: scanned again, tracking the path.
    fn path_of_failure(text: &str, max_depth: usize) -> String {
        let mut scanner = Scanner::new(text, max_depth, Some(Vec::new()));
        scanner.skip_ws();
        let _ = scanner.value(0);
        scanner.spell_path()
    }

    /// The decoded text of a string token of `text` (borrowed when it has no
    /// escapes).
    fn unescape(text: &str, token: Token) -> Cow<'_, str> {
        let raw = &text[token.start..token.end];
        if !token.escaped {
            return Cow::Borrowed(raw);
        }
        let quoted = format!("\"{raw}\"");
        Cow::Owned(serde_json::from_str::<String>(&quoted).unwrap_or_else(|_| raw.to_string()))
    }

    /// A string token: the text between its quotes, and whether it has escapes.
    #[derive(Clone, Copy, Debug)]
    struct Token {
        start: usize,
        end: usize,
        escaped: bool,
    }

    /// Where the scanner is, for spelling the path of an error.
    enum Step {
        Key(Token),
        Index(usize),
    }

    thread_local! {
        /// The key stack of this thread's last scan, kept for its next one:
        /// a decode allocates none.
        static KEY_STACK: std::cell::Cell<Vec<Token>> = const { std::cell::Cell::new(Vec::new()) };
    }

    thread_local! {
        /// How many containers enclose, in its frame, the text this thread
        /// decodes (see [`enclosed`]).
        static ENCLOSING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// Runs `decode`, the decode of a value's text cut from a frame in which
    /// `containers` containers enclose it (a response's `result`: one), so
    /// that the texts it checks may nest that many containers fewer: as
    /// deep as the decode of the whole frame allows them. `None` (and
    /// `decode` not run) when this thread can no longer note it, while its
    /// thread-locals are torn down.
    pub fn enclosed<T>(containers: usize, decode: impl FnOnce() -> T) -> Option<T> {
        let outer = ENCLOSING
            .try_with(|e| e.replace(e.get() + containers))
            .ok()?;
        let result = decode();
        let _ = ENCLOSING.try_with(|e| e.set(outer));
        Some(result)
    }

    /// The most keys a kept key stack has room for (a frame with more
    /// allocates its own).
    const KEY_STACK_KEPT: usize = 1024;

    /// Keeps `keys`' room for this thread's next scan.
    fn keep_key_stack(mut keys: Vec<Token>) {
        if keys.capacity() <= KEY_STACK_KEPT {
            keys.clear();
            // A thread tearing down its locals has none to keep it in.
            let _ = KEY_STACK.try_with(|stack| stack.set(keys));
        }
    }

    /// How many keys of the objects being scanned the scan makes room for at
    /// the first key (a frame's envelope and its params or result: about
    /// ten); a frame without an object allocates nothing.
    const SCANNED_KEYS: usize = 16;

    /// How many bytes `bytes` starts with that a string holds as they are:
    /// no quote, backslash or control character. Eight bytes at a time: a
    /// byte equal to a quote or a backslash, or below 0x20, sets its top bit
    /// in `special` (a byte above one that did may set it too, so the lowest
    /// is the first).
    fn plain_run(bytes: &[u8]) -> usize {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let zero_byte = |word: u64| word.wrapping_sub(ONES) & !word & HIGH;
        let mut run = 0;
        for chunk in bytes.chunks_exact(8) {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            let word = u64::from_le_bytes(word);
            let special = zero_byte(word ^ (ONES * u64::from(b'"')))
                | zero_byte(word ^ (ONES * u64::from(b'\\')))
                | (word.wrapping_sub(ONES * 0x20) & !word & HIGH);
            if special != 0 {
                return run + (special.trailing_zeros() / 8) as usize;
            }
            run += 8;
        }
        run + bytes[run..]
            .iter()
            .take_while(|&&b| b != b'"' && b != b'\\' && b >= 0x20)
            .count()
    }

    /// Reads `text`, a whole frame or value, with `read` (a generated type's
    /// `read_in_place`) in one pass, without the scan and serde's pass:
    /// `None` when the text holds anything but the plain forms a [`Reader`]
    /// reads, which then goes to the strict decode (the scan and serde), so
    /// that every error is found and worded as before. `max_depth` is the
    /// contract's nesting limit, less the containers around the text
    /// ([`enclosed`]).
    pub fn read_whole<'t, T>(
        text: &'t str,
        max_depth: usize,
        read: impl FnOnce(&mut Reader<'t>) -> Option<T>,
    ) -> Option<T> {
        let enclosing = ENCLOSING.try_with(std::cell::Cell::get).ok()?;
        let mut reader = Reader {
            text,
            pos: 0,
            room: max_depth.checked_sub(enclosing)?,
        };
        let value = read(&mut reader)?;
        reader.skip_ws();
        (reader.pos == text.len()).then_some(value)
    }

    /// Sets `slot` to `value`, read from a member: `None` when the value
    /// was not read or the member was seen before (a key seen twice is
    /// left to the decode, which says so).
    pub fn once<T>(slot: &mut Option<T>, value: Option<T>) -> Option<()> {
        if slot.is_some() {
            return None;
        }
        *slot = Some(value?);
        Some(())
    }

    /// A single-pass reader of the plain forms of a frame: objects whose
    /// keys have no escapes, strings without escapes, `true`, `false`,
    /// `null`, and integers written as plain digits within ±(2^53-1). What
    /// it reads, the scan and serde read the same, so it reads only what
    /// the strict decode accepts, and as that decode reads it; each read
    /// gives up (`None`) on anything else (an escape, a fraction or an
    /// exponent, `-0`, a key seen twice, nesting past the limit), leaving
    /// the text to that decode.
    #[derive(Clone, Copy, Debug)]
    pub struct Reader<'t> {
        text: &'t str,
        pos: usize,
        /// How many more containers may open (see [`read_whole`]).
        room: usize,
    }

    impl<'t> Reader<'t> {
        fn skip_ws(&mut self) {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.as_bytes().get(self.pos) {
                self.pos += 1;
            }
        }

        /// Whether the next byte, after whitespace, is `byte` (then read).
        fn eat(&mut self, byte: u8) -> bool {
            if self.text.as_bytes().get(self.pos) != Some(&byte) {
                self.skip_ws();
                if self.text.as_bytes().get(self.pos) != Some(&byte) {
                    return false;
                }
            }
            self.pos += 1;
            true
        }

        /// Reads an object whose members are named `keys`: `member` reads
        /// the value of `keys[index]` after its key; `None` when it does
        /// not, when a key is not one of `keys`, or when the object cannot
        /// be read. The key after `keys[index]` is looked for as
        /// `keys[index + 1]` first (an encoder writes members in their
        /// declared order), written as the text would hold it, before it is
        /// read and looked up.
        pub fn members(
            &mut self,
            keys: &[&str],
            mut member: impl FnMut(&mut Self, usize) -> Option<()>,
        ) -> Option<()> {
            if self.room == 0 || !self.eat(b'{') {
                return None;
            }
            self.room -= 1;
            if !self.eat(b'}') {
                let mut next = 0;
                loop {
                    let index = self.key_of(keys, next)?;
                    member(self, index)?;
                    next = index + 1;
                    if self.eat(b'}') {
                        break;
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            self.room += 1;
            Some(())
        }

        /// The index in `keys` of the key here, and its colon read:
        /// `keys[expected]` when the text holds it here as plainly as can
        /// be written, else the key read and looked up.
        fn key_of(&mut self, keys: &[&str], expected: usize) -> Option<usize> {
            if let Some(key) = keys.get(expected) {
                let bytes = self.text.as_bytes();
                let (open, end) = (self.pos, self.pos + 1 + key.len());
                if bytes.get(open) == Some(&b'"')
                    && bytes.get(open + 1..end) == Some(key.as_bytes())
                    && bytes.get(end..end + 2) == Some(b"\":".as_slice())
                {
                    self.pos = end + 2;
                    return Some(expected);
                }
            }
            let key = self.key()?;
            keys.iter().position(|known| *known == key)
        }

        fn key(&mut self) -> Option<&'t str> {
            let key = self.plain_string()?;
            self.eat(b':').then_some(key)
        }

        /// A string without escapes, as the text holds it.
        fn plain_string(&mut self) -> Option<&'t str> {
            if !self.eat(b'"') {
                return None;
            }
            let start = self.pos;
            let end = start + plain_run(self.text.as_bytes().get(start..)?);
            if self.text.as_bytes().get(end) != Some(&b'"') {
                return None;
            }
            self.pos = end + 1;
            self.text.get(start..end)
        }

        fn literal(&mut self, word: &str) -> bool {
            self.skip_ws();
            // `pos` is always where a character starts (only whole tokens
            // and strings are read past).
            let found = self
                .text
                .as_bytes()
                .get(self.pos..)
                .is_some_and(|rest| rest.starts_with(word.as_bytes()));
            if found {
                self.pos += word.len();
            }
            found
        }

        pub fn string(&mut self) -> Option<String> {
            self.plain_string().map(str::to_string)
        }

        pub fn boolean(&mut self) -> Option<bool> {
            if self.literal("true") {
                Some(true)
            } else {
                self.literal("false").then_some(false)
            }
        }

        /// `null`, as a field of any JSON value reads it.
        pub fn null(&mut self) -> Option<serde_json::Value> {
            self.literal("null").then_some(serde_json::Value::Null)
        }

        pub fn nullable_string(&mut self) -> Option<Option<String>> {
            if self.literal("null") {
                Some(None)
            } else {
                self.string().map(Some)
            }
        }

        /// An integer of at least 0: plain digits, no leading zero.
        pub fn unsigned(&mut self) -> Option<u64> {
            self.skip_ws();
            self.digits()
        }

        /// An integer: plain digits after an optional `-` (`-0` is left to
        /// the decode, which reads it as 0).
        pub fn integer(&mut self) -> Option<i64> {
            self.skip_ws();
            let negative = self.text.as_bytes().get(self.pos) == Some(&b'-');
            self.pos += usize::from(negative);
            let magnitude = i64::try_from(self.digits()?).ok()?;
            match (negative, magnitude) {
                (true, 0) => None,
                (true, _) => Some(-magnitude),
                (false, _) => Some(magnitude),
            }
        }

        /// Plain digits within 2^53-1, no leading zero, no fraction or exponent.
        fn digits(&mut self) -> Option<u64> {
            let bytes = self.text.as_bytes();
            let start = self.pos;
            let mut end = start;
            let mut value: u64 = 0;
            while let Some(digit @ b'0'..=b'9') = bytes.get(end) {
                value = value
                    .checked_mul(10)?
                    .checked_add(u64::from(digit - b'0'))?;
                end += 1;
            }
            let digits = end - start;
            let leading_zero = digits > 1 && bytes[start] == b'0';
            let fraction = matches!(bytes.get(end), Some(b'.' | b'e' | b'E'));
            if digits == 0 || leading_zero || fraction || value > MAX_SAFE_INTEGER.unsigned_abs() {
                return None;
            }
            self.pos = end;
            Some(value)
        }
    }

    struct Scanner<'a> {
        text: &'a str,
        bytes: &'a [u8],
        pos: usize,
        max_depth: usize,
        /// The containers around the text in its frame (see [`enclosed`]).
        enclosing: usize,
        rewrites: Vec<(usize, usize, String)>,
        /// The keys of every object being scanned, innermost last; at the
        /// end, the top-level object's.
        keys: Vec<Token>,
        /// Where the scan is, when it is tracked (to spell out a failure's path).
        path: Option<Vec<Step>>,
    }

    type ScanResult<T> = Result<T, String>;

    impl<'a> Scanner<'a> {
        fn new(text: &'a str, max_depth: usize, path: Option<Vec<Step>>) -> Self {
            Scanner {
                text,
                bytes: text.as_bytes(),
                pos: 0,
                max_depth,
                enclosing: ENCLOSING.try_with(std::cell::Cell::get).unwrap_or(0),
                rewrites: Vec::new(),
                keys: KEY_STACK
                    .try_with(std::cell::Cell::take)
                    .unwrap_or_default(),
                path,
            }
        }

        fn skip_ws(&mut self) {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
        }

        fn syntax(&self, what: &str) -> String {
            format!("invalid JSON: {what} at column {}", self.pos + 1)
        }

        /// The decoded text of a string token (borrowed when it has no escapes).
        fn unescape(&self, token: Token) -> Cow<'a, str> {
            unescape(self.text, token)
        }

        /// Notes a step into a member or an element, when the path is tracked.
        fn step_in(&mut self, step: Step) {
            if let Some(path) = &mut self.path {
                path.push(step);
            }
        }

        fn step_out(&mut self) {
            if let Some(path) = &mut self.path {
                path.pop();
            }
        }

        fn same_key(&self, a: Token, b: Token) -> bool {
            if !a.escaped && !b.escaped {
                return self.bytes[a.start..a.end] == self.bytes[b.start..b.end];
            }
            self.unescape(a) == self.unescape(b)
        }

        fn spell_path(&self) -> String {
            let mut path = String::from("$");
            for step in self.path.iter().flatten() {
                match step {
                    Step::Key(token) => push_key(&mut path, &self.unescape(*token)),
                    Step::Index(i) => path.push_str(&format!("[{i}]")),
                }
            }
            path
        }

        fn expect(&mut self, byte: u8) -> ScanResult<()> {
            if self.bytes.get(self.pos) == Some(&byte) {
                self.pos += 1;
                Ok(())
            } else {
                Err(self.syntax(&format!("expected `{}`", byte as char)))
            }
        }

        fn value(&mut self, depth: usize) -> ScanResult<()> {
            match self.bytes.get(self.pos) {
                Some(b'{') => self.object(depth + 1),
                Some(b'[') => self.array(depth + 1),
                Some(b'"') => self.string().map(|_| ()),
                Some(b't') => self.literal(b"true"),
                Some(b'f') => self.literal(b"false"),
                Some(b'n') => self.literal(b"null"),
                Some(b'-' | b'0'..=b'9') => self.number(),
                _ => Err(self.syntax("expected a value")),
            }
        }

        fn literal(&mut self, word: &[u8]) -> ScanResult<()> {
            if self.bytes[self.pos..].starts_with(word) {
                self.pos += word.len();
                Ok(())
            } else {
                Err(self.syntax("unexpected token"))
            }
        }

        fn enter(&self, depth: usize) -> ScanResult<()> {
            if depth + self.enclosing > self.max_depth {
                Err(format!("nesting deeper than {}", self.max_depth))
            } else {
                Ok(())
            }
        }

        fn object(&mut self, depth: usize) -> ScanResult<()> {
            self.enter(depth)?;
            self.pos += 1;
            self.skip_ws();
            if self.bytes.get(self.pos) == Some(&b'}') {
                self.pos += 1;
                return Ok(());
            }
            let first_key = self.keys.len();
            loop {
                self.skip_ws();
                if self.bytes.get(self.pos) != Some(&b'"') {
                    return Err(self.syntax("expected a key"));
                }
                let key = self.string()?;
                if let Some(&seen) = self.keys[first_key..]
                    .iter()
                    .find(|k| self.same_key(**k, key))
                {
                    return Err(format!("duplicate key `{}`", self.unescape(seen)));
                }
                if self.keys.capacity() == 0 {
                    self.keys.reserve_exact(SCANNED_KEYS);
                }
                self.keys.push(key);
                self.skip_ws();
                self.expect(b':')?;
                self.skip_ws();
                self.step_in(Step::Key(key));
                self.value(depth)?;
                self.step_out();
                self.skip_ws();
                match self.bytes.get(self.pos) {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        if depth > 1 {
                            self.keys.truncate(first_key);
                        }
                        return Ok(());
                    }
                    _ => return Err(self.syntax("expected `,` or `}`")),
                }
            }
        }

        fn array(&mut self, depth: usize) -> ScanResult<()> {
            self.enter(depth)?;
            self.pos += 1;
            self.skip_ws();
            if self.bytes.get(self.pos) == Some(&b']') {
                self.pos += 1;
                return Ok(());
            }
            let mut index = 0usize;
            loop {
                self.skip_ws();
                self.step_in(Step::Index(index));
                self.value(depth)?;
                self.step_out();
                index += 1;
                self.skip_ws();
                match self.bytes.get(self.pos) {
                    Some(b',') => self.pos += 1,
                    Some(b']') => {
                        self.pos += 1;
                        return Ok(());
                    }
                    _ => return Err(self.syntax("expected `,` or `]`")),
                }
            }
        }

        fn hex4(&mut self) -> ScanResult<u32> {
            let digits = self
                .bytes
                .get(self.pos..self.pos + 4)
                .ok_or_else(|| self.syntax("short unicode escape"))?;
            let text =
                std::str::from_utf8(digits).map_err(|_| self.syntax("bad unicode escape"))?;
            let value =
                u32::from_str_radix(text, 16).map_err(|_| self.syntax("bad unicode escape"))?;
            self.pos += 4;
            Ok(value)
        }

        /// Scans a string; its text is decoded only when needed (keys, errors).
        /// Inlined into its two callers: a token returned through memory
        /// was read back before its stores had landed, a stall per string
        /// that took a third of a frame's scan.
        #[inline(always)]
        fn string(&mut self) -> ScanResult<Token> {
            self.pos += 1;
            let start = self.pos;
            let mut escaped = false;
            loop {
                self.pos += plain_run(&self.bytes[self.pos..]);
                match self.bytes.get(self.pos) {
                    Some(b'"') => {
                        self.pos += 1;
                        return Ok(Token {
                            start,
                            end: self.pos - 1,
                            escaped,
                        });
                    }
                    Some(b'\\') => {
                        escaped = true;
                        self.pos += 1;
                        let escape = self.bytes.get(self.pos).copied();
                        self.pos += 1;
                        match escape {
                            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {}
                            Some(b'u') => self.unicode_escape()?,
                            _ => return Err(self.syntax("bad escape")),
                        }
                    }
                    Some(_) => return Err(self.syntax("control character in string")),
                    None => return Err(self.syntax("unterminated string")),
                }
            }
        }

        fn unicode_escape(&mut self) -> ScanResult<()> {
            let lone = || "invalid JSON: lone surrogate escape".to_string();
            let first = self.hex4()?;
            if (0xDC00..0xE000).contains(&first) {
                return Err(lone());
            }
            if !(0xD800..0xDC00).contains(&first) {
                return Ok(());
            }
            if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u") {
                return Err(lone());
            }
            self.pos += 2;
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(lone());
            }
            Ok(())
        }

        fn digits(&mut self) -> usize {
            let start = self.pos;
            while let Some(b'0'..=b'9') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            self.pos - start
        }

        fn number(&mut self) -> ScanResult<()> {
            let start = self.pos;
            if self.bytes.get(self.pos) == Some(&b'-') {
                self.pos += 1;
            }
            let int_start = self.pos;
            let int_digits = self.digits();
            if int_digits == 0 || (int_digits > 1 && self.bytes[int_start] == b'0') {
                return Err(self.syntax("bad number"));
            }
            let mut is_integer_literal = true;
            if self.bytes.get(self.pos) == Some(&b'.') {
                self.pos += 1;
                is_integer_literal = false;
                if self.digits() == 0 {
                    return Err(self.syntax("bad number"));
                }
            }
            if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
                self.pos += 1;
                is_integer_literal = false;
                if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                    self.pos += 1;
                }
                if self.digits() == 0 {
                    return Err(self.syntax("bad number"));
                }
            }
            let literal = &self.text[start..self.pos];
            if is_integer_literal {
                // Up to 15 digits is always inside ±(2^53-1): no need to parse.
                let in_range = int_digits <= 15
                    || literal
                        .parse::<i64>()
                        .is_ok_and(|n| n.abs() <= MAX_SAFE_INTEGER);
                if !in_range {
                    return Err(format!("integer {literal} is outside ±(2^53-1)"));
                }
                // serde_json reads `-0` as the float -0.0; the contract says integer 0.
                if literal == "-0" {
                    self.rewrites.push((start, self.pos, "0".to_string()));
                }
                return Ok(());
            }
            let value: f64 = literal.parse().map_err(|_| self.syntax("bad number"))?;
            if !value.is_finite() {
                return Err(format!("number {literal} overflows a double"));
            }
            if value.fract() == 0.0 && value.abs() <= MAX_SAFE_INTEGER as f64 {
                self.rewrites
                    .push((start, self.pos, format!("{}", value as i64)));
            }
            Ok(())
        }
    }

    /// Appends `.key` or `["key"]` to a JSON path.
    pub fn push_key(path: &mut String, key: &str) {
        let identifier = key
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if identifier {
            path.push('.');
            path.push_str(key);
        } else {
            path.push('[');
            path.push_str(&serde_json::Value::from(key).to_string());
            path.push(']');
        }
    }

    /// The path of the object or array holding the value at `path`.
    #[must_use]
    pub fn parent_path(path: &str) -> String {
        let cut = if path.ends_with(']') {
            path.rfind('[')
        } else {
            path.rfind('.')
        };
        match cut {
            Some(i) if i > 0 => path[..i].to_string(),
            _ => "$".to_string(),
        }
    }

    /// Turns serde's path (`a.b[0]`) into a JSON path (`$.a.b[0]`).
    #[must_use]
    pub fn json_path(serde_path: &serde_path_to_error::Path) -> String {
        let mut path = String::from("$");
        for segment in serde_path.iter() {
            match segment {
                serde_path_to_error::Segment::Seq { index } => path.push_str(&format!("[{index}]")),
                serde_path_to_error::Segment::Map { key } => push_key(&mut path, key),
                serde_path_to_error::Segment::Enum { variant } => push_key(&mut path, variant),
                serde_path_to_error::Segment::Unknown => {}
            }
        }
        path
    }

    /// The JSON kind of a serde "unexpected" description, in the contract's words.
    fn kind_of_unexpected(text: &str) -> &'static str {
        if text.starts_with("string") {
            "string"
        } else if text.starts_with("integer") {
            "integer"
        } else if text.starts_with("floating point") {
            "number"
        } else if text.starts_with("boolean") {
            "boolean"
        } else if text.starts_with("null") || text.starts_with("unit") {
            "null"
        } else if text.starts_with("map") {
            "object"
        } else if text.starts_with("sequence") {
            "array"
        } else {
            "value"
        }
    }

    /// The JSON kind serde expected, in the contract's words.
    fn kind_of_expected(text: &str) -> String {
        let t = text.trim();
        if t.contains("integer or string") {
            "integer or string".into()
        } else if t.contains("variant identifier") {
            "string".into()
        } else if t == "f64" {
            "number".into()
        } else if t.contains("nonzero") {
            "integer >= 1".into()
        } else if t.starts_with('u') && t.len() <= 5 && t[1..].chars().all(|c| c.is_ascii_digit()) {
            "integer >= 0".into()
        } else if t.starts_with('i') && t.len() <= 5 && t[1..].chars().all(|c| c.is_ascii_digit()) {
            "integer".into()
        } else if t.contains("string") {
            "string".into()
        } else if t.contains("boolean") {
            "boolean".into()
        } else if t.contains("sequence") {
            "array".into()
        } else if t.starts_with("struct") || t.contains("map") || t.contains("object") {
            "object".into()
        } else {
            t.to_string()
        }
    }

    /// Rewrites `serde_json`'s messages into the contract's problem wording.
    #[must_use]
    pub fn problem_from_serde(message: &str) -> String {
        let message = match message.find(" at line ") {
            Some(i) => &message[..i],
            None => message,
        };
        if message.starts_with("unknown field") || message.starts_with("unknown variant") {
            let head = message.split(", expected").next().unwrap_or(message);
            let head = head.split(", there are no fields").next().unwrap_or(head);
            if let Some(rest) = head.strip_prefix("unknown variant ") {
                let got = rest.trim_matches('`');
                // serde lists the values as `a`, `a` or `b`, or one of `a`, `b`, `c`.
                let listed = message.split(", expected ").nth(1).unwrap_or("");
                let names: Vec<String> = listed
                    .split('`')
                    .skip(1)
                    .step_by(2)
                    .map(|name| serde_json::Value::from(name).to_string())
                    .collect();
                let got = serde_json::Value::from(got);
                return match names.as_slice() {
                    [one] => format!("expected {one}, got {got}"),
                    names => format!("expected one of {}, got {got}", names.join(", ")),
                };
            }
            return head.to_string();
        }
        if let Some(rest) = message.strip_prefix("invalid type: ") {
            if let Some((got, expected)) = rest.split_once(", expected ") {
                // A wrong kind names the kind only (`integer`, not `integer >= 0`).
                let (expected, or_null) = match expected.strip_suffix(" or null") {
                    Some(base) => (base, " or null"),
                    None => (expected, ""),
                };
                let kind = kind_of_expected(expected);
                let kind = kind.split(" >=").next().unwrap_or(&kind);
                return format!("expected {kind}{or_null}, got {}", kind_of_unexpected(got));
            }
        }
        if let Some(rest) = message.strip_prefix("invalid value: integer `") {
            if let Some((got, expected)) = rest.split_once("`, expected ") {
                return format!("expected {}, got {got}", kind_of_expected(expected));
            }
        }
        message.to_string()
    }

    /// Deserializes a present optional field: `T` itself, so that `null` is a
    /// type error instead of silently meaning "absent".
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is not a `T` (`null` included).
    pub fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de>,
    {
        T::deserialize(deserializer).map(Some)
    }

    /// Deserializes a required nullable field: like `Option<T>`, but a wrong
    /// kind says `expected string or null`.
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is neither `null` nor a `T`.
    pub fn nullable<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de>,
    {
        <Option<T> as serde::Deserialize>::deserialize(deserializer).map_err(|e| {
            let message = e.to_string();
            let message = message.split(" at line ").next().unwrap_or(&message);
            let union_root = format!("{INNER_PATH}$");
            if message.starts_with("invalid type: ") && own_kind_error::<T>(message) {
                <D::Error as serde::de::Error>::custom(format!("{message} or null"))
            } else if let Some(got) = message
                .strip_prefix("expected object, got ")
                .filter(|rest| rest.ends_with(&union_root))
            {
                // A nested union's value of another kind.
                <D::Error as serde::de::Error>::custom(format!(
                    "expected object or null, got {got}"
                ))
            } else {
                <D::Error as serde::de::Error>::custom(message)
            }
        })
    }

    /// Whether serde's `message` (`invalid type: ..., expected ...`) is about
    /// the kind of the `T` itself rather than of one of its members or items:
    /// `T` read from a unit value expects the same thing.
    fn own_kind_error<'de, T: serde::Deserialize<'de>>(message: &str) -> bool {
        let unit = serde::de::value::UnitDeserializer::<serde::de::value::Error>::new();
        let Err(own) = T::deserialize(unit) else {
            return true;
        };
        let expected = |m: &str| m.split_once(", expected ").map(|(_, e)| e.to_string());
        expected(message).is_some() && expected(message) == expected(&own.to_string())
    }

    /// Deserializes a required integer field with inclusive bounds (`i64::MIN`
    /// and `i64::MAX` stand for none) that is a multiple of `DIVISOR` (1 for
    /// any integer), breaking a constraint in the contract's words.
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is not an integer, or the
    /// constraint the integer breaks.
    pub fn integer_within<'de, D, const MIN: i64, const MAX: i64, const DIVISOR: i64>(
        deserializer: D,
    ) -> Result<i64, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let value = <i64 as serde::Deserialize>::deserialize(deserializer)?;
        within(value, MIN, MAX, DIVISOR)
    }

    /// [`integer_within`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`integer_within`] (`null` included).
    pub fn present_integer_within<'de, D, const MIN: i64, const MAX: i64, const DIVISOR: i64>(
        deserializer: D,
    ) -> Result<Option<i64>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        integer_within::<D, MIN, MAX, DIVISOR>(deserializer).map(Some)
    }

    /// [`integer_within`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable`], or the constraint the integer breaks.
    pub fn nullable_integer_within<'de, D, const MIN: i64, const MAX: i64, const DIVISOR: i64>(
        deserializer: D,
    ) -> Result<Option<i64>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        match nullable::<D, i64>(deserializer)? {
            Some(value) => within(value, MIN, MAX, DIVISOR).map(Some),
            None => Ok(None),
        }
    }

    /// No bound on a number, and no divisor ([`number_within`]).
    pub const UNBOUNDED: u128 = 0;

    /// A bound's flag: there is one (its double's bits are the low 64).
    const BOUNDED: u128 = 1 << 64;

    /// A bound's flag: the bound itself is outside.
    const EXCLUSIVE: u128 = 1 << 65;

    /// An inclusive minimum as a const generic argument of
    /// [`number_within`] (a double cannot be one: its bits are).
    #[must_use]
    pub const fn at_least(bound: f64) -> u128 {
        BOUNDED | bound.to_bits() as u128
    }

    /// An exclusive minimum ([`at_least`]).
    #[must_use]
    pub const fn above(bound: f64) -> u128 {
        EXCLUSIVE | at_least(bound)
    }

    /// An inclusive maximum ([`at_least`]).
    #[must_use]
    pub const fn at_most(bound: f64) -> u128 {
        at_least(bound)
    }

    /// An exclusive maximum ([`at_least`]).
    #[must_use]
    pub const fn below(bound: f64) -> u128 {
        above(bound)
    }

    /// A divisor of [`number_within`], `digits` × 10^`exponent` (`digits`
    /// below 10^14, without a trailing zero).
    #[must_use]
    pub const fn multiple_of(digits: u64, exponent: i32) -> u128 {
        BOUNDED | digits as u128 | ((exponent as u32 as u128) << 66)
    }

    /// Deserializes a required number field (any JSON number, read as a
    /// double) within a minimum and a maximum ([`at_least`], [`above`],
    /// [`at_most`], [`below`] or [`UNBOUNDED`]), compared exactly as
    /// doubles, and a multiple of `DIVISOR` ([`multiple_of`] or
    /// [`UNBOUNDED`]; [`is_multiple`] says how), breaking a constraint in the
    /// contract's words. The double is the
    /// nearest one only with `serde_json`'s `float_roundtrip` feature, which
    /// a contract with numbers needs.
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is not a number, or the
    /// bound the number breaks.
    pub fn number_within<'de, D, const MIN: u128, const MAX: u128, const DIVISOR: u128>(
        deserializer: D,
    ) -> Result<f64, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let value = <f64 as serde::Deserialize>::deserialize(deserializer)?;
        number_in(value, MIN, MAX, DIVISOR)
    }

    /// [`number_within`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`number_within`] (`null` included).
    pub fn present_number_within<'de, D, const MIN: u128, const MAX: u128, const DIVISOR: u128>(
        deserializer: D,
    ) -> Result<Option<f64>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        number_within::<D, MIN, MAX, DIVISOR>(deserializer).map(Some)
    }

    /// [`number_within`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable`], or the bound the number breaks.
    pub fn nullable_number_within<'de, D, const MIN: u128, const MAX: u128, const DIVISOR: u128>(
        deserializer: D,
    ) -> Result<Option<f64>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        match nullable::<D, f64>(deserializer)? {
            Some(value) => number_in(value, MIN, MAX, DIVISOR).map(Some),
            None => Ok(None),
        }
    }

    /// A double as ECMAScript's `String(x)` writes it, as every SDK words a
    /// number in a problem: the shortest digits that read back as the same
    /// double, positional from 1e-6 up to 1e21 and with an exponent
    /// (`1e+21`, `1.5e-7`) outside, `-0` as `0`.
    #[must_use]
    pub fn number_text(value: f64) -> String {
        if value == 0.0 {
            return "0".to_string();
        }
        if value < 0.0 {
            return format!("-{}", number_text(-value));
        }
        // `{:e}` gives the shortest digits: `1.5e-7`, `1e21`.
        let scientific = format!("{value:e}");
        let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
        let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        let exponent: i32 = exponent.parse().unwrap_or(0);
        // value = 0.digits × 10^point
        let point = exponent + 1;
        let places = point.unsigned_abs() as usize;
        if (1..=21).contains(&point) {
            if digits.len() <= places {
                format!("{digits}{}", "0".repeat(places - digits.len()))
            } else {
                format!("{}.{}", &digits[..places], &digits[places..])
            }
        } else if (-5..=0).contains(&point) {
            format!("0.{}{digits}", "0".repeat(places))
        } else {
            let sign = if exponent < 0 { '-' } else { '+' };
            let (first, rest) = digits.split_at(1);
            let rest = if rest.is_empty() {
                String::new()
            } else {
                format!(".{rest}")
            };
            format!("{first}{rest}e{sign}{}", exponent.unsigned_abs())
        }
    }

    /// Deserializes a required string field whose length in Unicode code
    /// points lies within `MIN..=MAX`, breaking a bound in the contract's
    /// words.
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is not a string, or the
    /// bound its length breaks.
    pub fn length_within<'de, D, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<String, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let text = <String as serde::Deserialize>::deserialize(deserializer)?;
        count_within(text.chars().count(), MIN, MAX, "character")?;
        Ok(text)
    }

    /// [`length_within`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`length_within`] (`null` included).
    pub fn present_length_within<'de, D, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<String>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        length_within::<D, MIN, MAX>(deserializer).map(Some)
    }

    /// [`length_within`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable`], or the bound the length breaks.
    pub fn nullable_length_within<'de, D, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<String>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        match nullable::<D, String>(deserializer)? {
            Some(text) => {
                count_within(text.chars().count(), MIN, MAX, "character").map(|()| Some(text))
            }
            None => Ok(None),
        }
    }

    /// A string `const`: the generated `constants` module implements it for
    /// each distinct value of the contract.
    pub trait Literal {
        /// The string.
        const VALUE: &'static str;
    }

    /// The problem of a value other than the `const`, both as JSON text.
    fn not_constant<E: serde::de::Error>(expected: &str, got: &str) -> E {
        E::custom(format!("expected {expected}, got {got}"))
    }

    /// Deserializes a required string field that must be `L::VALUE` (`const`).
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is not a string, or the
    /// contract's problem for another string.
    pub fn string_constant<'de, D, L: Literal>(deserializer: D) -> Result<String, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let text = <String as serde::Deserialize>::deserialize(deserializer)?;
        if text == L::VALUE {
            return Ok(text);
        }
        let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
        Err(not_constant(&quote(L::VALUE), &quote(&text)))
    }

    /// [`string_constant`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`string_constant`] (`null` included).
    pub fn present_string_constant<'de, D, L: Literal>(
        deserializer: D,
    ) -> Result<Option<String>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        string_constant::<D, L>(deserializer).map(Some)
    }

    /// Deserializes a required integer field that must be `VALUE` (`const`).
    ///
    /// # Errors
    ///
    /// As [`integer_within`] for a value that is not an integer, or the
    /// contract's problem for another integer.
    pub fn integer_constant<'de, D, const VALUE: i64>(deserializer: D) -> Result<i64, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let n = integer_within::<D, { i64::MIN }, { i64::MAX }, 1>(deserializer)?;
        if n == VALUE {
            return Ok(n);
        }
        Err(not_constant(&VALUE.to_string(), &n.to_string()))
    }

    /// [`integer_constant`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`integer_constant`] (`null` included).
    pub fn present_integer_constant<'de, D, const VALUE: i64>(
        deserializer: D,
    ) -> Result<Option<i64>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        integer_constant::<D, VALUE>(deserializer).map(Some)
    }

    /// Deserializes a required boolean field that must be `VALUE` (`const`).
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is not a boolean, or the
    /// contract's problem for the other one.
    pub fn boolean_constant<'de, D, const VALUE: bool>(deserializer: D) -> Result<bool, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let b = <bool as serde::Deserialize>::deserialize(deserializer)?;
        if b == VALUE {
            return Ok(b);
        }
        Err(not_constant(&VALUE.to_string(), &b.to_string()))
    }

    /// [`boolean_constant`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`boolean_constant`] (`null` included).
    pub fn present_boolean_constant<'de, D, const VALUE: bool>(
        deserializer: D,
    ) -> Result<Option<bool>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        boolean_constant::<D, VALUE>(deserializer).map(Some)
    }

    /// A schema `pattern`: the generated `patterns` module implements it for
    /// each distinct pattern of the contract.
    pub trait Pattern {
        /// The problem a string the pattern finds no match in gets.
        const PROBLEM: &'static str;

        /// Whether the pattern (searched, not anchored) finds a match in `text`.
        fn is_match(text: &str) -> bool;
    }

    /// Deserializes a required string field whose length in Unicode code
    /// points lies within `MIN..=MAX` and in which the pattern `P` finds a
    /// match (the length is checked first).
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is not a string, the bound
    /// its length breaks, or the pattern's problem.
    pub fn matching_within<'de, D, const MIN: usize, const MAX: usize, P: Pattern>(
        deserializer: D,
    ) -> Result<String, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let text = <String as serde::Deserialize>::deserialize(deserializer)?;
        matching::<D::Error, MIN, MAX, P>(text)
    }

    /// [`matching_within`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`matching_within`] (`null` included).
    pub fn present_matching_within<'de, D, const MIN: usize, const MAX: usize, P: Pattern>(
        deserializer: D,
    ) -> Result<Option<String>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        matching_within::<D, MIN, MAX, P>(deserializer).map(Some)
    }

    /// [`matching_within`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable`], or the bound or pattern the string breaks.
    pub fn nullable_matching_within<'de, D, const MIN: usize, const MAX: usize, P: Pattern>(
        deserializer: D,
    ) -> Result<Option<String>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        match nullable::<D, String>(deserializer)? {
            Some(text) => matching::<D::Error, MIN, MAX, P>(text).map(Some),
            None => Ok(None),
        }
    }

    fn matching<E: serde::de::Error, const MIN: usize, const MAX: usize, P: Pattern>(
        text: String,
    ) -> Result<String, E> {
        if MIN > 0 || MAX < usize::MAX {
            count_within(text.chars().count(), MIN, MAX, "character")?;
        }
        if P::is_match(&text) {
            Ok(text)
        } else {
            Err(E::custom(P::PROBLEM))
        }
    }

    /// Deserializes a required array field whose number of items lies
    /// within `MIN..=MAX` (the items are read first).
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is not an array of `T`, or
    /// the bound the number of items breaks.
    pub fn items_within<'de, D, T, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Vec<T>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de>,
    {
        let items = <Vec<T> as serde::Deserialize>::deserialize(deserializer)?;
        count_within(items.len(), MIN, MAX, "item")?;
        Ok(items)
    }

    /// A map's number of members and their names: what [`members_within`]
    /// counts and [`named_members_within`] checks.
    pub trait Members {
        /// How many members the map has.
        fn members(&self) -> usize;

        /// The members' names.
        fn names(&self) -> impl Iterator<Item = &str>;
    }

    impl<V> Members for std::collections::BTreeMap<String, V> {
        fn members(&self) -> usize {
            self.len()
        }

        fn names(&self) -> impl Iterator<Item = &str> {
            self.keys().map(String::as_str)
        }
    }

    impl Members for serde_json::Map<String, serde_json::Value> {
        fn members(&self) -> usize {
            self.len()
        }

        fn names(&self) -> impl Iterator<Item = &str> {
            self.keys().map(String::as_str)
        }
    }

    /// A problem in the contract's words, apart from any deserializer (what
    /// a member name's check gives).
    #[derive(Debug)]
    pub struct Problem(String);

    impl std::fmt::Display for Problem {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl std::error::Error for Problem {}

    impl serde::de::Error for Problem {
        fn custom<T: std::fmt::Display>(message: T) -> Self {
            Problem(message.to_string())
        }
    }

    /// Checks a member name's length in Unicode code points against
    /// `MIN..=MAX` (`propertyNames` with a length).
    ///
    /// # Errors
    ///
    /// The bound the name's length breaks.
    pub fn name_within<const MIN: usize, const MAX: usize>(name: &str) -> Result<(), Problem> {
        count_within(name.chars().count(), MIN, MAX, "character")
    }

    /// Checks a member name's length against `MIN..=MAX`, then the pattern
    /// `P` (`propertyNames` with a pattern).
    ///
    /// # Errors
    ///
    /// The bound the name's length breaks, or the pattern's problem.
    pub fn name_matching<const MIN: usize, const MAX: usize, P: Pattern>(
        name: &str,
    ) -> Result<(), Problem> {
        matching::<Problem, MIN, MAX, P>(name.to_string()).map(drop)
    }

    /// Deserializes a map whose member names each pass `check` (the values
    /// are read first; of the names that fail, the first in code-point order
    /// is reported) and whose number of members lies within `min..=max`.
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is not such a map, the
    /// problem of a member name, or the bound the number of members breaks.
    pub fn named_members_within<'de, D, M>(
        deserializer: D,
        min: usize,
        max: usize,
        check: fn(&str) -> Result<(), Problem>,
    ) -> Result<M, D::Error>
    where
        D: serde::Deserializer<'de>,
        M: serde::Deserialize<'de> + Members,
    {
        let members = M::deserialize(deserializer)?;
        let mut failed: Option<(&str, Problem)> = None;
        for name in members.names() {
            if let Err(problem) = check(name) {
                if failed.as_ref().is_none_or(|(first, _)| name < *first) {
                    failed = Some((name, problem));
                }
            }
        }
        if let Some((name, problem)) = failed {
            let quoted = serde_json::to_string(name).unwrap_or_default();
            return Err(serde::de::Error::custom(format!(
                "member name {quoted}: {problem}"
            )));
        }
        count_within(members.members(), min, max, "member")?;
        Ok(members)
    }

    /// Deserializes a map whose number of members lies within `min..=max`
    /// (the values are read first), breaking a bound in the contract's words.
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is not such a map, or the
    /// bound the number of members breaks.
    pub fn members_within<'de, D, M>(deserializer: D, min: usize, max: usize) -> Result<M, D::Error>
    where
        D: serde::Deserializer<'de>,
        M: serde::Deserialize<'de> + Members,
    {
        let members = M::deserialize(deserializer)?;
        count_within(members.members(), min, max, "member")?;
        Ok(members)
    }

    /// [`items_within`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`items_within`] (`null` included).
    pub fn present_items_within<'de, D, T, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<T>>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de>,
    {
        items_within::<D, T, MIN, MAX>(deserializer).map(Some)
    }

    /// [`items_within`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable`], or the bound the number of items breaks.
    pub fn nullable_items_within<'de, D, T, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<T>>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de>,
    {
        match nullable_array(deserializer, std::marker::PhantomData::<T>)? {
            Some(items) => count_within(items.len(), MIN, MAX, "item").map(|()| Some(items)),
            None => Ok(None),
        }
    }

    /// Reads `null` or an array whose items `seed` reads. A value of another
    /// kind is `expected array or null`; an item's own problem keeps its words
    /// (`expected string` at `$.names[0]`, not `expected string or null`).
    fn nullable_array<'de, D, S>(
        deserializer: D,
        seed: S,
    ) -> Result<Option<Vec<S::Value>>, D::Error>
    where
        D: serde::Deserializer<'de>,
        S: serde::de::DeserializeSeed<'de> + Clone,
    {
        struct Items<S>(S);
        impl<'de, S: serde::de::DeserializeSeed<'de> + Clone> serde::de::Visitor<'de> for Items<S> {
            type Value = Option<Vec<S::Value>>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a sequence or null")
            }

            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }

            fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element_seed(self.0.clone())? {
                    items.push(item);
                }
                Ok(Some(items))
            }
        }
        deserializer.deserialize_any(Items(seed))
    }

    /// One value's strict read: what [`each`] applies to every item of an
    /// array.
    pub trait Check {
        /// The value read.
        type Value;

        /// Reads one value, breaking a constraint in the contract's words.
        ///
        /// # Errors
        ///
        /// The deserializer's error for a value of another kind, or the
        /// constraint the value breaks.
        fn read<'de, D: serde::Deserializer<'de>>(deserializer: D)
            -> Result<Self::Value, D::Error>;
    }

    /// An integer within inclusive bounds that is a multiple of `DIVISOR`
    /// ([`integer_within`]).
    pub struct IntegerWithin<const MIN: i64, const MAX: i64, const DIVISOR: i64>;

    impl<const MIN: i64, const MAX: i64, const DIVISOR: i64> Check
        for IntegerWithin<MIN, MAX, DIVISOR>
    {
        type Value = i64;

        fn read<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
            integer_within::<D, MIN, MAX, DIVISOR>(deserializer)
        }
    }

    /// A number within a minimum and a maximum that is a multiple of
    /// `DIVISOR` ([`number_within`]).
    pub struct NumberWithin<const MIN: u128, const MAX: u128, const DIVISOR: u128>;

    impl<const MIN: u128, const MAX: u128, const DIVISOR: u128> Check
        for NumberWithin<MIN, MAX, DIVISOR>
    {
        type Value = f64;

        fn read<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
            number_within::<D, MIN, MAX, DIVISOR>(deserializer)
        }
    }

    /// A string of `MIN` to `MAX` code points ([`length_within`]).
    pub struct LengthWithin<const MIN: usize, const MAX: usize>;

    impl<const MIN: usize, const MAX: usize> Check for LengthWithin<MIN, MAX> {
        type Value = String;

        fn read<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
            length_within::<D, MIN, MAX>(deserializer)
        }
    }

    /// A string of `MIN` to `MAX` code points in which `P` finds a match
    /// ([`matching_within`]).
    pub struct MatchingWithin<const MIN: usize, const MAX: usize, P>(std::marker::PhantomData<P>);

    impl<const MIN: usize, const MAX: usize, P: Pattern> Check for MatchingWithin<MIN, MAX, P> {
        type Value = String;

        fn read<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
            matching_within::<D, MIN, MAX, P>(deserializer)
        }
    }

    /// Deserializes a required array field of `MIN` to `MAX` items, each
    /// read by `C`: an item's problem is at its index, and the count is
    /// checked after the items.
    ///
    /// # Errors
    ///
    /// The deserializer's error for a value that is not an array, the first
    /// item's problem, or the bound the number of items breaks.
    pub fn each<'de, D, C, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Vec<C::Value>, D::Error>
    where
        D: serde::Deserializer<'de>,
        C: Check,
    {
        struct Items<C>(std::marker::PhantomData<C>);
        impl<'de, C: Check> serde::de::Visitor<'de> for Items<C> {
            type Value = Vec<C::Value>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a sequence")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element_seed(Item::<C>(std::marker::PhantomData))? {
                    items.push(item);
                }
                Ok(items)
            }
        }
        let items = deserializer.deserialize_seq(Items::<C>(std::marker::PhantomData))?;
        count_within(items.len(), MIN, MAX, "item")?;
        Ok(items)
    }

    /// One item of [`each`]: read by `C`.
    struct Item<C>(std::marker::PhantomData<C>);

    impl<C> Clone for Item<C> {
        fn clone(&self) -> Self {
            Self(std::marker::PhantomData)
        }
    }

    impl<'de, C: Check> serde::de::DeserializeSeed<'de> for Item<C> {
        type Value = C::Value;

        fn deserialize<D: serde::Deserializer<'de>>(
            self,
            deserializer: D,
        ) -> Result<C::Value, D::Error> {
            C::read(deserializer)
        }
    }

    /// [`each`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`each`].
    pub fn present_each<'de, D, C, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<C::Value>>, D::Error>
    where
        D: serde::Deserializer<'de>,
        C: Check,
    {
        each::<D, C, MIN, MAX>(deserializer).map(Some)
    }

    /// [`each`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable`], or as [`each`].
    pub fn nullable_each<'de, D, C, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<C::Value>>, D::Error>
    where
        D: serde::Deserializer<'de>,
        C: Check,
    {
        match nullable_array(deserializer, Item::<C>(std::marker::PhantomData))? {
            Some(items) => count_within(items.len(), MIN, MAX, "item").map(|()| Some(items)),
            None => Ok(None),
        }
    }

    /// [`items_within`] for an array whose items must be pairwise distinct
    /// (`uniqueItems`), compared as decoded (`1.0` is `1`) after the count.
    ///
    /// # Errors
    ///
    /// As [`items_within`], or the first item equal to an earlier one.
    pub fn unique_items_within<'de, D, T, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Vec<T>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de> + Eq + std::hash::Hash,
    {
        let items = items_within::<D, T, MIN, MAX>(deserializer)?;
        unique(&items)?;
        Ok(items)
    }

    /// [`unique_items_within`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`unique_items_within`] (`null` included).
    pub fn present_unique_items_within<'de, D, T, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<T>>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de> + Eq + std::hash::Hash,
    {
        unique_items_within::<D, T, MIN, MAX>(deserializer).map(Some)
    }

    /// [`unique_items_within`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable_items_within`], or the first item equal to an earlier one.
    pub fn nullable_unique_items_within<'de, D, T, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<T>>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de> + Eq + std::hash::Hash,
    {
        let items = nullable_items_within::<D, T, MIN, MAX>(deserializer)?;
        if let Some(items) = &items {
            unique(items)?;
        }
        Ok(items)
    }

    fn unique<E: serde::de::Error, T: Eq + std::hash::Hash>(items: &[T]) -> Result<(), E> {
        let mut seen = std::collections::HashMap::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            if let Some(first) = seen.insert(item, index) {
                return Err(E::custom(format!(
                    "expected unique items, got item {index} equal to item {first}"
                )));
            }
        }
        Ok(())
    }

    /// [`items_within`] for an array of `$defs` types, arrays or nullable
    /// items that must be pairwise distinct (`uniqueItems`), after the count:
    /// by [`json_equal`] of the items written back as JSON values, which is
    /// JSON equality of the values they were read from (reading keeps
    /// everything that equality looks at).
    ///
    /// # Errors
    ///
    /// As [`items_within`], or the first item equal to an earlier one.
    pub fn unique_read_within<'de, D, T, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Vec<T>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de> + serde::Serialize,
    {
        let items = items_within::<D, T, MIN, MAX>(deserializer)?;
        unique_read(&items)?;
        Ok(items)
    }

    /// [`unique_read_within`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`unique_read_within`] (`null` included).
    pub fn present_unique_read_within<'de, D, T, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<T>>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de> + serde::Serialize,
    {
        unique_read_within::<D, T, MIN, MAX>(deserializer).map(Some)
    }

    /// [`unique_read_within`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable_items_within`], or the first item equal to an earlier one.
    pub fn nullable_unique_read_within<'de, D, T, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<T>>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de> + serde::Serialize,
    {
        let items = nullable_items_within::<D, T, MIN, MAX>(deserializer)?;
        if let Some(items) = &items {
            unique_read(items)?;
        }
        Ok(items)
    }

    fn unique_read<E: serde::de::Error, T: serde::Serialize>(items: &[T]) -> Result<(), E> {
        let values = items
            .iter()
            .map(serde_json::to_value)
            .collect::<Result<Vec<_>, _>>()
            .map_err(E::custom)?;
        unique_json(&values)
    }

    /// [`items_within`] for an array of any JSON values whose items must be
    /// pairwise distinct (`uniqueItems`) by [`json_equal`], after the count.
    ///
    /// # Errors
    ///
    /// As [`items_within`], or the first item equal to an earlier one.
    pub fn unique_json_within<'de, D, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Vec<serde_json::Value>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let items = items_within::<D, serde_json::Value, MIN, MAX>(deserializer)?;
        unique_json(&items)?;
        Ok(items)
    }

    /// [`unique_json_within`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`unique_json_within`] (`null` included).
    pub fn present_unique_json_within<'de, D, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<serde_json::Value>>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        unique_json_within::<D, MIN, MAX>(deserializer).map(Some)
    }

    /// [`unique_json_within`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable_items_within`], or the first item equal to an earlier one.
    pub fn nullable_unique_json_within<'de, D, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<serde_json::Value>>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let items = nullable_items_within::<D, serde_json::Value, MIN, MAX>(deserializer)?;
        if let Some(items) = &items {
            unique_json(items)?;
        }
        Ok(items)
    }

    /// The code of an item's JSON kind in [`prefix_kinds_within`]'s `KINDS`:
    /// 0 past the prefix (the rest's kind applies), 8 any kind.
    const KIND_CODES: [&str; 9] = [
        "", "null", "boolean", "integer", "number", "string", "array", "object", "",
    ];

    /// [`items_within`] for an array of any JSON values whose first items
    /// must be of the JSON kinds `KINDS` lists (`prefixItems`) and whose
    /// later items of the kind it gives the rest (an integer is a number
    /// too), after the count; with `UNIQUE`, pairwise distinct by JSON
    /// equality after that. `KINDS` holds a kind code per item in its 4-bit
    /// groups from the lowest (up to 15 items: 1 null, 2 boolean, 3 integer,
    /// 4 number, 5 string, 6 array, 7 object, 8 any, 0 past the prefix) and
    /// the rest's in its highest (0 or 8 for any).
    ///
    /// # Errors
    ///
    /// As [`items_within`], the first item of another kind (at its index),
    /// or the first item equal to an earlier one.
    pub fn prefix_kinds_within<
        'de,
        D,
        const MIN: usize,
        const MAX: usize,
        const UNIQUE: bool,
        const KINDS: u64,
    >(
        deserializer: D,
    ) -> Result<Vec<serde_json::Value>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let items = items_within::<D, serde_json::Value, MIN, MAX>(deserializer)?;
        prefix_kinds(&items, KINDS)?;
        if UNIQUE {
            unique_json(&items)?;
        }
        Ok(items)
    }

    /// [`prefix_kinds_within`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`prefix_kinds_within`] (`null` included).
    pub fn present_prefix_kinds_within<
        'de,
        D,
        const MIN: usize,
        const MAX: usize,
        const UNIQUE: bool,
        const KINDS: u64,
    >(
        deserializer: D,
    ) -> Result<Option<Vec<serde_json::Value>>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        prefix_kinds_within::<D, MIN, MAX, UNIQUE, KINDS>(deserializer).map(Some)
    }

    /// [`prefix_kinds_within`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable_items_within`], or as [`prefix_kinds_within`].
    pub fn nullable_prefix_kinds_within<
        'de,
        D,
        const MIN: usize,
        const MAX: usize,
        const UNIQUE: bool,
        const KINDS: u64,
    >(
        deserializer: D,
    ) -> Result<Option<Vec<serde_json::Value>>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let items = nullable_items_within::<D, serde_json::Value, MIN, MAX>(deserializer)?;
        if let Some(items) = &items {
            prefix_kinds(items, KINDS)?;
            if UNIQUE {
                unique_json(items)?;
            }
        }
        Ok(items)
    }

    fn prefix_kinds<E: serde::de::Error>(items: &[serde_json::Value], kinds: u64) -> Result<(), E> {
        let rest = (kinds >> 60) as usize;
        for (i, item) in items.iter().enumerate() {
            let code = if i < 15 {
                (kinds >> (4 * i)) as usize & 0xF
            } else {
                0
            };
            let kind = KIND_CODES
                .get(if code == 0 { rest } else { code })
                .copied()
                .unwrap_or("");
            let got = kind_of(item);
            if !kind.is_empty() && kind != got && !(kind == "number" && got == "integer") {
                return Err(E::custom(nested_problem(
                    &format!("expected {kind}, got {got}"),
                    &format!("$[{i}]"),
                )));
            }
        }
        Ok(())
    }

    /// A value's JSON kind as the problems name it: a number with an
    /// integral value within ±(2^53-1) is an `integer`.
    fn kind_of(value: &serde_json::Value) -> &'static str {
        match value.as_f64() {
            Some(x) if x.fract() == 0.0 && x.abs() <= MAX_SAFE_INTEGER as f64 => "integer",
            Some(_) => "number",
            None => kind(value),
        }
    }

    /// [`items_within`] for an array of numbers whose items must be
    /// pairwise distinct (`uniqueItems`) as doubles (`1` is `1.0`, `-0.0` is
    /// `0.0`), after the count.
    ///
    /// # Errors
    ///
    /// As [`items_within`], or the first item equal to an earlier one.
    pub fn unique_numbers_within<'de, D, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Vec<f64>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let items = items_within::<D, f64, MIN, MAX>(deserializer)?;
        unique_numbers(&items)?;
        Ok(items)
    }

    /// [`unique_numbers_within`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`unique_numbers_within`] (`null` included).
    pub fn present_unique_numbers_within<'de, D, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<f64>>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        unique_numbers_within::<D, MIN, MAX>(deserializer).map(Some)
    }

    /// [`unique_numbers_within`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable_items_within`], or the first item equal to an earlier one.
    pub fn nullable_unique_numbers_within<'de, D, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<f64>>, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let items = nullable_items_within::<D, f64, MIN, MAX>(deserializer)?;
        if let Some(items) = &items {
            unique_numbers(items)?;
        }
        Ok(items)
    }

    /// Doubles compared by their bits, `-0.0` made the `0.0` it equals (no
    /// frame holds a NaN).
    fn unique_numbers<E: serde::de::Error>(items: &[f64]) -> Result<(), E> {
        let bits: Vec<u64> = items.iter().map(|x| (x + 0.0).to_bits()).collect();
        unique(&bits)
    }

    /// How [`unique_each`] compares the items a [`Check`] reads: as
    /// decoded, numbers as doubles (`1` is `1.0`, `-0.0` is `0.0`).
    pub trait Distinct: Sized {
        /// Nothing when no item equals an earlier one.
        ///
        /// # Errors
        ///
        /// The first item equal to an earlier one.
        fn distinct<E: serde::de::Error>(items: &[Self]) -> Result<(), E>;
    }

    impl Distinct for i64 {
        fn distinct<E: serde::de::Error>(items: &[Self]) -> Result<(), E> {
            unique(items)
        }
    }

    impl Distinct for f64 {
        fn distinct<E: serde::de::Error>(items: &[Self]) -> Result<(), E> {
            unique_numbers(items)
        }
    }

    impl Distinct for String {
        fn distinct<E: serde::de::Error>(items: &[Self]) -> Result<(), E> {
            unique(items)
        }
    }

    /// [`each`] for an array whose items must also be pairwise distinct
    /// (`uniqueItems`, [`Distinct`]), after the items and the count: items
    /// with a constraint of their own (bounds, a length, a pattern).
    ///
    /// # Errors
    ///
    /// As [`each`], or the first item equal to an earlier one.
    pub fn unique_each<'de, D, C, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Vec<C::Value>, D::Error>
    where
        D: serde::Deserializer<'de>,
        C: Check,
        C::Value: Distinct,
    {
        let items = each::<D, C, MIN, MAX>(deserializer)?;
        C::Value::distinct(&items)?;
        Ok(items)
    }

    /// [`unique_each`] for a present optional field.
    ///
    /// # Errors
    ///
    /// As [`unique_each`] (`null` included).
    pub fn present_unique_each<'de, D, C, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<C::Value>>, D::Error>
    where
        D: serde::Deserializer<'de>,
        C: Check,
        C::Value: Distinct,
    {
        unique_each::<D, C, MIN, MAX>(deserializer).map(Some)
    }

    /// [`unique_each`] for a required nullable field.
    ///
    /// # Errors
    ///
    /// As [`nullable_each`], or the first item equal to an earlier one.
    pub fn nullable_unique_each<'de, D, C, const MIN: usize, const MAX: usize>(
        deserializer: D,
    ) -> Result<Option<Vec<C::Value>>, D::Error>
    where
        D: serde::Deserializer<'de>,
        C: Check,
        C::Value: Distinct,
    {
        let items = nullable_each::<D, C, MIN, MAX>(deserializer)?;
        if let Some(items) = &items {
            C::Value::distinct(items)?;
        }
        Ok(items)
    }

    fn unique_json<E: serde::de::Error>(items: &[serde_json::Value]) -> Result<(), E> {
        for (index, item) in items.iter().enumerate() {
            let mut earlier = items.iter().take(index);
            if let Some(first) = earlier.position(|other| json_equal(other, item)) {
                return Err(E::custom(format!(
                    "expected unique items, got item {index} equal to item {first}"
                )));
            }
        }
        Ok(())
    }

    /// A `const` that is any JSON value but a string, an integer or a
    /// boolean: the generated `constants` module implements it for each
    /// distinct value of the contract.
    pub trait JsonLiteral {
        /// The value as JSON text.
        const JSON: &'static str;
    }

    /// The values read so far, by the JSON text that lists them.
    type Listed = std::collections::HashMap<&'static str, &'static [serde_json::Value]>;

    /// The values of a `const` or an `enum` (JSON text joined by `, `), read
    /// once and kept: every decode compares with the same values. Text that
    /// is not JSON (which codegen never writes) lists no value.
    fn listed_json(listed: &'static str) -> &'static [serde_json::Value] {
        static LISTED: std::sync::OnceLock<std::sync::RwLock<Listed>> = std::sync::OnceLock::new();
        let cache = LISTED.get_or_init(std::sync::RwLock::default);
        let read = cache
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(values) = read.get(listed) {
            return values;
        }
        drop(read);
        let values: Vec<serde_json::Value> =
            serde_json::from_str(&format!("[{listed}]")).unwrap_or_default();
        let mut write = cache
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        write
            .entry(listed)
            .or_insert_with(|| Box::leak(values.into_boxed_slice()))
    }

    /// Deserializes a required field of any JSON value that must equal
    /// `L::JSON` (`const`) by [`json_equal`].
    ///
    /// # Errors
    ///
    /// The contract's problem for another value: the `const` as JSON text
    /// and the value's kind.
    pub fn json_constant<'de, D, L: JsonLiteral>(
        deserializer: D,
    ) -> Result<serde_json::Value, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let value = <serde_json::Value as serde::Deserialize>::deserialize(deserializer)?;
        let listed = listed_json(L::JSON);
        if listed
            .first()
            .is_some_and(|expected| json_equal(&value, expected))
        {
            return Ok(value);
        }
        Err(not_constant(L::JSON, kind_of(&value)))
    }

    /// Deserializes a required field of any JSON value that must equal one
    /// of the `enum` values `L::JSON` lists (as JSON text joined by `, `) by
    /// [`json_equal`].
    ///
    /// # Errors
    ///
    /// The contract's problem for another value: the values as JSON text
    /// and the value as [`shown`] writes it.
    pub fn json_one_of<'de, D, L: JsonLiteral>(
        deserializer: D,
    ) -> Result<serde_json::Value, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let value = <serde_json::Value as serde::Deserialize>::deserialize(deserializer)?;
        let allowed = listed_json(L::JSON);
        if allowed.iter().any(|option| json_equal(&value, option)) {
            return Ok(value);
        }
        if allowed.len() == 1 {
            return Err(not_constant(L::JSON, &shown(&value)));
        }
        Err(not_constant(&format!("one of {}", L::JSON), &shown(&value)))
    }

    /// A value of the one scalar kind of an inline `enum`'s values (an
    /// `Option` of it when `null` is listed too), read from a JSON value
    /// [`json_one_of`] found among them.
    pub trait ListedKind: Sized {
        /// The value as `Self`, `None` if it is of another kind.
        fn listed(value: serde_json::Value) -> Option<Self>;
    }

    impl ListedKind for String {
        fn listed(value: serde_json::Value) -> Option<Self> {
            match value {
                serde_json::Value::String(s) => Some(s),
                _ => None,
            }
        }
    }

    impl ListedKind for bool {
        fn listed(value: serde_json::Value) -> Option<Self> {
            value.as_bool()
        }
    }

    impl ListedKind for i64 {
        /// A whole number (`1.0` too, within ±(2^53-1) as every listed one).
        #[allow(clippy::cast_possible_truncation)]
        fn listed(value: serde_json::Value) -> Option<Self> {
            value.as_i64().or_else(|| {
                value
                    .as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() <= MAX_SAFE_INTEGER as f64)
                    .map(|f| f as i64)
            })
        }
    }

    impl ListedKind for f64 {
        fn listed(value: serde_json::Value) -> Option<Self> {
            value.as_f64()
        }
    }

    impl<T: ListedKind> ListedKind for Option<T> {
        fn listed(value: serde_json::Value) -> Option<Self> {
            if value.is_null() {
                return Some(None);
            }
            T::listed(value).map(Some)
        }
    }

    /// Deserializes a required field of an inline `enum` of one scalar kind
    /// (and maybe `null`): checked as any JSON value by [`json_one_of`] (so
    /// every problem is the `enum`'s), then read as `T`.
    ///
    /// # Errors
    ///
    /// As [`json_one_of`].
    pub fn json_one_of_as<'de, D, L: JsonLiteral, T: ListedKind>(
        deserializer: D,
    ) -> Result<T, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        let value = json_one_of::<D, L>(deserializer)?;
        let shown = shown(&value);
        T::listed(value).ok_or_else(|| not_constant(&format!("one of {}", L::JSON), &shown))
    }

    /// A value as a problem shows it: a string as JSON text, a number as
    /// ECMAScript writes it ([`number_text`]), `true`, `false`, `null`; an
    /// array or an object by its kind.
    #[must_use]
    pub fn shown(value: &serde_json::Value) -> String {
        match value {
            serde_json::Value::Number(n) => number_text(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::Array(_) | serde_json::Value::Object(_) => kind(value).to_string(),
            other => other.to_string(),
        }
    }

    /// JSON equality: numbers by value (`1` is `1.0`), objects whatever
    /// their member order, arrays item by item, `true` never `1`.
    #[must_use]
    pub fn json_equal(a: &serde_json::Value, b: &serde_json::Value) -> bool {
        use serde_json::Value;
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
            }
            _ => a == b,
        }
    }

    /// A string's length or an array's number of items against inclusive
    /// bounds, in the contract's words.
    fn count_within<E: serde::de::Error>(
        length: usize,
        min: usize,
        max: usize,
        noun: &str,
    ) -> Result<(), E> {
        let counted = |count: usize| {
            if count == 1 {
                format!("1 {noun}")
            } else {
                format!("{count} {noun}s")
            }
        };
        if length < min {
            return Err(E::custom(format!(
                "expected at least {}, got {length}",
                counted(min)
            )));
        }
        if length > max {
            return Err(E::custom(format!(
                "expected at most {}, got {length}",
                counted(max)
            )));
        }
        Ok(())
    }

    fn within<E: serde::de::Error>(value: i64, min: i64, max: i64, divisor: i64) -> Result<i64, E> {
        if value < min {
            return Err(E::custom(format!("expected integer >= {min}, got {value}")));
        }
        if value > max {
            return Err(E::custom(format!("expected integer <= {max}, got {value}")));
        }
        if value % divisor != 0 {
            return Err(E::custom(format!(
                "expected multiple of {divisor}, got {value}"
            )));
        }
        Ok(value)
    }

    /// A bound of [`number_within`]: the double and whether it is exclusive.
    #[allow(clippy::cast_possible_truncation)]
    fn number_bound(bound: u128) -> Option<(f64, bool)> {
        (bound & BOUNDED != 0).then(|| (f64::from_bits(bound as u64), bound & EXCLUSIVE != 0))
    }

    fn number_in<E: serde::de::Error>(
        value: f64,
        min: u128,
        max: u128,
        divisor: u128,
    ) -> Result<f64, E> {
        if let Some((bound, exclusive)) = number_bound(min) {
            if value < bound || (exclusive && value <= bound) {
                let operator = if exclusive { ">" } else { ">=" };
                return Err(E::custom(format!(
                    "expected number {operator} {}, got {}",
                    number_text(bound),
                    number_text(value)
                )));
            }
        }
        if let Some((bound, exclusive)) = number_bound(max) {
            if value > bound || (exclusive && value >= bound) {
                let operator = if exclusive { "<" } else { "<=" };
                return Err(E::custom(format!(
                    "expected number {operator} {}, got {}",
                    number_text(bound),
                    number_text(value)
                )));
            }
        }
        if divisor & BOUNDED != 0 {
            #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
            let (digits, exponent) = (divisor as u64, (divisor >> 66) as u32 as i32);
            if !is_multiple(value, digits, exponent) {
                let written: f64 = format!("{digits}e{exponent}").parse().unwrap_or(f64::NAN);
                return Err(E::custom(format!(
                    "expected multiple of {}, got {}",
                    number_text(written),
                    number_text(value)
                )));
            }
        }
        Ok(value)
    }

    /// Whether a double is a multiple of `digits` × 10^`exponent`, the
    /// double read as the shortest decimal that reads back as it, `D` ×
    /// 10^`a` (`D` without a trailing zero): zero is; a finer last digit
    /// than the divisor's (`a` < `exponent`) is not; else `D` × 10^(`a` -
    /// `exponent`) is divided by `digits`, digit by digit. Every SDK decides
    /// it exactly so.
    #[must_use]
    pub fn is_multiple(value: f64, digits: u64, exponent: i32) -> bool {
        // `{:e}` writes the shortest digits that read back: `7.5e-3`.
        let written = format!("{:e}", value.abs());
        let (mantissa, power) = written.split_once('e').unwrap_or((&written, "0"));
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let significant = format!("{whole}{fraction}");
        let significant = significant.trim_end_matches('0');
        if significant.trim_start_matches('0').is_empty() {
            return true;
        }
        let trailing = whole.len() + fraction.len() - significant.len();
        #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
        let a = power.parse::<i32>().unwrap_or(0) - fraction.len() as i32 + trailing as i32;
        if a < exponent {
            return false;
        }
        let mut rest = significant
            .bytes()
            .fold(0, |r, d| (r * 10 + u64::from(d - b'0')) % digits);
        for _ in 0..(a - exponent) {
            if rest == 0 {
                break;
            }
            rest = rest * 10 % digits;
        }
        rest == 0
    }

    /// A deserializer that lets a struct be read from a JSON object only
    /// (serde's derive also reads a struct from an array of its field values)
    /// and a unit enum from a JSON string only.
    pub struct ObjectOnly<D>(pub D);

    struct ObjectVisitor<V>(V);

    impl<'de, V: serde::de::Visitor<'de>> serde::de::Visitor<'de> for ObjectVisitor<V> {
        type Value = V::Value;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.expecting(f)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
            self.0.visit_map(map)
        }
    }

    struct EnumFromString<V>(V);

    impl<'de, V: serde::de::Visitor<'de>> serde::de::Visitor<'de> for EnumFromString<V> {
        type Value = V::Value;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<V::Value, E> {
            self.0
                .visit_enum(serde::de::value::BorrowedStrDeserializer::new(v))
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<V::Value, E> {
            self.0.visit_enum(serde::de::value::StrDeserializer::new(v))
        }
        fn visit_string<E: serde::de::Error>(self, v: String) -> Result<V::Value, E> {
            self.0
                .visit_enum(serde::de::value::StringDeserializer::new(v))
        }
    }

    macro_rules! forward {
        ($($method:ident)*) => {$(
            fn $method<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                self.0.$method(visitor)
            }
        )*};
    }

    impl<'de, D: serde::Deserializer<'de>> serde::Deserializer<'de> for ObjectOnly<D> {
        type Error = D::Error;
        forward! {
            deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
            deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
            deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string deserialize_bytes
            deserialize_byte_buf deserialize_option deserialize_unit deserialize_seq deserialize_map
            deserialize_identifier deserialize_ignored_any
        }
        fn deserialize_unit_struct<V: serde::de::Visitor<'de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            self.0.deserialize_unit_struct(name, visitor)
        }
        fn deserialize_newtype_struct<V: serde::de::Visitor<'de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            self.0.deserialize_newtype_struct(name, visitor)
        }
        fn deserialize_tuple<V: serde::de::Visitor<'de>>(
            self,
            len: usize,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            self.0.deserialize_tuple(len, visitor)
        }
        fn deserialize_tuple_struct<V: serde::de::Visitor<'de>>(
            self,
            name: &'static str,
            len: usize,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            self.0.deserialize_tuple_struct(name, len, visitor)
        }
        fn deserialize_struct<V: serde::de::Visitor<'de>>(
            self,
            name: &'static str,
            fields: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            self.0
                .deserialize_struct(name, fields, ObjectVisitor(visitor))
        }
        fn deserialize_enum<V: serde::de::Visitor<'de>>(
            self,
            name: &'static str,
            variants: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            // serde_json reads an enum from a string or an object; the
            // contract's enums are strings only.
            let _ = (name, variants);
            self.0.deserialize_any(EnumFromString(visitor))
        }
        fn is_human_readable(&self) -> bool {
            self.0.is_human_readable()
        }
    }

    /// The JSON kind of a value, in the contract's words.
    #[must_use]
    pub fn kind(value: &serde_json::Value) -> &'static str {
        match value {
            serde_json::Value::Null => "null",
            serde_json::Value::Bool(_) => "boolean",
            serde_json::Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            serde_json::Value::Number(_) => "number",
            serde_json::Value::String(_) => "string",
            serde_json::Value::Array(_) => "array",
            serde_json::Value::Object(_) => "object",
        }
    }

    /// Ends a nested union's problem, followed by the path inside the union's
    /// value, so that the outer decode joins the two paths.
    pub const INNER_PATH: char = '\u{1f}';

    /// A nested union's problem followed by its path inside the union's
    /// value ([`INNER_PATH`]), for the outer decode to join.
    #[must_use]
    pub fn nested_problem(problem: &str, path: &str) -> String {
        format!("{problem}{INNER_PATH}{path}")
    }

    /// Picks an untagged union's variant by which of its discriminator
    /// members `object` has ([`pick_variant`]).
    ///
    /// # Errors
    ///
    /// The problem when no discriminator, or more than one, is present.
    pub fn pick_variant_of(
        object: &serde_json::Map<String, serde_json::Value>,
        discriminators: &[&str],
    ) -> Result<usize, String> {
        pick_variant(discriminators, |d| object.contains_key(d))
    }

    /// Picks a tagged union's variant by the value of its tag member.
    ///
    /// # Errors
    ///
    /// The path and the problem when the member is absent, not a string or
    /// not one of `tags`.
    pub fn pick_tag(
        object: &serde_json::Map<String, serde_json::Value>,
        member: &str,
        tags: &[&str],
    ) -> Result<usize, (String, String)> {
        let Some(tag) = object.get(member) else {
            return Err(("$".to_string(), format!("missing field `{member}`")));
        };
        let mut path = String::from("$");
        push_key(&mut path, member);
        let serde_json::Value::String(tag) = tag else {
            return Err((path, format!("expected string, got {}", kind(tag))));
        };
        tags.iter().position(|t| t == tag).ok_or_else(|| {
            let listed: Vec<String> = tags
                .iter()
                .map(|t| serde_json::Value::from(*t).to_string())
                .collect();
            (
                path,
                format!(
                    "expected one of {}, got {}",
                    listed.join(", "),
                    serde_json::Value::from(tag.as_str())
                ),
            )
        })
    }

    /// Picks a union variant by which of its discriminator members are
    /// present (`present` says whether a member is). Allocates only to
    /// word an error.
    ///
    /// # Errors
    ///
    /// The problem when no discriminator, or more than one, is present.
    pub fn pick_variant(
        discriminators: &[&str],
        present: impl Fn(&str) -> bool,
    ) -> Result<usize, String> {
        let mut chosen = (0..discriminators.len()).filter(|i| present(discriminators[*i]));
        let names = |joiner: &str| {
            discriminators
                .iter()
                .map(|d| format!("`{d}`"))
                .collect::<Vec<_>>()
                .join(joiner)
        };
        match (chosen.next(), chosen.next()) {
            (Some(one), None) => Ok(one),
            (None, _) if discriminators.len() == 2 => Err(format!("neither {}", names(" nor "))),
            (None, _) => Err(format!("none of {}", names(", "))),
            _ if discriminators.len() == 2 => Err(format!("both {}", names(" and "))),
            _ => Err(format!("more than one of {}", names(", "))),
        }
    }

    /// A nested untagged union's value, read once by the outer decode: each
    /// member's name and the JSON text of its value, in order, nothing
    /// decoded yet (the variant that reads them is known only once every
    /// member has been seen), or the kind of a value that is no object.
    pub struct UnionMembers<'de>(Result<Vec<Member<'de>>, &'static str>);

    /// A member's name and its value's JSON text.
    type Member<'de> = (Cow<'de, str>, Cow<'de, str>);

    /// How many members a union's value is read into before it grows.
    const UNION_MEMBERS: usize = 8;

    impl UnionMembers<'_> {
        /// Picks the variant by which of `discriminators` are members.
        ///
        /// # Errors
        ///
        /// The problem when the value is no object (``expected object, got
        /// string``), or has none or more than one of `discriminators`.
        pub fn variant(&self, discriminators: &[&str]) -> Result<usize, String> {
            let members = self
                .0
                .as_ref()
                .map_err(|kind| format!("expected object, got {kind}"))?;
            pick_variant(discriminators, |d| {
                members.iter().any(|(name, _)| name == d)
            })
        }

        /// The members again, as a map for the chosen variant to read: each
        /// value from its own text, the names as they came.
        #[must_use]
        pub fn replay(&self) -> serde::de::value::MapAccessDeserializer<Replay<'_>> {
            let members = self.0.as_deref().unwrap_or_default();
            serde::de::value::MapAccessDeserializer::new(Replay {
                members: members.iter(),
                value: None,
            })
        }
    }

    thread_local! {
        /// Whether this thread is deserializing again to explain a failure
        /// (see [`explaining`]): nested unions then read no variant ahead.
        static EXPLAINING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// Runs `f`, a deserialization again after one failed, with nested
    /// unions reading their values as [`UnionMembers`] only, so that the
    /// problem it finds is the one their rules give.
    pub fn explaining<T>(f: impl FnOnce() -> T) -> T {
        let before = EXPLAINING.try_with(|e| e.replace(true)).unwrap_or(false);
        let result = f();
        let _ = EXPLAINING.try_with(|e| e.set(before));
        result
    }

    /// Whether this thread is explaining a failure (see [`explaining`]).
    fn is_explaining() -> bool {
        EXPLAINING.try_with(std::cell::Cell::get).unwrap_or(true)
    }

    /// A nested untagged union: its variants, each a closed object with a
    /// required discriminator member no other variant declares.
    pub trait NestedUnion: Sized {
        /// Each variant's discriminator, in the variants' order.
        const DISCRIMINATORS: &'static [&'static str];

        /// Reads the value at once as the variant whose discriminator is its
        /// first member, `first` (handed out again as the first key), or
        /// gives `first` and the map back when it is no discriminator.
        ///
        /// # Errors
        ///
        /// The variant's error when it does not read the value.
        #[allow(clippy::type_complexity)]
        fn read_as<'de, A: serde::de::MapAccess<'de>>(
            first: Cow<'de, str>,
            map: A,
        ) -> Result<Result<Self, (Cow<'de, str>, A)>, A::Error>;

        /// Decodes the value from its members, read once by the outer decode.
        ///
        /// # Errors
        ///
        /// Where and why the members break the union's rules.
        fn from_members(members: &UnionMembers<'_>) -> Result<Self, DecodeError>;
    }

    /// Reads a nested union's value. When its first member is a variant's
    /// discriminator, as that variant at once, in the outer decode's pass:
    /// the variant reads it exactly when the union's rules pick it (the
    /// discriminator is present; the variant is closed and declares no
    /// other variant's, so a value it reads has none of them). Else, and
    /// always while explaining a failure, its members are read once and the
    /// discriminators among them pick the variant ([`UnionMembers`]).
    pub struct UnionVisitor<U>(std::marker::PhantomData<U>);

    impl<U> UnionVisitor<U> {
        #[must_use]
        pub fn new() -> Self {
            UnionVisitor(std::marker::PhantomData)
        }
    }

    impl<U> Default for UnionVisitor<U> {
        fn default() -> Self {
            Self::new()
        }
    }

    /// The union decoded from `members`, its problem as a nested one.
    fn from_members<U: NestedUnion, E: serde::de::Error>(
        members: &UnionMembers<'_>,
    ) -> Result<U, E> {
        U::from_members(members).map_err(|e| E::custom(nested_problem(&e.problem, &e.path)))
    }

    impl<'de, U: NestedUnion> serde::de::Visitor<'de> for UnionVisitor<U> {
        type Value = U;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<U, A::Error> {
            let mut members = Vec::new();
            if let Some(Text(first)) = map.next_key()? {
                let (first, mut rest) = if is_explaining() {
                    (first, map)
                } else {
                    match U::read_as(first, map)? {
                        Ok(value) => return Ok(value),
                        Err(back) => back,
                    }
                };
                members.reserve_exact(UNION_MEMBERS);
                members.push((first, rest.next_value_seed(ValueText)?));
                while let Some(Text(name)) = rest.next_key()? {
                    let text = rest.next_value_seed(ValueText)?;
                    members.push((name, text));
                }
            }
            from_members(&UnionMembers(Ok(members)))
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<U, A::Error> {
            while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
            from_members(&UnionMembers(Err("array")))
        }

        fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<U, E> {
            from_members(&UnionMembers(Err("boolean")))
        }

        fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<U, E> {
            from_members(&UnionMembers(Err("integer")))
        }

        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<U, E> {
            from_members(&UnionMembers(Err("integer")))
        }

        fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<U, E> {
            from_members(&UnionMembers(Err("number")))
        }

        fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<U, E> {
            from_members(&UnionMembers(Err("string")))
        }

        fn visit_unit<E: serde::de::Error>(self) -> Result<U, E> {
            from_members(&UnionMembers(Err("null")))
        }
    }

    /// Reads a map whose first key was already taken, `first`, as `T`.
    ///
    /// # Errors
    ///
    /// `T`'s error when it does not read the map.
    pub fn read_variant<'de, T: serde::Deserialize<'de>, A: serde::de::MapAccess<'de>>(
        first: Cow<'de, str>,
        map: A,
    ) -> Result<T, A::Error> {
        let map = FirstKeyAgain {
            first: Some(first),
            map,
        };
        T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
    }

    /// A map whose first key was taken: that key again, then the rest.
    struct FirstKeyAgain<'de, A> {
        first: Option<Cow<'de, str>>,
        map: A,
    }

    impl<'de, A: serde::de::MapAccess<'de>> serde::de::MapAccess<'de> for FirstKeyAgain<'de, A> {
        type Error = A::Error;

        fn next_key_seed<K: serde::de::DeserializeSeed<'de>>(
            &mut self,
            seed: K,
        ) -> Result<Option<K::Value>, A::Error> {
            match self.first.take() {
                Some(Cow::Borrowed(key)) => seed
                    .deserialize(serde::de::value::BorrowedStrDeserializer::new(key))
                    .map(Some),
                Some(Cow::Owned(key)) => seed
                    .deserialize(serde::de::value::StringDeserializer::new(key))
                    .map(Some),
                None => self.map.next_key_seed(seed),
            }
        }

        fn next_value_seed<V: serde::de::DeserializeSeed<'de>>(
            &mut self,
            seed: V,
        ) -> Result<V::Value, A::Error> {
            self.map.next_value_seed(seed)
        }

        fn size_hint(&self) -> Option<usize> {
            self.map
                .size_hint()
                .map(|rest| rest + usize::from(self.first.is_some()))
        }
    }

    /// A string, borrowed from the input when it can be (a member name
    /// without escapes, a value's text read from a `&str`).
    struct Text<'de>(Cow<'de, str>);

    impl<'de> serde::Deserialize<'de> for Text<'de> {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserializer.deserialize_str(TextVisitor)
        }
    }

    struct TextVisitor;

    impl<'de> serde::de::Visitor<'de> for TextVisitor {
        type Value = Text<'de>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }

        fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
            Ok(Text(Cow::Borrowed(text)))
        }

        fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
            Ok(Text(Cow::Owned(text.to_string())))
        }

        fn visit_string<E>(self, text: String) -> Result<Self::Value, E> {
            Ok(Text(Cow::Owned(text)))
        }
    }

    /// The name under which serde_json hands out a value's JSON text, as
    /// `serde_json::value::RawValue` asks for it: borrowed from a `&str`
    /// input, written out from a `serde_json::Value`. (`&RawValue` takes
    /// only the first, `Box<RawValue>` always copies; a nested union is read
    /// from both.)
    const RAW_VALUE: &str = "$serde_json::private::RawValue";

    /// A value's JSON text, skipped over and not decoded.
    struct ValueText;

    impl<'de> serde::de::DeserializeSeed<'de> for ValueText {
        type Value = Cow<'de, str>;

        fn deserialize<D: serde::Deserializer<'de>>(
            self,
            deserializer: D,
        ) -> Result<Self::Value, D::Error> {
            deserializer.deserialize_newtype_struct(RAW_VALUE, self)
        }
    }

    impl<'de> serde::de::Visitor<'de> for ValueText {
        type Value = Cow<'de, str>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any valid JSON value")
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            if map.next_key::<serde::de::IgnoredAny>()?.is_none() {
                return Err(serde::de::Error::custom("no JSON text for the value"));
            }
            map.next_value::<Text<'de>>().map(|Text(text)| text)
        }
    }

    /// A union's members read again, for the variant picked: each name as
    /// it came, each value by a JSON reader of its own text.
    pub struct Replay<'m> {
        members: std::slice::Iter<'m, Member<'m>>,
        value: Option<&'m str>,
    }

    impl<'m> serde::de::MapAccess<'m> for Replay<'m> {
        type Error = serde_json::Error;

        fn next_key_seed<K: serde::de::DeserializeSeed<'m>>(
            &mut self,
            seed: K,
        ) -> Result<Option<K::Value>, Self::Error> {
            let Some((name, text)) = self.members.next() else {
                return Ok(None);
            };
            self.value = Some(text);
            seed.deserialize(serde::de::value::BorrowedStrDeserializer::new(name))
                .map(Some)
        }

        fn next_value_seed<V: serde::de::DeserializeSeed<'m>>(
            &mut self,
            seed: V,
        ) -> Result<V::Value, Self::Error> {
            let text = self
                .value
                .take()
                .ok_or_else(|| serde::de::Error::custom("a value read before its member's name"))?;
            seed.deserialize(&mut serde_json::Deserializer::from_str(text))
        }

        fn size_hint(&self) -> Option<usize> {
            Some(self.members.len())
        }
    }
}
