//! The dashboard page's check of an `autoFix` context pattern, without regex-lite (issue 16: its parser
//! and compiler are 31 KB of the page's Wasm, and the page only needs to know a pattern is refused).
//! It walks the pattern as regex-lite's parser does and names regex-lite's own error, in its words, but
//! only where it is sure: anything it does not follow (extended mode, hex escapes, POSIX classes, `\b{`,
//! big or deep patterns that may meet regex-lite's size limits) it leaves unjudged, so the page never
//! refuses a pattern the Action takes, and shows a refusal for the mistakes people make (an unclosed
//! group or class, a repetition of nothing, a backreference, a look-around, an unknown escape).
//! The Action's and the CLI's builds (feature `full`) compile with regex-lite itself.

/// Why the walk stopped: regex-lite's error message, or a construct it does not follow.
enum Stop {
    Error(&'static str),
    Unsure,
}
use Stop::{Error, Unsure};

/// What a class item is, for the range rules.
enum Item {
    Char(char),
    Class,
    Look,
}

/// regex-lite's error for a full pattern (`^(?:...)$` as `compile` wraps it), when the walk is sure of one.
pub fn problem(pattern: &str) -> Option<&'static str> {
    let chars: Vec<char> = pattern.chars().collect();
    if chars.len() > 300 {
        return None;
    }
    let mut walk = Walk { p: &chars, i: 0, names: Vec::new(), counted: 0 };
    match walk.inner(0) {
        Err(Error(message)) => Some(message),
        _ => None,
    }
}

struct Walk<'a> {
    p: &'a [char],
    i: usize,
    names: Vec<String>,
    counted: u32,
}

