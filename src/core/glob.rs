//! Path globs as actions/labeler and most GitHub tooling read them (minimatch with `dot: true`):
//! `*` and `?` stay inside one path segment, a `**` segment spans any number of segments, and (for
//! the labeler's patterns, not CODEOWNERS, which GitHub reads gitignore-style) `{a,b}` alternatives.

/// At most this many alternatives from one pattern's braces: a config is read on every run, and
/// `{a,b}{c,d}...` doubles with every group.
pub const MAX_ALTERNATIVES: usize = 256;

/// A labeler pattern read once: its brace alternatives expanded and each split into segments, for
/// matching many paths (a board's every changed file) without splitting the pattern again each time.
pub struct LabelerGlob {
    alternatives: Vec<Vec<String>>,
}

impl LabelerGlob {
    pub fn new(pattern: &str) -> LabelerGlob {
        // Most patterns have no braces: read as they are. Unbalanced braces are literal.
        let alternatives = if pattern.contains('{') {
            expand_braces(pattern).unwrap_or_else(|| vec![pattern.to_string()])
        } else {
            vec![pattern.to_string()]
        };
        LabelerGlob {
            alternatives: alternatives
                .iter()
                .map(|p| p.trim_start_matches("./").split('/').map(str::to_string).collect())
                .collect(),
        }
    }

    /// Whether the path, already split at `/`, matches any alternative (a labeler pattern: any one matching).
    pub fn matches(&self, segments: &[&str]) -> bool {
        self.alternatives
            .iter()
            .any(|pat| match_segments_counted(pat, segments).0)
    }
}

/// What is wrong with a labeler pattern, in words, or None. Negation (`!docs/**`) means "every file
/// but these" to minimatch, which in a list where any glob may match would match nearly everything:
/// refused by name rather than read differently from the labeler.
pub fn labeler_problem(pattern: &str) -> Option<String> {
    if pattern.starts_with('!') {
        return Some("a glob without `!`: negated globs are not supported; list the paths that apply".into());
    }
    match expand_braces(pattern) {
        None => Some("balanced `{` and `}` in the glob".into()),
        Some(alts) if alts.len() > MAX_ALTERNATIVES => Some(format!(
            "at most {MAX_ALTERNATIVES} alternatives from the glob's braces"
        )),
        Some(_) => None,
    }
}

/// Every alternative of `{a,b}` groups (nested too), or None when the braces do not balance.
/// A group with no comma (`{a}`) is literal, as in minimatch.
pub fn expand_braces(pattern: &str) -> Option<Vec<String>> {
    let bytes = pattern.as_bytes();
    let Some(open) = bytes.iter().position(|&b| b == b'{') else {
        return if bytes.contains(&b'}') {
            None
        } else {
            Some(vec![pattern.to_string()])
        };
    };
    let (mut depth, mut close, mut commas) = (0usize, None, Vec::new());
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            b',' if depth == 1 => commas.push(i),
            _ => {}
        }
    }
    let close = close?;
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    let tails = expand_braces(tail)?;
    let mut parts = Vec::new();
    if commas.is_empty() {
        parts.push(format!("{{{}}}", &pattern[open + 1..close]));
    } else {
        let mut start = open + 1;
        for &c in commas.iter().chain(std::iter::once(&close)) {
            parts.extend(expand_braces(&pattern[start..c])?);
            start = c + 1;
        }
    }
    let mut out = Vec::new();
    for part in &parts {
        for t in &tails {
            out.push(format!("{head}{part}{t}"));
            if out.len() > MAX_ALTERNATIVES {
                return Some(out);
            }
        }
    }
    Some(out)
}

/// Whether `path` (repository-relative, `/`-separated) matches `pattern`.
pub fn glob_match(pattern: &str, path: &str) -> bool {
    let pattern = pattern.trim_start_matches("./");
    let pat: Vec<&str> = pattern.split('/').collect();
    let segs: Vec<&str> = path.split('/').collect();
    match_segments(&pat, &segs)
}

fn match_segments(pat: &[&str], segs: &[&str]) -> bool {
    match_segments_counted(pat, segs).0
}

