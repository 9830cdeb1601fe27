//! The AI first pass's outcome: the review a station posts and whether it bounces the pull request.
//! An AI review whose first line starts with BLOCKING sends `/changes`, so the pull request goes back
//! to its author; any other answer waits for a person. The review is a COMMENT (`Op::PostReview` has
//! no event to set), so the AI can bounce a pull request and never approve one.

use crate::core::plan::{Guard, Op};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const BLOCKING: &str = "BLOCKING";
pub const CHANGES_COMMAND: &str = "/changes";
/// The AI's output is cut here before it is posted (GitHub's body limit is 65,536 characters).
pub const MAX_REVIEW_CHARS: usize = 60_000;
/// What is posted when the AI printed nothing, so the pull request still shows the pass ran.
pub const EMPTY_REVIEW: &str = "(the AI first pass produced no text)";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReviewOutcome {
    pub blocking: bool,
    /// The review, then `/changes` when blocking; both only while the head is the one reviewed.
    pub ops: Vec<Op>,
    pub why: String,
}

/// What to write after the AI reviewed `head` of pull request `number` and printed `output`.
pub fn review_outcome(number: u64, head: &str, output: &str) -> ReviewOutcome {
    let cut: String = output.chars().take(MAX_REVIEW_CHARS).collect();
    let body = match cut.trim() {
        "" => EMPTY_REVIEW.to_string(),
        text => text.to_string(),
    };
    let blocking = body.lines().next().is_some_and(|first| first.starts_with(BLOCKING));
    let short = head.get(..7).unwrap_or(head);
    let mut ops = vec![Op::PostReview {
        number,
        body,
        reason: format!("the AI first pass on {short}"),
        guard: Guard::head(head),
    }];
    let why = if blocking {
        ops.push(Op::Comment {
            number,
            body: CHANGES_COMMAND.into(),
            reason: format!("the AI first pass on {short} starts with {BLOCKING}"),
            guard: Guard::head(head),
        });
        format!("#{number}: first pass {BLOCKING}, sent {CHANGES_COMMAND}")
    } else {
        format!("#{number}: first pass done; waits for a person")
    };
    ReviewOutcome { blocking, ops, why }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(o: &ReviewOutcome) -> Vec<&'static str> {
        o.ops
            .iter()
            .map(|op| match op {
                Op::PostReview { .. } => "review",
                Op::Comment { body, .. } if body == CHANGES_COMMAND => "changes",
                _ => "other",
            })
            .collect()
    }

    #[test]
    fn a_first_line_starting_with_blocking_sends_changes_on_the_reviewed_head() {
        let o = review_outcome(7, "abc1234def", "\n  BLOCKING: the migration drops a column\nmore");
        assert!(o.blocking);
        assert_eq!(kinds(&o), ["review", "changes"]);
        assert!(
            o.ops
                .iter()
                .all(|op| op.guard().and_then(|g| g.head.as_deref()) == Some("abc1234def")),
            "every write expects the reviewed head: {o:?}"
        );
    }

    #[test]
    fn blocking_anywhere_but_the_first_line_only_reviews() {
        let o = review_outcome(7, "h", "Looks fine.\nBLOCKING would be too strong here");
        assert!(!o.blocking);
        assert_eq!(kinds(&o), ["review"]);
        assert!(
            !review_outcome(7, "h", "blocking: lower case").blocking,
            "the word is BLOCKING, as the prompt asks"
        );
    }

    #[test]
    fn empty_output_posts_a_placeholder_and_long_output_is_cut() {
        let o = review_outcome(7, "h", "  \n ");
        assert!(matches!(&o.ops[0], Op::PostReview { body, .. } if body == EMPTY_REVIEW));
        let long = "é".repeat(MAX_REVIEW_CHARS + 10);
        let o = review_outcome(7, "h", &long);
        assert!(matches!(&o.ops[0], Op::PostReview { body, .. } if body.chars().count() == MAX_REVIEW_CHARS));
    }
}