impl Walk<'_> {
    fn done(&self) -> bool {
        self.i >= self.p.len()
    }
    fn at(&self) -> char {
        self.p[self.i]
    }
    fn next(&self) -> Option<char> {
        self.p.get(self.i + 1).copied()
    }
    fn starts(&self, prefix: &str) -> bool {
        prefix.chars().enumerate().all(|(k, c)| self.p.get(self.i + k) == Some(&c))
    }
    /// Steps over one character; false when that reaches the end (regex-lite's `bump`).
    fn bump(&mut self) -> bool {
        self.i += 1;
        !self.done()
    }

    fn inner(&mut self, depth: u32) -> Result<(), Stop> {
        if depth > 8 {
            return Err(Unsure); // regex-lite's nesting limit counts more than groups
        }
        let mut empty = true;
        while !self.done() {
            match self.at() {
                '(' => {
                    if !self.group(depth)? {
                        empty = false;
                    }
                    if self.done() || self.at() != ')' {
                        return Err(Error("found open group without closing ')'"));
                    }
                    self.i += 1;
                }
                ')' if depth == 0 => return Err(Error("found closing ')' without matching '('")),
                ')' => break,
                '|' => {
                    empty = true;
                    self.i += 1;
                }
                '[' => {
                    self.class()?;
                    empty = false;
                }
                '?' | '*' | '+' => {
                    if empty {
                        return Err(Error("uncounted repetition operator must be applied to a sub-expression"));
                    }
                    if self.bump() && self.at() == '?' {
                        self.i += 1;
                    }
                }
                '{' => self.counted(empty)?,
                '\\' => {
                    self.i += 1;
                    self.escape()?;
                    empty = false;
                }
                _ => {
                    self.i += 1;
                    empty = false;
                }
            }
        }
        Ok(())
    }

    /// A group from its `(`; true when it was only a flag directive (`(?i)`), which adds no expression.
    fn group(&mut self, depth: u32) -> Result<bool, Stop> {
        self.i += 1;
        if ["?=", "?!", "?<=", "?<!"].iter().any(|p| self.starts(p)) {
            return Err(Error("look-around is not supported"));
        }
        if self.starts("?P<") || self.starts("?<") {
            self.i += if self.starts("?P<") { 3 } else { 2 };
            self.capture_name()?;
        } else if self.starts("?") {
            self.i += 1;
            if self.done() {
                return Err(Error("expected closing ')', but got end of pattern"));
            }
            let start = self.i;
            let (mut negate, mut last_negation, mut seen) = (false, false, Vec::new());
            while self.at() != ':' && self.at() != ')' {
                let flag = self.at();
                if flag == '-' {
                    last_negation = true;
                    if negate {
                        return Err(Error("inline flag negation cannot be repeated"));
                    }
                    negate = true;
                } else {
                    last_negation = false;
                    if !"imsURxu".contains(flag) {
                        return Err(Error("unrecognized inline flag"));
                    }
                    if flag == 'x' {
                        return Err(Unsure); // whitespace and comments change the walk
                    }
                    if seen.contains(&flag) {
                        return Err(Error("duplicate inline flag is not allowed"));
                    }
                    seen.push(flag);
                }
                if !self.bump() {
                    return Err(Error("expected ':' or ')' to end inline flags, but got end of pattern"));
                }
            }
            if last_negation {
                return Err(Error("inline flags cannot end with negation directive"));
            }
            if self.at() == ')' {
                if self.i == start {
                    return Err(Error("empty flag directive '(?)' is not allowed"));
                }
                return Ok(true);
            }
            self.i += 1;
        }
        self.inner(depth + 1)?;
        Ok(false)
    }

    fn capture_name(&mut self) -> Result<(), Stop> {
        if self.done() {
            return Err(Error("expected capture group name, but got end of pattern"));
        }
        let start = self.i;
        while self.at() != '>' {
            let c = self.at();
            let ok = if self.i == start { c == '_' || c.is_alphabetic() } else { c == '_' || c == '.' || c == '[' || c == ']' || c.is_alphanumeric() };
            if !ok {
                return Err(Error("invalid group name"));
            }
            if !self.bump() {
                break;
            }
        }
        if self.done() {
            return Err(Error("expected end of capture group name, but got end of pattern"));
        }
        let name: String = self.p[start..self.i].iter().collect();
        self.i += 1;
        if name.is_empty() {
            return Err(Error("empty capture group names are not allowed"));
        }
        if self.names.contains(&name) {
            return Err(Error("duplicate capture group name"));
        }
        self.names.push(name);
        Ok(())
    }

    /// `{m}`, `{m,}` or `{m,n}` after an expression, from the `{`.
    fn counted(&mut self, empty: bool) -> Result<(), Stop> {
        if empty {
            return Err(Error("counted repetition operator must be applied to a sub-expression"));
        }
        if !self.bump() {
            return Err(Error("found unclosed counted repetition operator"));
        }
        let min = self.decimal()?;
        let mut max = Some(min);
        if self.done() {
            return Err(Error("found incomplete and unclosed counted repetition operator"));
        }
        if self.at() == ',' {
            if !self.bump() {
                return Err(Error("found counted repetition operator with a comma that is unclosed"));
            }
            max = if self.at() != '}' { Some(self.decimal()?) } else { None };
            if self.done() {
                return Err(Error("found counted repetition with min and max that is unclosed"));
            }
        }
        if self.at() != '}' {
            return Err(Error("expected closing brace for counted repetition, but got something else"));
        }
        if self.bump() && self.at() == '?' {
            self.i += 1;
        }
        if max.is_some_and(|max| min > max) {
            return Err(Error("found counted repetition with a min bigger than its max"));
        }
        // Repetitions multiply the compiled program, which regex-lite bounds in size.
        self.counted += 1;
        if min.max(max.unwrap_or(0)) > 100 || self.counted > 1 {
            return Err(Unsure);
        }
        Ok(())
    }

    fn decimal(&mut self) -> Result<u32, Stop> {
        while !self.done() && self.at().is_whitespace() {
            self.i += 1;
        }
        let mut digits = String::new();
        while !self.done() && self.at().is_ascii_digit() {
            digits.push(self.at());
            self.i += 1;
        }
        while !self.done() && self.at().is_whitespace() {
            self.i += 1;
        }
        if digits.is_empty() {
            return Err(Error("expected decimal number, but found no digits"));
        }
        digits.parse().map_err(|_| Error("got invalid decimal number"))
    }

    /// An escape, from the character after the `\`.
    fn escape(&mut self) -> Result<Item, Stop> {
        if self.done() {
            return Err(Error("saw start of escape sequence, but saw end of pattern before it finished"));
        }
        let c = self.at();
        match c {
            '0'..='9' => return Err(Error("backreferences are not supported")),
            'p' | 'P' => return Err(Error("Unicode character classes are not supported")),
            'x' | 'u' | 'U' => return Err(Unsure),
            'd' | 's' | 'w' | 'D' | 'S' | 'W' => {
                self.i += 1;
                return Ok(Item::Class);
            }
            _ => {}
        }
        self.i += 1;
        match c {
            'a' | 'f' | 't' | 'n' | 'r' | 'v' => Ok(Item::Char(c)),
            'b' if !self.done() && self.at() == '{' => Err(Unsure),
            'A' | 'z' | 'b' | 'B' | '<' | '>' => Ok(Item::Look),
            c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok(Item::Char(c)),
            _ => Err(Error("unrecognized escape sequence")),
        }
    }

    /// A bracketed class, from its `[`.
    fn class(&mut self) -> Result<(), Stop> {
        if !self.bump() {
            return Err(Error("found unclosed character class"));
        }
        if self.at() == '^' && !self.bump() {
            return Err(Error("negated character class has no closing bracket"));
        }
        let mut dashes = false;
        while self.at() == '-' {
            dashes = true;
            if !self.bump() {
                return Err(Error("non-empty character class has no closing bracket after dash"));
            }
        }
        if !dashes && self.at() == ']' && !self.bump() {
            return Err(Error("character class begins with literal ']' but has no closing bracket"));
        }
        loop {
            if self.done() {
                return Err(Error("found unclosed character class"));
            }
            match (self.at(), self.next()) {
                ('[', Some(':')) => return Err(Unsure),
                ('[', _) => return Err(Error("nested character classes are not supported")),
                (']', _) => {
                    self.i += 1;
                    return Ok(());
                }
                ('&', Some('&')) => return Err(Error("character class intersection is not supported")),
                ('-', Some('-')) => return Err(Error("character class difference is not supported")),
                ('~', Some('~')) => return Err(Error("character class symmetric difference is not supported")),
                _ => self.range()?,
            }
        }
    }

    fn range(&mut self) -> Result<(), Stop> {
        let first = self.class_item()?;
        if self.done() {
            return Err(Error("non-empty character class has no closing bracket"));
        }
        if self.at() != '-' || matches!(self.next(), Some(']') | Some('-')) {
            return match first {
                Item::Look => Err(Error("invalid escape sequence in character class")),
                _ => Ok(()),
            };
        }
        if !self.bump() {
            return Err(Error("non-empty character class has no closing bracket after dash"));
        }
        let last = self.class_item()?;
        match (first, last) {
            (Item::Char(a), Item::Char(b)) if a > b => Err(Error("invalid range in character class")),
            (Item::Char(_), Item::Char(_)) => Ok(()),
            _ => Err(Error("character class ranges must start and end with a single character")),
        }
    }

    fn class_item(&mut self) -> Result<Item, Stop> {
        let c = self.at();
        self.i += 1;
        if c == '\\' {
            self.escape()
        } else {
            Ok(Item::Char(c))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::problem;

    /// regex-lite's verdict on a context pattern, as `compile` wraps it.
    fn lite(re: &str) -> Option<String> {
        crate::core::config::queue::compile(re).err().map(|e| e.to_string())
    }
    fn walk(re: &str) -> Option<&'static str> {
        problem(&format!("^(?:{re})$"))
    }

    #[test]
    fn the_mistakes_people_make_are_named_in_regex_lites_words() {
        for re in [
            "fix:(fmt", "fix:fmt)", "fix:[fmt", "fix:[^", "*fix", "fix:|+", "a{", "a{x}", "a{3,1}", "(a)\\1", "(?=a)", "\\p{L}", "\\q",
            "[z-a]", "[a[b]]", "[a&&b]", "(?<n>a)(?<n>b)", "(?<>a)", "(?<1a>a)", "(?)", "(?y:a)", "(?ii:a)", "(?--i:a)", "(?i-:a)",
            "[\\b]", "[\\d-z]", "{2}", "a\\", "[]",
        ] {
            let expected = lite(re);
            assert!(expected.is_some(), "regex-lite takes {re:?}");
            assert_eq!(walk(re).map(str::to_string), expected, "{re:?}");
        }
    }

    #[test]
    fn patterns_regex_lite_takes_are_taken() {
        for re in ["fix:fmt", "fix:(fmt|lint)", "lint/.*", "[a-z0-9_-]+", "[]a]", "[^]]", "(?i)fix", "(?i:FIX)", "(?P<x>a)(?<y>b)", "a{2,}?", "\\bfix\\b", "\\.", "[\\w.]+", "(?x) a b", "\\x41", "[[:alpha:]]"] {
            assert_eq!(lite(re), None, "{re:?}");
            assert_eq!(walk(re), None, "{re:?}");
        }
    }

    #[test]
    fn nearly_every_refusal_is_seen() {
        // 20,000 short patterns from regex syntax: the walk names the same error for nearly all that
        // regex-lite refuses (measured: 9,970 of 10,036), and never one regex-lite does not give.
        let alphabet: Vec<char> = "-()[]{}|?*+\\^$.:,<>=!&~aPpdbx1 ".chars().collect();
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let (mut refused, mut seen) = (0, 0);
        for _ in 0..20_000 {
            let re: String = (0..next() % 8 + 1).map(|_| alphabet[next() % alphabet.len()]).collect();
            let (expected, found) = (lite(&re), walk(&re));
            if let Some(message) = found {
                assert_eq!(expected.as_deref(), Some(message), "{re:?}");
            }
            refused += usize::from(expected.is_some());
            seen += usize::from(found.is_some());
        }
        assert!(refused > 5_000 && seen * 100 >= refused * 97, "{seen} of {refused} refusals seen");
    }

    // proptest is a native dev-dependency only; the walk's other tests also run inside Wasm.
    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::{lite, walk};
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]
            /// Never a refusal regex-lite does not give, and never in other words: the page and the Action
            /// may differ only where the page says nothing.
            #[test]
            fn a_refusal_is_regex_lites(re in "[-()\\[\\]{}|?*+\\\\^$.:,<>=!&~aPpdbx1-3 ]{0,10}") {
                if let Some(message) = walk(&re) {
                    prop_assert_eq!(lite(&re), Some(message.to_string()), "{:?}", re);
                }
            }
        }
    }
}
