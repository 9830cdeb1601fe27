//! Path globs as actions/labeler and most GitHub tooling read them (minimatch with `dot: true`):
//! `*` and `?` stay inside one path segment, a `**` segment spans any number of segments.

/// Whether `path` (repository-relative, `/`-separated) matches `pattern`.
pub fn glob_match(pattern: &str, path: &str) -> bool {
    let pattern = pattern.trim_start_matches("./");
    let pat: Vec<&str> = pattern.split('/').collect();
    let segs: Vec<&str> = path.split('/').collect();
    match_segments(&pat, &segs)
}

fn match_segments(pat: &[&str], segs: &[&str]) -> bool {
    match pat.split_first() {
        None => segs.is_empty(),
        Some((&"**", rest)) => (0..=segs.len()).any(|skip| match_segments(rest, &segs[skip..])),
        Some((first, rest)) => match segs.split_first() {
            Some((seg, more)) => match_segment(first.as_bytes(), seg.as_bytes()) && match_segments(rest, more),
            None => false,
        },
    }
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
    use super::glob_match;

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
}