/// The match and the number of segment comparisons it took. Dynamic programming over (pattern
/// position, path position), filled from the end: each cell is decided once, so the work is
/// pattern length × path length, never the exponential backtracking a recursive `**` does when
/// every `**` tries every split.
fn match_segments_counted<P: AsRef<str>>(pat: &[P], segs: &[&str]) -> (bool, usize) {
    let n = segs.len();
    let mut steps = 0;
    // Two rows of n + 1 cells; on the stack for the paths people have (this runs for every changed
    // file of every pull request on a board).
    let mut stack = [false; 64];
    let mut heap;
    let cells: &mut [bool] = if n < 32 {
        &mut stack[..2 * (n + 1)]
    } else {
        heap = vec![false; 2 * (n + 1)];
        &mut heap
    };
    let (mut next, mut cur) = cells.split_at_mut(n + 1);
    // `next[j]`: whether pat[i + 1..] matches segs[j..]; starts as "the empty pattern".
    next[n] = true;
    for p in pat.iter().rev() {
        let p = p.as_ref();
        for j in (0..=n).rev() {
            steps += 1;
            cur[j] = if p == "**" {
                // Zero segments, or one more and still in the `**`.
                next[j] || (j < n && cur[j + 1])
            } else {
                j < n && next[j + 1] && match_segment(p.as_bytes(), segs[j].as_bytes())
            };
        }
        std::mem::swap(&mut next, &mut cur);
    }
    (next[0], steps)
}

/// One segment: `*` any run of characters, `?` any one character, `[abc]`/`[a-z]`/`[!a]` a class.
fn match_segment(p: &[u8], s: &[u8]) -> bool {
    let (mut pi, mut si) = (0, 0);
    let (mut star_p, mut star_s) = (usize::MAX, 0);
    while si < s.len() {
        if pi < p.len() {
            match p[pi] {
                b'*' => {
                    star_p = pi;
                    star_s = si;
                    pi += 1;
                    continue;
                }
                b'?' => {
                    pi += 1;
                    si += 1;
                    continue;
                }
                b'[' => {
                    if let Some((matched, len)) = match_class(&p[pi..], s[si]) {
                        if matched {
                            pi += len;
                            si += 1;
                            continue;
                        }
                    } else if s[si] == b'[' {
                        pi += 1;
                        si += 1;
                        continue;
                    }
                }
                c if c == s[si] => {
                    pi += 1;
                    si += 1;
                    continue;
                }
                _ => {}
            }
        }
        if star_p == usize::MAX {
            return false;
        }
        pi = star_p + 1;
        star_s += 1;
        si = star_s;
    }
    p[pi..].iter().all(|&c| c == b'*')
}

/// A bracket class at the start of `p`: whether `c` is in it, and the class's length.
fn match_class(p: &[u8], c: u8) -> Option<(bool, usize)> {
    let close = p.iter().skip(2).position(|&b| b == b']')? + 2;
    let body = &p[1..close];
    let (negate, body) = match body.first() {
        Some(b'!') | Some(b'^') => (true, &body[1..]),
        _ => (false, body),
    };
    let mut hit = false;
    let mut i = 0;
    while i < body.len() {
        if i + 2 < body.len() && body[i + 1] == b'-' {
            hit |= body[i] <= c && c <= body[i + 2];
            i += 3;
        } else {
            hit |= body[i] == c;
            i += 1;
        }
    }
    Some((hit != negate, close + 1))
}

#[cfg(test)]
mod tests {
    use super::{glob_match, match_segments_counted};

    /// One pattern against one path, as the scopes and the docs-only gate match them.
    fn labeler_match(pattern: &str, path: &str) -> bool {
        super::LabelerGlob::new(pattern).matches(&path.split('/').collect::<Vec<_>>())
    }

