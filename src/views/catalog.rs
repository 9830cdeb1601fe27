//! The label catalogue: every label a config makes the tool write, with a colour and a description
//! that says who sets it and what it means. `prflow labels` and the Action's `labels` mode upsert it,
//! so labels come into being by the tool, never by hand, and a renamed label in the config is a
//! renamed label on GitHub. The shells only compare and write; the words live here.

use crate::core::config::{Config, ConfigError};
use crate::core::plan::Op;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// GitHub rejects a label description longer than this.
pub const MAX_DESCRIPTION: usize = 100;

/// Every description the tool writes carries this word, so a later run can tell its own labels
/// (which it may report as unused) from the ones people made (which it never mentions).
pub const OWNER_MARK: &str = "prflow";

/// Colours by family, so the board reads at a glance: who holds the ball, what blocks, human intent.
pub const COLOR_DRAFT: &str = "d4c5f9";
pub const COLOR_BOTS_REVIEWING: &str = "fbca04";
pub const COLOR_ADDRESSING: &str = "1d76db";
pub const COLOR_NEEDS_HUMAN: &str = "0e8a16";
pub const COLOR_BLOCKER: &str = "b60205";
pub const COLOR_MERGE_NEXT: &str = "5319e7";
pub const COLOR_STALE: &str = "bfbfbf";
pub const COLOR_SCOPE: &str = "c5def5";
pub const COLOR_QUEUE: &str = "0052cc";
pub const COLOR_BOARD: &str = "ededed";

/// One label as GitHub stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LabelSpec {
    pub name: String,
    /// Six hex digits, no `#` (GitHub's REST form).
    pub color: String,
    /// At most 100 characters: who sets it, and what it means.
    pub description: String,
}

/// The catalogue of a config, or the config's problems (and then no labels: a bad config writes nothing).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Catalog {
    #[serde(default)]
    pub config_errors: Vec<ConfigError>,
    pub labels: Vec<LabelSpec>,
    /// The word every description carries; a repository label with it that the catalogue lacks is unused.
    pub owner_mark: String,
}

fn spec(name: &str, color: &str, description: String) -> LabelSpec {
    LabelSpec {
        name: name.to_string(),
        color: color.to_string(),
        description: fit(description),
    }
}

/// Cut to GitHub's limit on a character boundary, with an ellipsis that says text was cut.
fn fit(text: String) -> String {
    if text.chars().count() <= MAX_DESCRIPTION {
        return text;
    }
    let mut cut: String = text.chars().take(MAX_DESCRIPTION - 1).collect();
    cut.push('…');
    cut
}

/// The labels a valid config uses, in the order the board reads them: states, blockers, intent, scopes.
pub fn label_catalog(config: &Config) -> Vec<LabelSpec> {
    if config.flow == crate::core::config::Flow::Stations {
        return stations_labels(config);
    }
    let l = &config.labels;
    let mut out = vec![
        spec(
            &l.draft,
            COLOR_DRAFT,
            "Set by prflow: a draft, still being built by its author.".into(),
        ),
        spec(
            &l.bots_reviewing,
            COLOR_BOTS_REVIEWING,
            "Set by prflow: a review request to a panel bot is live; the bots hold the ball.".into(),
        ),
        spec(
            &l.addressing,
            COLOR_ADDRESSING,
            "Set by prflow: the author's agent holds the ball (changes asked, round stale or blocked).".into(),
        ),
        spec(
            &l.needs_human,
            COLOR_NEEDS_HUMAN,
            "Set by prflow (an agent may set it early): a human could merge this right now.".into(),
        ),
        spec(
            &l.blocker_conflict,
            COLOR_BLOCKER,
            "Set by prflow: GitHub reports a merge conflict with the base branch.".into(),
        ),
        spec(
            &l.blocker_checks,
            COLOR_BLOCKER,
            "Set by prflow: a check on the head commit failed.".into(),
        ),
        spec(
            &l.blocker_unrequested,
            COLOR_BLOCKER,
            "Set by prflow: a panel bot has no verdict on the head commit and was not asked.".into(),
        ),
        spec(
            &l.merge_next,
            COLOR_MERGE_NEXT,
            "Set by a human: merge this one next. prflow only clears it when it stops being mergeable.".into(),
        ),
    ];
    if config.stale.days > 0 {
        out.push(spec(
            &l.stale,
            COLOR_STALE,
            format!(
                "Set by prflow: no commits, comments or reviews for {} days.",
                config.stale.days
            ),
        ));
    }
    for (name, globs) in &config.scopes {
        out.push(spec(
            name,
            COLOR_SCOPE,
            format!("Set by prflow from changed paths: {}", globs.join(", ")),
        ));
    }
    out
}

