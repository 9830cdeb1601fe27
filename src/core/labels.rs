//! From "which labels should be on this pull request" to one label edit, shared by every flow.
//!
//! A rule says, per label, present or absent with a reason; a label no rule speaks for is left alone,
//! which is how "a fact that could not be read never removes anything" is kept. Additions are filtered
//! against the repository's real labels (GitHub rejects a whole edit over one unknown name); removals
//! are not, since they are built from labels the pull request provably has; an unreadable label set
//! filters nothing, because a failed read must not silently strip the board.

use crate::core::facts::{Facts, PullFact, PullRequest, RepoFact};
use crate::core::plan::{Guard, LabelChange, Op, Warning};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Want {
    Present(String),
    Absent(String),
}

/// What the rules want of each label they speak for, in the order they spoke.
#[derive(Debug, Default, Clone)]
pub struct Wants(pub Vec<(String, Want)>);

impl Wants {
    pub fn present(&mut self, label: &str, reason: impl Into<String>) {
        self.0.push((label.to_string(), Want::Present(reason.into())));
    }

    pub fn absent(&mut self, label: &str, reason: impl Into<String>) {
        self.0.push((label.to_string(), Want::Absent(reason.into())));
    }

    /// Absent, with the reason built only when `pr` carries the label. An absent want only ever removes
    /// a label the pull request has (`label_edit`), so for one it does not carry nothing is recorded:
    /// on a board most of these reasons are about labels that are not there, and were formatted for nothing.
    pub fn absent_if_carried(&mut self, pr: &PullRequest, label: &str, reason: impl FnOnce() -> String) {
        if pr.has_label(label) {
            self.absent(label, reason());
        }
    }

    /// Present or absent by a condition, with the reason for each case.
    pub fn set(&mut self, label: &str, on: bool, reason: impl Into<String>) {
        if on {
            self.present(label, reason)
        } else {
            self.absent(label, reason)
        }
    }
}

/// The single label edit that brings `pr` to `wants`, or none; warnings for what cannot be done.
/// `summary` is the edit's reason, made only when there is an edit: reconcile asks for one on every
/// pull request of the board, and most of them need no change.
pub fn label_edit(
    facts: &Facts,
    pr: &PullRequest,
    wants: &Wants,
    summary: impl FnOnce() -> String,
    warnings: &mut Vec<Warning>,
) -> Option<Op> {
    let (add, remove) = label_changes(facts, pr, wants, warnings)?;
    // Decided from this head's reviews and checks: a push in between makes it a decision about
    // another commit, so it is not applied, and the next run decides again.
    Some(Op::EditLabels {
        number: pr.number,
        add,
        remove,
        reason: summary(),
        guard: Guard::head(&pr.head_sha),
    })
}

/// The additions and removals of `label_edit`, or none (one copy of it, whatever the summary's closure).
fn label_changes(
    facts: &Facts,
    pr: &PullRequest,
    wants: &Wants,
    warnings: &mut Vec<Warning>,
) -> Option<(Vec<LabelChange>, Vec<LabelChange>)> {
    if pr.unknown(PullFact::Labels) {
        warnings.push(Warning {
            number: Some(pr.number),
            message: "its labels could not be read; no label was changed".into(),
        });
        return None;
    }
    let repo_known = !facts.repo_unknown(RepoFact::Labels);
    let mut add: Vec<LabelChange> = Vec::new();
    let mut remove: Vec<LabelChange> = Vec::new();
    for (label, want) in &wants.0 {
        match want {
            Want::Present(reason) if !pr.has_label(label) && !add.iter().any(|c| &c.label == label) => {
                if repo_known && !facts.labels.iter().any(|l| l == label) {
                    warnings.push(Warning {
                        number: Some(pr.number),
                        message: format!("label {label:?} does not exist in the repository, so it was not added ({reason}); `prflow labels` creates it"),
                    });
                } else {
                    add.push(LabelChange {
                        label: label.clone(),
                        reason: reason.clone(),
                    });
                }
            }
            Want::Absent(reason) if pr.has_label(label) && !remove.iter().any(|c| &c.label == label) => {
                remove.push(LabelChange {
                    label: label.clone(),
                    reason: reason.clone(),
                });
            }
            _ => {}
        }
    }
    (!add.is_empty() || !remove.is_empty()).then_some((add, remove))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_edit_expects_the_head_it_was_decided_on() {
        let facts = Facts {
            labels: vec!["a".into()],
            ..Facts::default()
        };
        let pr = PullRequest {
            number: 4,
            head_sha: "h4".into(),
            ..PullRequest::default()
        };
        let mut wants = Wants::default();
        wants.present("a", "why");
        let op = label_edit(&facts, &pr, &wants, || "s".into(), &mut vec![]).expect("an edit");
        assert_eq!(op.guard().and_then(|g| g.head.as_deref()), Some("h4"));
    }
}