    #[test]
    fn many_double_stars_stay_linear() {
        // Issue 15, item 10: eight `**` against a 100-segment path that fails at the end made the
        // recursive matcher try every way to split 100 segments among 8 stars (C(107, 8), about
        // 4e11 calls). Counted, not timed: the work must be at most pattern × (path + 1).
        let pattern = ["**"; 8].join("/") + "/z.md";
        let path = vec!["a"; 100].join("/") + "/y.md";
        let pat: Vec<&str> = pattern.split('/').collect();
        let segs: Vec<&str> = path.split('/').collect();
        let (hit, steps) = match_segments_counted(&pat, &segs);
        assert!(!hit);
        assert!(steps <= pat.len() * (segs.len() + 1), "{steps} steps");
        assert!(glob_match(&(["**"; 8].join("/") + "/*.md"), &path));
    }

    #[test]
    fn braces_as_the_labeler_reads_them() {
        // Issue 18: `{src,lib}/**` and `**/*.{rs,js}` matched nothing and raised no config error.
        assert!(labeler_match("{src,lib}/**", "lib/github/read.js"));
        assert!(labeler_match("**/*.{rs,js}", "src/glob.rs"));
        assert!(labeler_match("**/*.{rs,js}", "a/b.js"));
        assert!(!labeler_match("**/*.{rs,js}", "README.md"));
        assert!(labeler_match("{a,{b,c}}/x", "c/x"));
        assert!(labeler_match("{a}/x", "{a}/x"), "a group without a comma is literal");
        assert_eq!(
            super::expand_braces("x{a,b}y{1,2}").unwrap(),
            ["xay1", "xay2", "xby1", "xby2"]
        );
        assert_eq!(super::expand_braces("{a,b"), None);
        assert!(super::labeler_problem("!docs/**").unwrap().contains("negated"));
        assert!(super::labeler_problem("{src,lib/**").unwrap().contains("balanced"));
        assert!(super::labeler_problem(&"{a,b}".repeat(9)).unwrap().contains("256"));
        assert_eq!(super::labeler_problem("{src,lib}/**"), None);
    }

    #[test]
    fn table() {
        let cases = [
            ("docs/**", "docs/a/b.md", true),
            ("docs/**", "docs", true),
            ("docs/**", "src/docs/a.md", false),
            ("**/*.md", "README.md", true),
            ("**/*.md", "a/b/c.md", true),
            ("*.md", "a/b.md", false),
            ("src/*.rs", "src/lib.rs", true),
            ("src/*.rs", "src/a/lib.rs", false),
            ("src/**/test_*.rs", "src/x/y/test_a.rs", true),
            ("?.txt", "a.txt", true),
            ("?.txt", "ab.txt", false),
            ("[ab].txt", "b.txt", true),
            ("[!ab].txt", "b.txt", false),
            ("[a-c]x", "bx", true),
            (".github/**", ".github/workflows/ci.yml", true),
            ("**", ".env", true),
            ("*", "x/y", false),
        ];
        for (pattern, path, want) in cases {
            assert_eq!(glob_match(pattern, path), want, "{pattern} vs {path}");
        }
    }

    #[test]
    fn a_glob_read_once_matches_as_its_alternatives_do() {
        let patterns = [
            "docs/**",
            "**/*.md",
            "./src/*.rs",
            "{src,lib}/**",
            "**/*.{rs,js}",
            "{a,{b,c}}/x",
            "{a}/x",
            "{a,b",
            "[!ab].txt",
            "**",
        ];
        let paths = [
            "docs/a/b.md",
            "README.md",
            "src/lib.rs",
            "lib/github/read.js",
            "c/x",
            "{a}/x",
            "{a,b",
            "c.txt",
            ".env",
            &["a"; 40].join("/"),
        ];
        for pattern in patterns {
            let glob = super::LabelerGlob::new(pattern);
            // The oracle: each brace alternative through glob_match, the one-pattern matcher.
            let alternatives = super::expand_braces(pattern).unwrap_or_else(|| vec![pattern.to_string()]);
            for path in paths {
                let segments: Vec<&str> = path.split('/').collect();
                let want = alternatives.iter().any(|p| super::glob_match(p, path));
                assert_eq!(glob.matches(&segments), want, "{pattern} vs {path}");
            }
        }
    }
}