/// The labels the stations flow writes, for the label catalogue: the six states, `prio:high`, and
/// `from:`/`reviewer:` for every configured machine (by role).
fn stations_labels(config: &Config) -> Vec<LabelSpec> {
    let st = &config.stations;
    let l = &st.labels;
    let spec = |name: &str, color: &str, description: String| LabelSpec {
        name: name.to_string(),
        color: color.to_string(),
        description,
    };
    let mut out = vec![
        spec(
            &l.dev,
            "d4c5f9",
            "Set by prflow: a draft; its author's machine is still building it.".into(),
        ),
        spec(
            &l.ready_for_review,
            "fbca04",
            "Set by prflow: waiting for a review station to claim it.".into(),
        ),
        spec(
            &l.reviewing,
            "0052cc",
            "Set by prflow claim: a review station holds it (see reviewer:*).".into(),
        ),
        spec(
            &l.changes_requested,
            "1d76db",
            "Set by prflow: back with the author's machine; it says /ready when fixed.".into(),
        ),
        spec(
            &l.gate,
            "5319e7",
            format!(
                "Set by prflow: approved by a person, waiting for the {} gate.",
                st.gate.context
            ),
        ),
        spec(
            &l.ready_to_merge,
            "0e8a16",
            format!(
                "Set by prflow: approved and {} passed on the head commit.",
                st.gate.context
            ),
        ),
        spec(
            &l.prio_high,
            "b60205",
            "Set by a person: review stations claim it first (prflow).".into(),
        ),
    ];
    for (id, m) in &st.machines {
        if matches!(
            m.role,
            crate::core::config::stations::Role::Dev | crate::core::config::stations::Role::Any
        ) {
            out.push(spec(
                &format!("{}{id}", l.from_prefix),
                "c5def5",
                format!("Set by machine {id} when it opens a pull request (prflow's author)."),
            ));
        }
        if matches!(
            m.role,
            crate::core::config::stations::Role::Review | crate::core::config::stations::Role::Any
        ) {
            out.push(spec(
                &format!("{}{id}", l.reviewer_prefix),
                "bfd4f2",
                format!("Set by prflow claim: review station {id} holds it."),
            ));
        }
    }
    out
}

/// The merge queue's labels: people set them, the queue reads them (`skip-ci` it also writes).
pub fn queue_labels(config: &Config) -> Vec<LabelSpec> {
    let q = &config.queue.labels;
    vec![
        spec(
            &q.merge_queued,
            COLOR_QUEUE,
            "Set by a human: land this through prflow's merge queue, in its declared order.".into(),
        ),
        spec(
            &q.skip_ci,
            COLOR_QUEUE,
            "prflow's queue pause: pushes under it run no checks; taking it off releases the pull request.".into(),
        ),
        spec(
            &q.blocks_release,
            COLOR_QUEUE,
            "Set by a human: the next release must contain this; prflow holds the version pull request.".into(),
        ),
        spec(
            &q.auto_rebase,
            COLOR_QUEUE,
            "Set by a human: prflow keeps this pull request on the tip of the base while it waits.".into(),
        ),
        spec(
            &q.priority_high,
            COLOR_QUEUE,
            "Set by a human: prflow's merge queue picks this first among the candidates.".into(),
        ),
        spec(
            &q.priority_low,
            COLOR_QUEUE,
            "Set by a human: prflow's merge queue picks this last among the candidates.".into(),
        ),
    ]
}

