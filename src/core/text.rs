//! Text from elsewhere (a command's output, a CI log, a check's name, a branch) placed in the Markdown
//! the tool writes, quoted so the structure around it holds: a fence longer than any backtick run
//! inside (a log holding ```` ``` ```` cannot close the block and turn the Retry box into code), and
//! mentions and references made inert (a log saying `@org/team` must not page a team). Masking the
//! token is the shell's, before the text enters the facts: the engine never sees it.

/// Zero-width space: after `@` or `#` it keeps the text readable and the mention or link dead.
const ZWSP: char = '\u{200B}';

/// `text` in a fenced code block whose fence is one backtick longer than the longest run inside
/// (at least three), its mentions and references made inert.
pub fn code_block(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}\n{}\n{fence}", inert(text))
}

/// `text` as inline code whose delimiters outlast every backtick run inside, on one line.
pub fn code_span(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let tick = "`".repeat(longest + 1);
    if longest == 0 {
        format!("{tick}{text}{tick}")
    } else {
        format!("{tick} {text} {tick}")
    }
}

/// `text` with every `@name` and `#123` broken by a zero-width space, so GitHub links neither.
pub fn inert(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        let next = chars.peek().copied();
        let live = match c {
            '@' => next.is_some_and(|n| n.is_ascii_alphanumeric()),
            '#' => next.is_some_and(|n| n.is_ascii_digit()),
            _ => false,
        };
        if live {
            out.push(ZWSP);
        }
    }
    out
}

/// One line of text from elsewhere for Markdown prose: inert, its HTML and Markdown's own openers
/// escaped, on one line, so it cannot open a comment, a tag, a list item or a heading.
pub fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in inert(text).chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '`' | '*' | '_' | '[' | ']' | '|' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_outlasts_every_backtick_run_inside() {
        assert_eq!(code_block("plain"), "```\nplain\n```");
        let hostile = "before\n```\n- [x] Retry\n````\nafter";
        let block = code_block(hostile);
        assert!(block.starts_with("`````\n") && block.ends_with("\n`````"), "{block}");
    }

    #[test]
    fn mentions_and_references_are_inert_and_emails_and_anchors_kept_readable() {
        assert_eq!(
            inert("ping @org/team about #12"),
            "ping @\u{200B}org/team about #\u{200B}12"
        );
        assert_eq!(inert("a@ b # c #x"), "a@ b # c #x");
    }

    #[test]
    fn an_inline_name_cannot_open_html_or_markdown() {
        assert_eq!(inline("<!-- x\n- [ ] y `z`"), "&lt;!-- x - \\[ \\] y \\`z\\`");
    }
}