/// The entry point as the boundary calls it: a config value in, the catalogue or its errors out.
/// The merge queue's and the board's labels are catalogued only when the config has that section:
/// every section has defaults, so its presence is how a team says it uses that part.
pub fn catalog_value(config: serde_json::Value) -> Catalog {
    let has = |key: &str| config.get(key).is_some();
    let (queue, followup) = (has("queue"), has("followup"));
    catalog_of(Config::from_value(config), queue, followup)
}

/// The catalogue of a config already validated, told which optional sections the file named.
pub fn catalog_of(config: Result<Config, Vec<ConfigError>>, queue: bool, followup: bool) -> Catalog {
    match config {
        Ok(config) => {
            let mut labels = label_catalog(&config);
            if queue {
                labels.extend(queue_labels(&config));
            }
            if followup && config.followup.board.enabled {
                labels.push(spec(
                    &config.followup.board.label,
                    COLOR_BOARD,
                    "Set by prflow's follow-up sweep: the one issue that holds the pull request board.".into(),
                ));
            }
            Catalog {
                config_errors: Vec::new(),
                labels,
                owner_mark: OWNER_MARK.into(),
            }
        }
        Err(errors) => Catalog {
            config_errors: errors,
            labels: Vec::new(),
            owner_mark: OWNER_MARK.into(),
        },
    }
}

/// A repository label as `GET /repos/{owner}/{repo}/labels` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RepoLabel {
    pub name: String,
    pub color: String,
    #[serde(default)]
    pub description: Option<String>,
}

/// One catalogue label against the repository: `create`, `update`, `unchanged`, or `invalid` (GitHub
/// would refuse it; `detail` says why and no op is made).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LabelRow {
    pub name: String,
    pub color: String,
    pub description: String,
    pub change: String,
    pub detail: String,
}

/// What `prflow labels` writes: create the missing, update colour, words or name case where they
/// differ, never delete. `unused` are the tool's own labels (the owner mark in their description)
/// that the catalogue no longer has: reported, kept.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LabelSync {
    pub rows: Vec<LabelRow>,
    pub ops: Vec<Op>,
    pub unused: Vec<String>,
}

/// Why GitHub would refuse this label, or none.
fn label_problem(l: &LabelSpec) -> Option<String> {
    let name = l.name.chars().count();
    if name == 0 || name > 50 {
        return Some(format!("name must be 1 to 50 characters, found {:?}", l.name));
    }
    if l.color.len() != 6 || !l.color.chars().all(|c| c.is_ascii_hexdigit()) {
        return Some(format!("color must be six hex digits without #, found {:?}", l.color));
    }
    let n = l.description.chars().count();
    (n > MAX_DESCRIPTION).then(|| format!("description is {n} characters; GitHub allows at most {MAX_DESCRIPTION}"))
}

/// `mark` as a whole word of `text`, without case (a label the tool made says so in its description).
fn has_word(text: &str, mark: &str) -> bool {
    let (text, mark) = (text.to_lowercase(), mark.to_lowercase());
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    !mark.is_empty()
        && text
            .match_indices(&mark)
            .any(|(i, _)| !word(text[..i].chars().next_back()) && !word(text[i + mark.len()..].chars().next()))
}

/// The catalogue set against the labels the repository has.
pub fn label_sync(catalog: &Catalog, existing: &[RepoLabel]) -> LabelSync {
    let mut out = LabelSync::default();
    for want in &catalog.labels {
        let row = |change: &str, detail: String| LabelRow {
            name: want.name.clone(),
            color: want.color.clone(),
            description: want.description.clone(),
            change: change.into(),
            detail,
        };
        if let Some(problem) = label_problem(want) {
            out.rows.push(row("invalid", problem));
            continue;
        }
        // GitHub's label names are unique without case: `State:X` is the label `state:x` renames.
        let Some(have) = existing
            .iter()
            .find(|l| l.name.to_lowercase() == want.name.to_lowercase())
        else {
            out.ops.push(Op::CreateLabel {
                name: want.name.clone(),
                color: want.color.clone(),
                description: want.description.clone(),
                reason: "the config uses it".into(),
            });
            out.rows.push(row("create", String::new()));
            continue;
        };
        let mut diffs = Vec::new();
        if have.name != want.name {
            diffs.push(format!("name {} → {}", have.name, want.name));
        }
        if !have.color.eq_ignore_ascii_case(&want.color) {
            diffs.push(format!("colour {} → {}", have.color, want.color));
        }
        if have.description.as_deref().unwrap_or_default() != want.description {
            diffs.push("description".into());
        }
        if diffs.is_empty() {
            out.rows.push(row("unchanged", String::new()));
            continue;
        }
        let detail = diffs.join(", ");
        out.ops.push(Op::UpdateLabel {
            name: have.name.clone(),
            new_name: want.name.clone(),
            color: want.color.clone(),
            description: want.description.clone(),
            reason: detail.clone(),
        });
        out.rows.push(row("update", detail));
    }
    out.unused = existing
        .iter()
        .filter(|l| {
            !catalog
                .labels
                .iter()
                .any(|w| w.name.to_lowercase() == l.name.to_lowercase())
        })
        .filter(|l| has_word(l.description.as_deref().unwrap_or_default(), &catalog.owner_mark))
        .map(|l| l.name.clone())
        .collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct Case {
        rule: &'static str,
        config: serde_json::Value,
        expect_names: &'static [&'static str],
    }

    #[test]
    fn catalogue_lists_every_label_the_config_uses() {
        let cases = [
            Case {
                rule: "the preset uses its nine labels",
                config: json!({}),
                expect_names: &[
                    "state:draft",
                    "state:bots-reviewing",
                    "state:addressing",
                    "state:needs-human",
                    "blocker:conflict",
                    "blocker:checks",
                    "blocker:unrequested",
                    "merge-next",
                    "stale",
                ],
            },
            Case {
                rule: "stale.days 0 turns the stale label off, so it is not created",
                config: json!({"stale": {"days": 0}}),
                expect_names: &[
                    "state:draft",
                    "state:bots-reviewing",
                    "state:addressing",
                    "state:needs-human",
                    "blocker:conflict",
                    "blocker:checks",
                    "blocker:unrequested",
                    "merge-next",
                ],
            },
            Case {
                rule: "a renamed label is catalogued under its new name; scopes follow",
                config: json!({"labels": {"needsHuman": "ready"}, "scopes": {"scope:docs": ["docs/**"]}}),
                expect_names: &[
                    "state:draft",
                    "state:bots-reviewing",
                    "state:addressing",
                    "ready",
                    "blocker:conflict",
                    "blocker:checks",
                    "blocker:unrequested",
                    "merge-next",
                    "stale",
                    "scope:docs",
                ],
            },
            Case {
                rule: "a queue section catalogues the queue's labels, under the names it gives them",
                config: json!({"flow": "stations", "queue": {"labels": {"skipCi": "queue:paused"}}}),
                expect_names: &[
                    "state:dev",
                    "state:ready-for-review",
                    "state:reviewing",
                    "state:changes-requested",
                    "state:win-verify",
                    "state:ready-to-merge",
                    "prio:high",
                    "merge-queued",
                    "queue:paused",
                    "blocks-release",
                    "auto-rebase",
                    "priority:high",
                    "priority:low",
                ],
            },
            Case {
                rule: "a followup section catalogues the board's label",
                config: json!({"stale": {"days": 0}, "followup": {"board": {"label": "board"}}}),
                expect_names: &[
                    "state:draft",
                    "state:bots-reviewing",
                    "state:addressing",
                    "state:needs-human",
                    "blocker:conflict",
                    "blocker:checks",
                    "blocker:unrequested",
                    "merge-next",
                    "board",
                ],
            },
            Case {
                rule: "a board turned off needs no label",
                config: json!({"stale": {"days": 0}, "followup": {"board": {"enabled": false}}}),
                expect_names: &[
                    "state:draft",
                    "state:bots-reviewing",
                    "state:addressing",
                    "state:needs-human",
                    "blocker:conflict",
                    "blocker:checks",
                    "blocker:unrequested",
                    "merge-next",
                ],
            },
        ];
        for case in cases {
            let catalog = catalog_value(case.config);
            let names: Vec<&str> = catalog.labels.iter().map(|l| l.name.as_str()).collect();
            assert_eq!(names, case.expect_names, "{}", case.rule);
            for label in &catalog.labels {
                assert!(
                    label.description.chars().count() <= MAX_DESCRIPTION,
                    "{}: {:?} too long",
                    case.rule,
                    label.description
                );
                assert!(
                    label.description.contains(OWNER_MARK),
                    "{}: {:?} lacks the owner mark",
                    case.rule,
                    label.description
                );
                assert!(
                    label.color.len() == 6 && label.color.chars().all(|c| c.is_ascii_hexdigit()),
                    "{}: colour {:?}",
                    case.rule,
                    label.color
                );
            }
        }
    }

    #[test]
    fn long_scope_descriptions_are_cut_to_githubs_limit() {
        let globs: Vec<String> = (0..40).map(|i| format!("packages/component-{i}/**")).collect();
        let catalog = catalog_value(json!({"scopes": {"scope:many": globs}}));
        let scope = catalog
            .labels
            .iter()
            .find(|l| l.name == "scope:many")
            .expect("scope catalogued");
        assert_eq!(scope.description.chars().count(), MAX_DESCRIPTION);
        assert!(scope.description.ends_with('…'));
    }

    #[test]
    fn a_bad_config_yields_its_errors_and_no_labels() {
        let catalog = catalog_value(json!({"labels": {"stale": 3}}));
        assert!(catalog.labels.is_empty());
        assert_eq!(catalog.config_errors[0].path, "$.labels.stale");
    }

    #[test]
    fn label_sync_creates_updates_and_never_deletes() {
        let want = |name: &str, color: &str, description: &str| LabelSpec {
            name: name.into(),
            color: color.into(),
            description: description.into(),
        };
        let have = |name: &str, color: &str, description: &str| RepoLabel {
            name: name.into(),
            color: color.into(),
            description: Some(description.into()),
        };
        let catalog = Catalog {
            config_errors: vec![],
            labels: vec![
                want("state:needs-human", "0e8a16", "prflow sets it"),
                want("blocker:checks", "b60205", "prflow sets it"),
                want("too:long", "b60205", &"x".repeat(101)),
                want("same", "ABCDEF", "prflow"),
            ],
            owner_mark: OWNER_MARK.into(),
        };
        let existing = [
            have("State:Needs-Human", "000000", "old"),
            have("state:retired", "ededed", "prflow: no longer used"),
            have("bug", "d73a4a", "Something isn't working"),
            have("notprflowish", "ededed", "notprflow"),
            have("same", "abcdef", "prflow"),
        ];
        let sync = label_sync(&catalog, &existing);
        let rows: Vec<(&str, &str)> = sync.rows.iter().map(|r| (r.name.as_str(), r.change.as_str())).collect();
        assert_eq!(
            rows,
            [
                ("state:needs-human", "update"),
                ("blocker:checks", "create"),
                ("too:long", "invalid"),
                ("same", "unchanged")
            ]
        );
        assert_eq!(
            sync.rows[0].detail,
            "name State:Needs-Human → state:needs-human, colour 000000 → 0e8a16, description"
        );
        assert!(sync.rows[2]
            .detail
            .contains("101 characters; GitHub allows at most 100"));
        assert!(
            matches!(&sync.ops[..], [Op::UpdateLabel { name, new_name, .. }, Op::CreateLabel { .. }] if name == "State:Needs-Human" && new_name == "state:needs-human")
        );
        assert_eq!(
            sync.unused,
            ["state:retired"],
            "the tool's own word, whole; `bug` and `notprflowish` are not ours"
        );
    }
}
